import Foundation
import PostgresNIO

extension PostgresStore {
    /// How many times a transaction the server aborted to break a deadlock or a serialization
    /// conflict is run again before its error is returned.
    static let transientRetries = 4

    /// Runs `body`, running it again (after a short, jittered pause) when the server aborted it
    /// with a serialization failure (`40001`) or a deadlock (`40P01`): neither says anything
    /// about the request, only that another instance's transaction met it at a bad moment.
    /// Bounded, so a pathological contention surfaces as an error instead of spinning.
    func retryingTransientFailures<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch let error where Self.isTransient(error) && attempt < Self.transientRetries {
                attempt += 1
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 << attempt))))
            }
        }
    }

    static func isTransient(_ error: any Error) -> Bool {
        if error is TransientFailure { return true }
        guard let error = error as? PSQLError else { return false }
        return error.sqlState == "40001" || error.sqlState == "40P01"
    }
}

/// A transaction met another one's change at a moment that makes it worth running again
/// (for instance an idempotency claim released between two of its statements).
struct TransientFailure: Error {}
