import Foundation

/// A patient's age as shown on screens and used by triage.
///
/// The unit depends on how old the animal is, because that is how clinicians speak and how
/// neonatal dosing and triage thresholds are framed:
///
/// | age                   | shown as             |
/// |-----------------------|----------------------|
/// | under 1 week          | days ("3 days")      |
/// | 1 week to < 12 weeks  | weeks ("7 weeks")    |
/// | 12 weeks to < 1 year  | months ("5 months")  |
/// | 1 year and over       | years ("3 years")    |
///
/// Counts are whole, completed units (an animal is "1 year" until its second birthday).
public struct PatientAge: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The unit the age is expressed in.
    public enum Unit: String, Codable, Sendable, CaseIterable {
        case days, weeks, months, years
    }

    /// Completed units.
    public let value: Int
    /// The unit chosen for the animal's age.
    public let unit: Unit
    /// Whole weeks since birth, whatever the display unit (triage uses weeks for neonates).
    public let weeks: Int
    /// Whether the birth date it was computed from is an estimate.
    public let isEstimated: Bool

    /// Neonates are shown in weeks below this many weeks.
    public static let neonatalWeeks = 12

    /// Creates an age value directly (the calculation is ``init(birthDate:now:isEstimated:calendar:)``).
    public init(value: Int, unit: Unit, weeks: Int, isEstimated: Bool = false) {
        self.value = value
        self.unit = unit
        self.weeks = weeks
        self.isEstimated = isEstimated
    }

    /// The age of an animal born on `birthDate` at `now`; `nil` when `birthDate` is after `now`
    /// (an impossible date is refused by validation, so display shows nothing rather than a
    /// negative age).
    public init?(birthDate: Date, now: Date, isEstimated: Bool = false, calendar: Calendar = RecordCalendar.utc) {
        let birthDay = calendar.startOfDay(for: birthDate)
        let today = calendar.startOfDay(for: now)
        guard birthDay <= today else { return nil }
        let days = RecordCalendar.days(from: birthDay, to: today, calendar: calendar)
        let weeks = days / 7
        let parts = calendar.dateComponents([.year, .month], from: birthDay, to: today)
        let years = parts.year ?? 0
        let months = years * 12 + (parts.month ?? 0)
        if days < 7 {
            self.init(value: days, unit: .days, weeks: weeks, isEstimated: isEstimated)
        } else if weeks < Self.neonatalWeeks {
            self.init(value: weeks, unit: .weeks, weeks: weeks, isEstimated: isEstimated)
        } else if years < 1 {
            self.init(value: months, unit: .months, weeks: weeks, isEstimated: isEstimated)
        } else {
            self.init(value: years, unit: .years, weeks: weeks, isEstimated: isEstimated)
        }
    }

    /// "7 weeks", "1 month", "3 years". The estimate flag is not shown here; screens add their
    /// own marker (an icon, "approx.") in their own language.
    public var description: String {
        let singular: String
        switch unit {
        case .days: singular = "day"
        case .weeks: singular = "week"
        case .months: singular = "month"
        case .years: singular = "year"
        }
        return "\(value) \(singular)\(value == 1 ? "" : "s")"
    }
}
