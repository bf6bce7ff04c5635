import Foundation

/// Something that happened in a practice that other devices must see: the ER board, the
/// front desk's schedule and every vet's tablet follow the practice through these.
///
/// Events are written to the practice's durable event log in the same store transaction as
/// the change they describe, so a change never commits without its event and no event
/// survives a change that rolled back. The log gives each event the next number of its
/// practice's sequence; clients resume after the last number they saw.
///
/// Payloads carry identifiers and what a board shows (status, times, triage level) — never
/// note text, reasons or other clinical detail: the stream reaches every device of the
/// practice, and a record's detail is read (and audited) through the record itself.
public struct DomainEvent: Codable, Hashable, Sendable {
    /// Position in the practice's event log (1, 2, 3, …); 0 until the log assigns it.
    public var sequence: Int64
    /// The practice the event belongs to; subscribers only ever see their own practice.
    public var practiceID: PracticeID
    /// Dotted event kind, e.g. `appointment.booked`, `triage.queue_changed`.
    public var kind: String
    /// When it happened.
    public var occurredAt: Date
    /// What sort of resource changed (`appointment`, `patient`, `owner`, `triage`, `clinician`,
    /// `schedule`, `record`), so a client knows what to fetch again.
    public var resourceType: String
    /// The resource concerned.
    public var resourceID: String?
    /// The staff member whose request made the change (`nil` for the system).
    public var actorID: String?
    /// Small payload of identifiers and board facts.
    public var payload: [String: String]

    /// Creates an event; the log assigns the sequence and the actor. `resourceType` defaults
    /// to the kind's first part (`appointment.booked` → `appointment`).
    public init(
        practiceID: PracticeID, kind: String, occurredAt: Date, resourceType: ResourceKind? = nil,
        resourceID: String? = nil,
        actorID: String? = nil, payload: [String: String] = [:]
    ) {
        self.sequence = 0
        self.practiceID = practiceID
        self.kind = kind
        self.occurredAt = occurredAt
        self.resourceType = resourceType?.rawValue ?? String(kind.prefix { $0 != "." })
        self.resourceID = resourceID
        self.actorID = actorID
        self.payload = payload
    }

    /// The permission a subscriber needs to receive this event. Everything on the board and
    /// in the record needs `readRecords`; practice metrics need `readAnalytics`.
    public var requiredPermission: Permission {
        Self.requiredPermission(forKind: kind)
    }

    /// The permission needed to receive events of `kind` (see ``requiredPermission``).
    public static func requiredPermission(forKind kind: String) -> Permission {
        kind.hasPrefix("metrics.") ? .readAnalytics : .readRecords
    }

    /// Whether an account with `role` may receive this event.
    public func isVisible(to role: Role) -> Bool {
        role.allows(requiredPermission)
    }
}

/// Event kinds that belong to no single bounded context: the stream's own signals.
public enum EventStreamKind {
    /// The resume point is older than the log keeps (or unknown): reload everything.
    public static let reset = "reset"
    /// Sent once when a stream opens, with the practice's current head sequence.
    public static let ready = "ready"
    /// The session behind the stream was signed out, revoked or expired: sign in again.
    public static let sessionEnded = "session_ended"
    /// The server is shutting down: reconnect with the last id seen.
    public static let shutdown = "shutdown"
}
