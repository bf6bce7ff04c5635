import Foundation
import SharedKernel

/// The durable event log the live stream and the change feed read: per practice, gapless
/// sequence numbers in commit order, written in the same transaction as the change.
///
/// ``eventCommits`` says "look again" after a commit that appended events. The SQLite adapter
/// signals its own commits; the PostgreSQL adapter relays `NOTIFY`, so a change committed
/// through any server instance on the database wakes the streams of every instance.
public protocol EventLogRepository: Sendable {
    /// Signals commits that appended events, with the practice concerned.
    var eventCommits: EventCommitSignal { get }

    /// Up to `limit` events after `position`, oldest first, with the head and pruning mark.
    func events(practiceID: PracticeID, after position: Int64, limit: Int) async throws -> EventLogPage

    /// The practice's latest sequence number (0 before its first event).
    func eventHead(practiceID: PracticeID) async throws -> Int64

    /// Every practice's latest sequence number.
    func eventHeads() async throws -> [PracticeID: Int64]

    /// Appends events in a transaction of their own (summaries that change no row).
    func recordEvents(_ events: [DomainEvent], scope: AccessScope?) async throws

    /// Deletes events that occurred before `cutoff`, keeping numbers from being reused;
    /// returns how many.
    @discardableResult
    func pruneEvents(before cutoff: Date) async throws -> Int
}
