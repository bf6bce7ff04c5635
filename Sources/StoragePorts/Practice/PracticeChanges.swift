import Foundation
import Scheduling
import SharedKernel

/// A practice's settings after a change, with the bookings the change leaves stranded.
public struct PracticeChangeResult: Sendable {
    /// The practice as now stored, with its version (the settings' ETag).
    public let practice: Versioned<PracticeProfile>
    /// Appointments still to come that now fall outside the opening hours or into a closure,
    /// by start: reported for re-planning, never moved or cancelled silently.
    public let appointmentsToReplan: [Versioned<Appointment>]

    /// Creates the value from its parts.
    public init(practice: Versioned<PracticeProfile>, appointmentsToReplan: [Versioned<Appointment>]) {
        self.practice = practice
        self.appointmentsToReplan = appointmentsToReplan
    }
}

/// A closure as added, with the practice after it and the bookings it strands.
public struct ClosureAddition: Sendable {
    /// The practice as now stored, with its version.
    public let practice: Versioned<PracticeProfile>
    /// The closure (on a replayed request, the first request's).
    public let closure: PracticeClosure
    /// Appointments still to come that fall in the closure, by start, kept for re-planning.
    public let appointmentsToReplan: [Versioned<Appointment>]

    /// Creates the value from its parts.
    public init(
        practice: Versioned<PracticeProfile>, closure: PracticeClosure, appointmentsToReplan: [Versioned<Appointment>]
    ) {
        self.practice = practice
        self.closure = closure
        self.appointmentsToReplan = appointmentsToReplan
    }
}
