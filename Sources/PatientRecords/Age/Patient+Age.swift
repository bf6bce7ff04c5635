import Foundation

// MARK: - Age

extension Patient {
    /// The patient's age at `now` for display, from the recorded or estimated birth date;
    /// `nil` without a birth date or when the birth date is after `now`.
    public func age(now: Date, calendar: Calendar = RecordCalendar.utc) -> PatientAge? {
        guard let birthDate else { return nil }
        return PatientAge(birthDate: birthDate, now: now, isEstimated: birthDateEstimated, calendar: calendar)
    }

    /// Completed weeks of life at `now`, the unit triage uses for neonates; `nil` without a
    /// birth date or when the birth date is after `now`.
    public func ageInWeeks(now: Date, calendar: Calendar = RecordCalendar.utc) -> Int? {
        age(now: now, calendar: calendar)?.weeks
    }
}
