import Foundation
import SharedKernel

/// Vaccinations whose next dose needs action, split for reminder lists.
public struct VaccinationDueReport: Codable, Hashable, Sendable {
    /// Due today or within the look-ahead window, soonest first.
    public var dueSoon: [Vaccination]
    /// Due before today, most overdue first.
    public var overdue: [Vaccination]

    /// Creates a report.
    public init(dueSoon: [Vaccination] = [], overdue: [Vaccination] = []) {
        self.dueSoon = dueSoon
        self.overdue = overdue
    }
}

/// Practice-wide vaccination reminders, as a pure function of the recorded vaccinations.
public enum VaccinationSchedule {
    /// Days ahead a reminder list looks unless the practice configures otherwise.
    public static let defaultDueWithinDays = 30

    /// The last day (ISO, UTC) a due date may fall on and still be listed, `dueWithinDays` days
    /// after `asOf`: a store reads the due dates up to it, every earlier one included (overdue),
    /// for ``dueAndOverdue(vaccinations:asOf:dueWithinDays:calendar:)`` and the visits' follow-ups.
    public static func lastListedDay(asOf: Date, dueWithinDays: Int) -> String {
        RecordCalendar.isoDay(asOf.addingTimeInterval(Double(dueWithinDays) * 86_400))
    }

    /// Classifies the vaccinations of any number of patients by their next-due day.
    ///
    /// - Only the latest dose of each vaccine per patient counts: once a booster is recorded,
    ///   the earlier dose's due date is satisfied and must not appear as overdue.
    /// - Days are compared in `calendar` (UTC unless the practice's calendar is passed):
    ///   **overdue** when the due day is before the day of `asOf`; **due soon** when it is
    ///   between that day and `dueWithinDays` days later, both ends included.
    /// - Doses without a next-due date are never listed. Filtering out deceased or archived
    ///   patients is the caller's job; this function only sees vaccinations.
    public static func dueAndOverdue(
        vaccinations: [Vaccination], asOf: Date, dueWithinDays: Int = defaultDueWithinDays,
        calendar: Calendar = RecordCalendar.utc
    ) -> VaccinationDueReport {
        var latest: [String: Vaccination] = [:]
        for vaccination in vaccinations {
            let key = vaccination.supersessionKey
            if let current = latest[key], !isLater(vaccination, than: current) { continue }
            latest[key] = vaccination
        }

        var report = VaccinationDueReport()
        for vaccination in latest.values {
            guard let due = vaccination.nextDueDate else { continue }
            let days = RecordCalendar.days(from: asOf, to: due, calendar: calendar)
            if days < 0 {
                report.overdue.append(vaccination)
            } else if days <= dueWithinDays {
                report.dueSoon.append(vaccination)
            }
        }
        report.overdue.sort(by: byDueDate)
        report.dueSoon.sort(by: byDueDate)
        return report
    }

    // MARK: - Ordering

    /// A later administration supersedes; the same day is decided by identifier so the result
    /// does not depend on input order.
    private static func isLater(_ lhs: Vaccination, than rhs: Vaccination) -> Bool {
        if lhs.administeredDate != rhs.administeredDate { return lhs.administeredDate > rhs.administeredDate }
        return lhs.id > rhs.id
    }

    private static func byDueDate(_ lhs: Vaccination, _ rhs: Vaccination) -> Bool {
        let left = lhs.nextDueDate ?? .distantFuture
        let right = rhs.nextDueDate ?? .distantFuture
        if left != right { return left < right }
        return lhs.id < rhs.id
    }
}
