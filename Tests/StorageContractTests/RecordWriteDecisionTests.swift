import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import Testing

/// Smaller write decisions both stores ask, without a store: a patient's details replaced,
/// an appointment's reason and notes, and a lifecycle step saved over the stored row.
@Suite("Record and appointment writes: one decision for both stores")
struct RecordWriteDecisionTests {
    static let practice = PracticeID()
    let scope = AccessScope.system(Self.practice)
    let now = Timestamp.date("2026-11-30T09:00:00Z")!
    let patient = Patient(medicalRecordNumber: "P-000042", name: "Rex", species: .dog, ownerID: .init())
    let appointment = Appointment(
        practiceID: Self.practice, patientID: UUID(), clinicianID: UUID(), appointmentTypeID: .init(),
        time: TimeRange(
            start: Timestamp.date("2026-12-01T10:00:00Z")!, end: Timestamp.date("2026-12-01T10:30:00Z")!)!)

    @Test("a patient keeps their record number; archiving is named in the trail; an old version or none is refused")
    func patientUpdate() throws {
        var archived = patient
        archived.medicalRecordNumber = "P-999999"
        archived.status = .archived
        let update = try PatientUpdate.decide(
            archived, current: Versioned(patient, version: 4), expectedVersion: 4, scope: scope, now: now)
        #expect(update.patient.version == 5 && update.patient.value.medicalRecordNumber == "P-000042")
        #expect(update.audit.action == .patientUpdate && update.audit.detail == "status=archived")

        var renamed = patient
        renamed.name = "Rex II"
        let rename = try PatientUpdate.decide(
            renamed, current: Versioned(patient, version: 4), expectedVersion: nil, scope: scope, now: now)
        #expect(rename.audit.detail == nil)
        // Archived now: stamped; changed while archived: the first date stays; not archived: none.
        #expect(update.archiving == .archived(now))
        var archivedRename = archived
        archivedRename.name = "Rex II"
        let later = try PatientUpdate.decide(
            archivedRename, current: Versioned(archived, version: 5), expectedVersion: nil, scope: scope,
            now: now.addingTimeInterval(86_400))
        #expect(later.archiving == .kept)
        #expect(rename.archiving == PatientUpdate.Archiving.none)

        #expect(throws: DomainError.versionMismatch(current: 4)) {
            try PatientUpdate.decide(
                renamed, current: Versioned(patient, version: 4), expectedVersion: 3, scope: scope, now: now)
        }
        #expect(throws: DomainError.notFound(resource: "patient")) {
            try PatientUpdate.decide(renamed, current: nil, expectedVersion: nil, scope: scope, now: now)
        }
        var nameless = patient
        nameless.name = " "
        #expect(throws: ValidationError.self) {
            try PatientUpdate.decide(
                nameless, current: Versioned(patient, version: 4), expectedVersion: nil, scope: scope, now: now)
        }
    }

    @Test("notes: nil keeps a field, empty clears it, neither is refused; the event names identifiers only")
    func notes() throws {
        let current = Versioned(appointment, version: 2)
        let change = try AppointmentNotesChange.decide(
            reason: "", staffNotes: "Bring the lead", current: current, expectedVersion: 2, scope: scope, now: now)
        #expect(change.setsReason && change.reason == nil)
        #expect(change.setsStaffNotes && change.staffNotes == "Bring the lead")
        #expect(change.audit.detail == "reason,staffNotes")
        #expect(change.event.kind == AppointmentEventKind.notesChanged)
        #expect(change.event.payload["version"] == "3")
        #expect(!change.event.payload.values.contains("Bring the lead"))

        let notesOnly = try AppointmentNotesChange.decide(
            reason: nil, staffNotes: "x", current: current, expectedVersion: nil, scope: scope, now: now)
        #expect(!notesOnly.setsReason && notesOnly.audit.detail == "staffNotes")
        #expect(throws: ValidationError.self) {
            try AppointmentNotesChange.decide(
                reason: nil, staffNotes: nil, current: current, expectedVersion: nil, scope: scope, now: now)
        }
        #expect(throws: DomainError.versionMismatch(current: 2)) {
            try AppointmentNotesChange.decide(
                reason: "x", staffNotes: nil, current: current, expectedVersion: 1, scope: scope, now: now)
        }
    }

    @Test("a booking's trail names the patient and the assessment; a step is named by its event and moves the version")
    func lifecycle() throws {
        let booking = AppointmentDecision(previous: nil, current: appointment, eventKind: AppointmentEventKind.booked)
        let assessment = UUID()
        #expect(
            booking.audit(assessmentID: assessment).detail
                == "patient=\(UUIDText.lowercase(appointment.patientID)) assessment=\(UUIDText.lowercase(assessment))")
        #expect(booking.audit().action == .appointmentBook)

        var checkedIn = appointment
        checkedIn.status = .checkedIn
        let step = AppointmentDecision(
            previous: appointment, current: checkedIn, eventKind: AppointmentEventKind.checkedIn)
        #expect(step.audit().action == .event(AppointmentEventKind.checkedIn))
        #expect(try step.saved(over: Versioned(appointment, version: 1), expectedVersion: 1).version == 2)
        #expect(throws: DomainError.versionMismatch(current: 1)) {
            try step.saved(over: Versioned(appointment, version: 1), expectedVersion: 7)
        }
        #expect(throws: DomainError.notFound(resource: "appointment")) {
            try step.saved(over: nil, expectedVersion: nil)
        }
    }
}
