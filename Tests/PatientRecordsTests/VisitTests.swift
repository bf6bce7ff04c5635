import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Visit records and follow-up recalls")
struct VisitTests {
    static let patient = Identifier<Patient>()
    static func day(_ text: String) -> Date { RecordCalendar.date(fromISODay: text)! }
    static let visitTime = Timestamp.date("2026-06-10T10:30:00Z")!

    static func visit(at time: Date = visitTime, followUp: String? = nil, patient: Identifier<Patient> = patient)
        -> Visit
    {
        Visit(
            patientID: patient, occurredAt: time, chiefComplaint: "Itchy ears",
            diagnoses: [Diagnosis(name: "Examined")], followUpRequired: followUp != nil,
            followUpDate: followUp.map(day), followUpReason: followUp == nil ? nil : "Ear recheck")
    }

    @Test("every bad field of a visit is named at once")
    func validation() {
        let known = Identifier<Problem>()
        var visit = Visit(
            patientID: Self.patient, occurredAt: Self.visitTime.addingTimeInterval(86_400), chiefComplaint: "  ",
            diagnoses: [
                Diagnosis(name: "Otitis", problemID: Identifier()),
                Diagnosis(name: "Atopy", certainty: .ruledOut, addToProblemList: true),
                Diagnosis(name: "Allergy", problemID: known),
            ],
            treatmentPlan: TreatmentPlan(approaches: [.surgical], summary: ""), followUpRequired: true)
        do {
            try visit.validate(now: Self.visitTime, birthDate: nil, problems: [known])
            Issue.record("an invalid visit passed")
        } catch {
            #expect(
                error.errors.map(\.field) == [
                    "chiefComplaint", "occurredAt", "diagnoses[0].problemId", "diagnoses[1].addToProblemList",
                    "treatmentPlan.procedures", "followUpDate",
                ])
        }
        visit = Self.visit(followUp: "2026-06-10")
        #expect(throws: ValidationError.self) { try visit.validate(now: Self.visitTime, birthDate: nil, problems: []) }
        visit = Self.visit(followUp: "2026-06-24")
        #expect(throws: Never.self) { try visit.validate(now: Self.visitTime, birthDate: nil, problems: []) }
        // Dated but not required is a contradiction, not a silent recall.
        visit.followUpRequired = false
        #expect(throws: ValidationError.self) { try visit.validate(now: Self.visitTime, birthDate: nil, problems: []) }
    }

    @Test("a follow-up is due on its date, overdue after it, and answered by a later visit")
    func recall() {
        let first = Self.visit(followUp: "2026-06-24")
        let before = FollowUpSchedule.dueAndOverdue(
            visits: [first], asOf: Timestamp.date("2026-06-23T15:00:00Z")!, dueWithinDays: 0)
        #expect(before.dueSoon.isEmpty && before.overdue.isEmpty)
        let onTheDay = FollowUpSchedule.dueAndOverdue(
            visits: [first], asOf: Timestamp.date("2026-06-24T08:00:00Z")!, dueWithinDays: 0)
        #expect(onTheDay.dueSoon.map(\.visitID) == [first.id])
        #expect(onTheDay.dueSoon.first?.reason == "Ear recheck")
        let late = FollowUpSchedule.dueAndOverdue(
            visits: [first], asOf: Timestamp.date("2026-07-01T08:00:00Z")!, dueWithinDays: 30)
        #expect(late.overdue.map(\.visitID) == [first.id])
        let back = Self.visit(at: Timestamp.date("2026-06-30T09:00:00Z")!)
        #expect(
            FollowUpSchedule.dueAndOverdue(visits: [first, back], asOf: Timestamp.date("2026-07-01T08:00:00Z")!).overdue
                .isEmpty)
        // Another patient's visit answers nothing.
        let other = Self.visit(at: Timestamp.date("2026-06-30T09:00:00Z")!, patient: Identifier())
        #expect(
            FollowUpSchedule.dueAndOverdue(visits: [first, other], asOf: Timestamp.date("2026-07-01T08:00:00Z")!)
                .overdue.count == 1)
    }
}
