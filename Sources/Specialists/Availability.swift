import Foundation
import SharedKernel

/// When a clinician can be booked: a weekly pattern of working intervals in local time,
/// recurring breaks, exceptions (time off, extra sessions) and a daily workload limit.
///
/// The pattern is stated in wall-clock time and only turned into instants for concrete
/// dates in the practice's time zone (see `Availability+Resolution.swift`).
public struct ClinicianAvailability: Hashable, Codable, Sendable {
    /// The clinician this describes.
    public var clinicianID: Identifier<Clinician>
    /// Working intervals; several per weekday are allowed (a split shift), overlapping ones are not.
    public var weekly: [WeeklyInterval]
    /// Recurring breaks (lunch, rounds), removed from whatever working time they cross.
    public var breaks: [WeeklyInterval]
    /// Whole days away; they win over the weekly pattern.
    public var timeOff: [TimeOff]
    /// Sessions on single dates in addition to the weekly pattern.
    public var extraSessions: [ExtraSession]
    /// Most minutes that may be booked in one local day; `nil` means the working time is the limit.
    public var maxBookedMinutesPerDay: Int?

    /// Creates an availability description.
    public init(
        clinicianID: Identifier<Clinician>, weekly: [WeeklyInterval], breaks: [WeeklyInterval] = [],
        timeOff: [TimeOff] = [], extraSessions: [ExtraSession] = [], maxBookedMinutesPerDay: Int? = nil
    ) {
        self.clinicianID = clinicianID
        self.weekly = weekly
        self.breaks = breaks
        self.timeOff = timeOff
        self.extraSessions = extraSessions
        self.maxBookedMinutesPerDay = maxBookedMinutesPerDay
    }

    // MARK: - Validation

    /// Checks every interval and exception and reports all problems at once, naming each field
    /// (`weekly[2].endMinute`, `weekly[3]` for an overlap, `timeOff[0].lastDay` …).
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        for (index, interval) in weekly.enumerated() { interval.validate(field: "weekly[\(index)]", into: &errors) }
        WeeklyInterval.validateNoOverlap(weekly, field: "weekly", into: &errors)
        for (index, interval) in breaks.enumerated() { interval.validate(field: "breaks[\(index)]", into: &errors) }
        WeeklyInterval.validateNoOverlap(breaks, field: "breaks", into: &errors)

        for (index, off) in timeOff.enumerated() where off.lastDay < off.firstDay {
            errors.add("timeOff[\(index)].lastDay", "must not be before the first day (\(off.firstDay))")
        }
        for (index, session) in extraSessions.enumerated() {
            let field = "extraSessions[\(index)]"
            if !(0...1439).contains(session.startMinute) {
                errors.add("\(field).startMinute", "must be 0 to 1439 minutes after midnight")
            }
            if !(1...1440).contains(session.endMinute) {
                errors.add("\(field).endMinute", "must be 1 to 1440 minutes after midnight")
            }
            if session.endMinute <= session.startMinute { errors.add("\(field).endMinute", "must be after the start") }
            if let earlier = extraSessions[..<index].firstIndex(where: { $0.overlaps(session) }) {
                errors.add(field, "overlaps extraSessions[\(earlier)] on \(session.date)")
            }
            // A session on a day off is a contradiction the rota owner should resolve, not one we guess at.
            if let off = timeOff.firstIndex(where: { $0.covers(session.date) }) {
                errors.add("\(field).date", "falls on time off (timeOff[\(off)])")
            }
        }
        if let limit = maxBookedMinutesPerDay, !(1...1440).contains(limit) {
            errors.add("maxBookedMinutesPerDay", "must be 1 to 1440")
        }
        try errors.throwIfAny()
    }
}
