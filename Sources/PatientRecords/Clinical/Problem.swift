import Foundation
import SharedKernel

/// A problem or condition on the patient's problem list ("chronic kidney disease",
/// "left cranial cruciate rupture").
public struct Problem: Codable, Hashable, Sendable {
    /// Whether the problem still needs attention.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case active, resolved
    }

    /// Identifier.
    public var id: Identifier<Problem>
    /// The patient concerned.
    public var patientID: Identifier<Patient>
    /// The problem as named by the clinician.
    public var name: String
    /// Active or resolved.
    public var status: Status
    /// When it started, if known.
    public var onsetDate: Date?
    /// When it resolved; required for a resolved problem, absent for an active one.
    public var resolvedDate: Date?

    /// Creates a problem.
    public init(
        id: Identifier<Problem> = .init(), patientID: Identifier<Patient>, name: String, status: Status = .active,
        onsetDate: Date? = nil, resolvedDate: Date? = nil
    ) {
        self.id = id
        self.patientID = patientID
        self.name = name
        self.status = status
        self.onsetDate = onsetDate
        self.resolvedDate = resolvedDate
    }

    // MARK: - Validation

    /// Checks the problem and reports every bad field: an empty name, dates in the future or
    /// before birth, a resolution before the onset, and a status that contradicts the dates.
    public func validate(now: Date, birthDate: Date? = nil, calendar: Calendar = RecordCalendar.utc)
        throws(ValidationError)
    {
        var errors = FieldErrorCollector()
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { errors.add("name", "must not be empty") }
        RecordDateRules.notInFuture(onsetDate, field: "onsetDate", now: now, into: &errors)
        RecordDateRules.notBeforeBirth(
            onsetDate, birthDate: birthDate, field: "onsetDate", calendar: calendar, into: &errors)
        RecordDateRules.notInFuture(resolvedDate, field: "resolvedDate", now: now, into: &errors)
        if let onsetDate, let resolvedDate, calendar.startOfDay(for: resolvedDate) < calendar.startOfDay(for: onsetDate)
        {
            errors.add("resolvedDate", "must not be before the onset date")
        }
        switch status {
        case .resolved where resolvedDate == nil: errors.add("resolvedDate", "is required when the problem is resolved")
        case .active where resolvedDate != nil: errors.add("resolvedDate", "must be empty while the problem is active")
        default: break
        }
        try errors.throwIfAny()
    }

    /// The problem marked resolved on `date`; the caller validates and stores the result.
    public func resolved(on date: Date) -> Problem {
        var copy = self
        copy.status = .resolved
        copy.resolvedDate = date
        return copy
    }
}
