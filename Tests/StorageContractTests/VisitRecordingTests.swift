import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import Testing

/// The visit recording decision both stores ask, without a store: what a vet recording a
/// consultation sees refused, and what gets written when nothing is.
@Suite("Visit recording: one decision for both stores")
struct VisitRecordingTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let scope = AccessScope.system(PracticeID())
    let vet = UUID()
    let patient = Patient(name: "Bramble", species: .dog, ownerID: Identifier<Owner>())

    func appointment(for patientID: UUID, status: AppointmentStatus) -> Appointment {
        Appointment(
            practiceID: scope.practiceID, patientID: patientID, clinicianID: vet,
            appointmentTypeID: Identifier<AppointmentType>(),
            time: TimeRange(start: now.addingTimeInterval(-1800), end: now.addingTimeInterval(-900))!, status: status)
    }

    func reads(
        _ appointment: Appointment?, clinicianKnown: Bool = true, recorded: Bool = false
    ) -> VisitRecording.Reads {
        .init(
            patient: patient, problems: [], appointment: appointment, clinicianKnown: clinicianKnown,
            appointmentRecorded: recorded)
    }

    func visit(appointment: Appointment?, clinicianID: UUID? = nil) -> Visit {
        Visit(
            patientID: patient.id, appointmentID: appointment?.id.rawValue, clinicianID: clinicianID, occurredAt: now,
            chiefComplaint: "Vomiting",
            diagnoses: [Diagnosis(name: "Gastritis", addToProblemList: true)],
            treatmentPlan: TreatmentPlan(
                approaches: [.medical], summary: "Antiemetic",
                prescriptions: [
                    Medication(
                        patientID: patient.id, drug: "Maropitant", concentrationMgPerML: 10, doseMgPerKg: 1,
                        route: .subcutaneous, frequency: "once", startDate: now)
                ]))
    }

    @Test("a visit of the patient's attended appointment names its vet, adds a problem and a medication, audited")
    func recorded() throws {
        let seen = appointment(for: patient.id.rawValue, status: .completed)
        let decision = try VisitRecording.decide(
            visit(appointment: seen), otherErrors: [], reads: reads(seen), scope: scope, now: now)
        #expect(decision.visit.clinicianID == vet)
        #expect(decision.recorded.problems.map(\.name) == ["Gastritis"])
        #expect(decision.visit.diagnoses[0].problemID == decision.recorded.problems[0].id)
        #expect(decision.recorded.medications.map(\.drug) == ["Maropitant"])
        #expect(decision.events.map { $0.payload["entryType"] } == ["problem", "medication", "visit"])
        #expect(decision.audit.action == .recordVisitAdd)
        #expect(decision.audit.detail?.contains("appointment=\(UUIDText.lowercase(seen.id.rawValue))") == true)
        #expect(decision.audit.detail?.contains("problems_added=1 medications_added=1") == true)
    }

    @Test("every problem of the form is named at once: another patient's appointment, an unknown vet, the vitals")
    func everyProblem() {
        let theirs = appointment(for: UUID(), status: .completed)
        let vitals = FieldError(field: "vitals.heartRate", message: "must be between 10 and 400")
        #expect(
            throws: ValidationError([
                vitals, FieldError(field: "appointmentId", message: "is not an appointment of this patient"),
                FieldError(field: "clinicianId", message: "is not a clinician of this practice"),
            ])
        ) {
            try VisitRecording.decide(
                visit(appointment: theirs, clinicianID: UUID()), otherErrors: [vitals],
                reads: reads(theirs, clinicianKnown: false), scope: scope, now: now)
        }
    }

    @Test("an appointment the patient did not come to is refused by its status; a recorded one is refused once valid")
    func appointmentRules() throws {
        let missed = appointment(for: patient.id.rawValue, status: .noShow)
        #expect(
            throws: ValidationError(
                field: "appointmentId",
                message: "is no show; a visit is recorded for an appointment the patient came to")
        ) {
            try VisitRecording.decide(
                visit(appointment: missed), otherErrors: [], reads: reads(missed, recorded: true), scope: scope,
                now: now)
        }
        let seen = appointment(for: patient.id.rawValue, status: .completed)
        #expect(throws: VisitRecording.alreadyRecorded) {
            try VisitRecording.decide(
                visit(appointment: seen), otherErrors: [], reads: reads(seen, recorded: true), scope: scope, now: now)
        }
        // The vet the visit names outranks the appointment's.
        let other = UUID()
        let decision = try VisitRecording.decide(
            visit(appointment: seen, clinicianID: other), otherErrors: [], reads: reads(seen), scope: scope, now: now)
        #expect(decision.visit.clinicianID == other)
        #expect(VisitRecording.clinician(of: visit(appointment: nil), appointment: nil) == nil)
    }
}
