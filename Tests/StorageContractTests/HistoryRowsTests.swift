import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import Testing
import Triage

/// The checks a generated past meets before either store writes it, without a store.
@Suite("History rows: a past names only its practice's own, and is stored as written")
struct HistoryRowsTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let patient = UUID()
    let clinician = UUID()
    let type = Identifier<AppointmentType>()
    let room = Identifier<Room>()
    let practiceID = PracticeID()

    var references: HistoryReferences {
        var references = HistoryReferences(practiceID: practiceID)
        references.clinicians = [clinician]
        references.appointmentTypes = [type.rawValue]
        references.rooms = [room.rawValue]
        references.patients[patient] = HistoryReferences.Patient(
            species: .cat, birthDate: now.addingTimeInterval(-400 * 86_400))
        return references
    }

    func visit(
        patient: UUID? = nil, clinician: UUID? = nil, room: Identifier<Room>? = nil,
        status: AppointmentStatus = .completed, practiceID: PracticeID? = nil
    ) -> Appointment {
        Appointment(
            practiceID: practiceID ?? self.practiceID, patientID: patient ?? self.patient,
            clinicianID: clinician ?? self.clinician, appointmentTypeID: type, roomType: .exam,
            roomID: room ?? self.room,
            time: TimeRange(start: now.addingTimeInterval(-7_200), end: now.addingTimeInterval(-6_300))!,
            status: status)
    }

    @Test("an appointment naming another practice's patient, clinician, room or practice is a 404 naming it")
    func foreignReferences() {
        let references = references
        let cases: [(Appointment, String)] = [
            (visit(patient: UUID()), "patient"), (visit(clinician: UUID()), "clinician"),
            (visit(room: Identifier()), "room"), (visit(practiceID: PracticeID()), "practice"),
        ]
        for (appointment, resource) in cases {
            #expect(throws: DomainError.notFound(resource: resource)) {
                _ = try references.appointmentRow(AppointmentRecord(appointment), now: now)
            }
        }
    }

    @Test("a past appointment keeps its booking time, its species, and a cancellation time only if cancelled")
    func appointmentRow() throws {
        let booked = now.addingTimeInterval(-86_400)
        let cancelled = now.addingTimeInterval(-10_000)
        let completed = try references.appointmentRow(
            AppointmentRecord(visit(), bookedAt: booked, cancelledAt: cancelled), now: now)
        #expect(completed.cancelledAtMs == nil && completed.createdAt == Timestamp.string(booked))
        #expect(completed.patientSpecies == "cat" && completed.holdsTime == AppointmentStatus.completed.holdsTime)
        let dropped = try references.appointmentRow(
            AppointmentRecord(visit(status: .cancelled), cancelledAt: cancelled), now: now)
        #expect(dropped.cancelledAtMs == Timestamp.milliseconds(cancelled))
        #expect(dropped.createdAt == Timestamp.string(now))
    }

    @Test("an arrival first seen before it arrived, or a weighing in the future, is refused naming the field")
    func arrivalsAndWeights() throws {
        let early = TriageArrival(
            patientID: patient, level: .orange, arrival: now, firstSeenAt: now.addingTimeInterval(-60))
        #expect(throws: ValidationError.self) { _ = try references.arrivalRow(early) }
        let future = WeightMeasurement(
            patientID: Identifier(patient), value: 4, unit: .kg, measuredAt: now.addingTimeInterval(86_400))
        #expect(throws: ValidationError.self) { _ = try references.weightRow(future, now: now) }
        let stray = WeightMeasurement(patientID: Identifier(), value: 4, unit: .kg, measuredAt: now)
        #expect(throws: DomainError.notFound(resource: "patient")) { _ = try references.weightRow(stray, now: now) }

        let weighing = WeightMeasurement(
            patientID: Identifier(patient), value: Decimal(string: "4.25")!, unit: .kg,
            measuredAt: now.addingTimeInterval(-3_600))
        let row = try references.weightRow(weighing, now: now)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(row)) as? [String: Any]
        #expect(json?["measured_at_ms"] as? Int64 == Timestamp.milliseconds(weighing.measuredAt))
        #expect(json?["value"] as? String == "4.25" && json?["grams"] as? Int == 4_250)
    }
}
