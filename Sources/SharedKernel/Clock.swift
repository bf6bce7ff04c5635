import Foundation

/// The current time, injected so that domain rules and tests never read the system clock directly.
public struct Clock: Sendable {
    /// Returns the current instant.
    public var now: @Sendable () -> Date

    /// Creates a clock from a closure.
    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The system clock.
    public static let system = Clock(now: { Date() })

    /// A clock frozen at one instant, for tests and deterministic generators.
    public static func fixed(_ date: Date) -> Clock { Clock(now: { date }) }
}

/// Generates identifiers; injected so that seeded data and tests are reproducible.
public struct IDGenerator: Sendable {
    /// Returns a new UUID.
    public var next: @Sendable () -> UUID

    /// Creates a generator from a closure.
    public init(next: @escaping @Sendable () -> UUID) { self.next = next }

    /// Random (version 4) UUIDs.
    public static let random = IDGenerator(next: { UUID() })
}
