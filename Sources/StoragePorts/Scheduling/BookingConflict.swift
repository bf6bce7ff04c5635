import Foundation
import SharedKernel

/// The store refused a booking because it overlaps another one of the same clinician or room.
public struct BookingConflict: Error, Sendable {
    /// The clinician or room that is taken.
    public let resource: String
    /// Time of the appointment in the way (never its patient).
    public let conflictingTime: TimeRange?

    /// Creates the refusal; `resource` is `"clinician"` or `"room"`.
    public init(resource: String, conflictingTime: TimeRange?) {
        self.resource = resource
        self.conflictingTime = conflictingTime
    }
}
