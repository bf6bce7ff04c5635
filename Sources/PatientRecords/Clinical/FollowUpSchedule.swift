import Foundation
import SharedKernel

/// A patient a visit asked back: the recall it puts on the due list.
public struct FollowUpRecall: Codable, Hashable, Sendable {
    /// The visit that asked for the follow-up.
    public var visitID: Identifier<Visit>
    /// The patient.
    public var patientID: Identifier<Patient>
    /// When that visit took place.
    public var visitDate: Date
    /// The day the patient is due back.
    public var dueDate: Date
    /// Why ("Recheck left hock", else the visit's complaint).
    public var reason: String

    /// Creates a recall.
    public init(
        visitID: Identifier<Visit>, patientID: Identifier<Patient>, visitDate: Date, dueDate: Date, reason: String
    ) {
        self.visitID = visitID
        self.patientID = patientID
        self.visitDate = visitDate
        self.dueDate = dueDate
        self.reason = reason
    }
}

/// Follow-ups that need action, split like the vaccination reminders.
public struct FollowUpDueReport: Codable, Hashable, Sendable {
    /// Due today or within the look-ahead window, soonest first.
    public var dueSoon: [FollowUpRecall]
    /// Due before today and not yet answered by a visit, most overdue first.
    public var overdue: [FollowUpRecall]

    /// Creates a report.
    public init(dueSoon: [FollowUpRecall] = [], overdue: [FollowUpRecall] = []) {
        self.dueSoon = dueSoon
        self.overdue = overdue
    }
}

/// Practice-wide follow-up recalls, as a pure function of the recorded visits.
public enum FollowUpSchedule {
    /// Classifies the follow-ups the visits ask for, by due day, as
    /// ``VaccinationSchedule/dueAndOverdue(vaccinations:asOf:dueWithinDays:calendar:)`` does for
    /// vaccinations:
    /// - a follow-up is answered once the patient has a later visit (they came back, whether
    ///   for the recheck or on another errand the clinician could recheck at), and is no
    ///   longer listed;
    /// - **overdue** when its day is before the day of `asOf`; **due soon** when it is that day
    ///   or up to `dueWithinDays` days later, both ends included.
    public static func dueAndOverdue(
        visits: [Visit], asOf: Date, dueWithinDays: Int = VaccinationSchedule.defaultDueWithinDays,
        calendar: Calendar = RecordCalendar.utc
    ) -> FollowUpDueReport {
        let latestVisit = Dictionary(visits.map { ($0.patientID, $0.occurredAt) }, uniquingKeysWith: max)
        var report = FollowUpDueReport()
        for visit in visits {
            guard let recall = visit.recall, (latestVisit[visit.patientID] ?? visit.occurredAt) <= visit.occurredAt
            else { continue }
            let days = RecordCalendar.days(from: asOf, to: recall.dueDate, calendar: calendar)
            if days < 0 {
                report.overdue.append(recall)
            } else if days <= dueWithinDays {
                report.dueSoon.append(recall)
            }
        }
        let order = { (lhs: FollowUpRecall, rhs: FollowUpRecall) in
            lhs.dueDate != rhs.dueDate ? lhs.dueDate < rhs.dueDate : lhs.visitID < rhs.visitID
        }
        report.overdue.sort(by: order)
        report.dueSoon.sort(by: order)
        return report
    }
}
