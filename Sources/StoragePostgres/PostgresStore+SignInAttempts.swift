import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: SignInAttemptLedger {
    public func reserveSignInAttempt(
        _ ticket: UUID, accountKey: String, addressKey: String, limits: SignInLimits,
        now: Date
    ) async throws -> SignInRefusal? {
        return try await transaction(.installation) { connection in
            // Both keys locked, in a fixed order, until commit: reservations for the same account
            // or address from any instance queue here, so two can never take the last place.
            for key in [accountKey, addressKey].sorted() {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended(\(key), 7242019))", logger: logger)
            }
            try await connection.query(
                """
                DELETE FROM sign_in_attempt WHERE key IN (\(accountKey), \(addressKey))
                    AND at_ms <= \(limits.windowStart(now: now))
                """, logger: logger)
            var tallies: [SignInTally] = []
            for key in [accountKey, addressKey] {
                for try await (count, oldest) in try await connection.query(
                    "SELECT count(*), min(at_ms) FROM sign_in_attempt WHERE key = \(key)", logger: logger
                ).decode((Int64, Int64?).self) {
                    tallies.append(SignInTally(key: key, count: Int(count), oldestMilliseconds: oldest))
                }
            }
            guard tallies.count == 2 else { throw StoreCorruption(column: "sign_in_attempt", reason: "no count") }
            if let refusal = limits.refusal(account: tallies[0], address: tallies[1], now: now) { return refusal }
            let nowMs = Timestamp.milliseconds(now)
            try await connection.query(
                """
                INSERT INTO sign_in_attempt (ticket, key, at_ms, pending)
                VALUES (\(ticket), \(accountKey), \(nowMs), true), (\(ticket), \(addressKey), \(nowMs), true)
                """, logger: logger)
            return nil
        }
    }

    public func settleSignInAttempt(_ ticket: UUID, accountKey: String, outcome: SignInOutcome) async throws {
        try await transaction(.installation) { connection in
            switch outcome {
            case .failed:
                try await connection.query(
                    "UPDATE sign_in_attempt SET pending = false WHERE ticket = \(ticket)", logger: logger)
            case .succeeded:
                // The account's failures are forgotten; attempts still being checked keep their place.
                try await connection.query(
                    "DELETE FROM sign_in_attempt WHERE key = \(accountKey) AND NOT pending", logger: logger)
                try await connection.query("DELETE FROM sign_in_attempt WHERE ticket = \(ticket)", logger: logger)
            case .abandoned:
                try await connection.query("DELETE FROM sign_in_attempt WHERE ticket = \(ticket)", logger: logger)
            }
        }
    }

    @discardableResult
    public func pruneSignInAttempts(before cutoff: Date) async throws -> Int {
        try await transaction(.installation) { connection in
            var count = 0
            for try await _ in try await connection.query(
                """
                DELETE FROM sign_in_attempt WHERE at_ms < \(Timestamp.milliseconds(cutoff)) RETURNING 1
                """, logger: logger)
            { count += 1 }
            return count
        }
    }
}
