import Foundation
import SharedKernel

/// Date rules every record shares, so that each refuses impossible dates with the same words.
enum RecordDateRules {
    /// Refuses a date after `now`.
    static func notInFuture(_ date: Date?, field: String, now: Date, into errors: inout FieldErrorCollector) {
        if let date, date > now { errors.add(field, "must not be in the future") }
    }

    /// Refuses a date on a day before the patient's birth day. Compared by day because a
    /// birth date is a calendar day stored as midnight and a same-day event is possible.
    static func notBeforeBirth(
        _ date: Date?, birthDate: Date?, field: String, calendar: Calendar, into errors: inout FieldErrorCollector
    ) {
        guard let date, let birthDate else { return }
        if calendar.startOfDay(for: date) < calendar.startOfDay(for: birthDate) {
            errors.add(
                field,
                "must not be before the patient's birth date (\(RecordCalendar.isoDay(birthDate, calendar: calendar)))")
        }
    }

    /// Refuses blank text.
    static func notBlank(_ text: String, field: String, into errors: inout FieldErrorCollector) {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { errors.add(field, "must not be empty") }
    }
}
