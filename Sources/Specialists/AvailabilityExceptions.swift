import Foundation
import SharedKernel

// MARK: - Exceptions to the weekly pattern

/// Whole local days a clinician is away (leave, training, illness), first and last day included.
public struct TimeOff: Hashable, Codable, Sendable {
    /// First day away.
    public var firstDay: LocalDate
    /// Last day away (same as `firstDay` for a single day).
    public var lastDay: LocalDate
    /// Why, for the rota (never shown to clients).
    public var reason: String?

    /// Creates a period of time off.
    public init(firstDay: LocalDate, lastDay: LocalDate, reason: String? = nil) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.reason = reason
    }

    /// Whether `date` is one of the days away.
    public func covers(_ date: LocalDate) -> Bool { firstDay <= date && date <= lastDay }
}

/// An extra session on one date outside the weekly pattern (a Saturday clinic, cover for a colleague).
public struct ExtraSession: Hashable, Codable, Sendable {
    /// The local date.
    public var date: LocalDate
    /// Start, minutes after local midnight (0–1439).
    public var startMinute: Int
    /// End, minutes after local midnight (1–1440).
    public var endMinute: Int

    /// Creates a session.
    public init(date: LocalDate, startMinute: Int, endMinute: Int) {
        self.date = date
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// Whether the two sessions are on the same date and share a minute.
    public func overlaps(_ other: ExtraSession) -> Bool {
        date == other.date && startMinute < other.endMinute && other.startMinute < endMinute
    }
}
