import GRDB
import StoragePorts
import Synchronization

/// Runs write jobs that arrive together in one shared transaction, each inside its own
/// savepoint, and answers every job only after that transaction has committed.
///
/// With `synchronous = FULL` every commit waits for the disk; when many clinicians' desks book
/// at once, one commit per booking spends most of the writer's time writing and flushing the
/// same few pages again. Grouping the jobs that queued up while the previous group was being
/// written costs a job nothing it would not have waited for anyway, and keeps its
/// semantics: it sees every earlier job of its group, a job that throws rolls back only its
/// own savepoint, and nothing is acknowledged before it is durable. Each group is a separate
/// turn on the store's writer, so other writes are never starved.
final class GroupCommit: Sendable {
    private struct Job: Sendable {
        /// Runs the job in its savepoint and returns how to answer it once the group has
        /// committed; throws only when the group's transaction itself is lost.
        let attempt: @Sendable (Database) throws -> @Sendable () -> Void
        /// Answers the job with the error that cost the group its transaction.
        let fail: @Sendable (any Error) -> Void
    }

    private struct State {
        var pending: [Job] = []
        var scheduled = false
    }

    private let writer: any DatabaseWriter
    private let state = Mutex(State())

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `work` in the next group's transaction and returns its result once the group has
    /// committed; its error (after its savepoint is rolled back) otherwise.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                attempt: { db in
                    do {
                        var value: T?
                        try db.inSavepoint {
                            value = try work(db)
                            return .commit
                        }
                        let result = value!
                        return { continuation.resume(returning: result) }
                    } catch {
                        // SQLite may have rolled the whole transaction back (disk full, I/O
                        // error): then no job of the group is durable and all of them fail.
                        if !db.isInsideTransaction { throw error }
                        return { continuation.resume(throwing: error) }
                    }
                },
                fail: { continuation.resume(throwing: $0) })
            let schedule = state.withLock { state -> Bool in
                state.pending.append(job)
                defer { state.scheduled = true }
                return !state.scheduled
            }
            if schedule { scheduleGroup() }
        }
    }

    /// Writes waiting for the next group.
    var waiting: Int { state.withLock { $0.pending.count } }

    private func scheduleGroup() {
        writer.asyncWriteWithoutTransaction { db in
            let jobs = self.state.withLock { state -> [Job] in
                defer { state.pending = [] }
                return state.pending
            }
            self.run(jobs, db: db)
            let more = self.state.withLock { state -> Bool in
                state.scheduled = !state.pending.isEmpty
                return state.scheduled
            }
            if more { self.scheduleGroup() }
        }
    }

    private func run(_ jobs: [Job], db: Database) {
        var answers: [@Sendable () -> Void] = []
        answers.reserveCapacity(jobs.count)
        do {
            try db.inTransaction {
                for job in jobs { answers.append(try job.attempt(db)) }
                return .commit
            }
        } catch {
            for job in jobs { job.fail(error) }
            return
        }
        for answer in answers { answer() }
    }
}
