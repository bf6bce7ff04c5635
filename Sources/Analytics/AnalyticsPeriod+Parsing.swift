import Foundation
import SharedKernel
import Specialists

extension AnalyticsPeriod {
    /// The longest period a request may ask for: a year and a month, so a year's report fits
    /// whatever day it starts on, and no request can make the server read years of records.
    public static let maximumRequestDays = 400

    /// The local days `from`…`to` (both `YYYY-MM-DD`, `to` included) in `timeZone`, checked
    /// as a request's period: each must be a real date of years 1–9999, `to` not before
    /// `from`, and at most ``maximumRequestDays`` days in all. Every problem names its field.
    public static func parse(
        from: String, to: String, timeZone: TimeZone,
        maximumDays: Int = maximumRequestDays
    ) throws(ValidationError) -> AnalyticsPeriod {
        var errors = FieldErrorCollector()
        let first = LocalDate(from).flatMap { (1...9999).contains($0.year) ? $0 : nil }
        let last = LocalDate(to).flatMap { (1...9999).contains($0.year) ? $0 : nil }
        if first == nil { errors.add("from", "must be a date YYYY-MM-DD of years 0001–9999") }
        if last == nil { errors.add("to", "must be a date YYYY-MM-DD of years 0001–9999") }
        if let first, let last {
            if last < first {
                errors.add("to", "must not be before from")
            } else if last.dayNumber - first.dayNumber + 1 > maximumDays {
                errors.add(
                    "to",
                    """
                    the period is at most \(maximumDays) days (from \(first) to \(first.adding(days: maximumDays - 1))\
                     at the latest)
                    """
                )
            }
        }
        try errors.throwIfAny()
        guard let first, let last, let period = AnalyticsPeriod(from: first, through: last, timeZone: timeZone) else {
            throw ValidationError(field: "from", message: "is not a day the practice's calendar can place")
        }
        return period
    }

    /// The first and last local days of the period (the last one the period touches).
    public var localDays: (first: LocalDate, last: LocalDate)? {
        let days = self.days
        guard let first = days.first?.label, let last = days.last?.label else { return nil }
        return (first, last)
    }

    /// The bucket size that keeps a chart readable: days up to a month, weeks up to half a year, months beyond.
    public var defaultBucket: BucketSize {
        let days = interval.duration / 86_400
        return days <= 31.5 ? .day : days <= 184.5 ? .week : .month
    }
}
