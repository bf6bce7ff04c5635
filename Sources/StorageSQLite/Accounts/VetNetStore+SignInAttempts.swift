import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore: SignInAttemptLedger {
    public func reserveSignInAttempt(
        _ ticket: UUID, accountKey: String, addressKey: String, limits: SignInLimits,
        now: Date
    ) async throws -> SignInRefusal? {
        let nowMs = Timestamp.milliseconds(now)
        let windowStart = nowMs - Int64(limits.window * 1000)
        // One write transaction: SQLite's single writer makes the count and the insert atomic.
        return try await write { db in
            try db.execute(
                sql: "DELETE FROM sign_in_attempt WHERE key IN (?, ?) AND at_ms <= ?",
                arguments: [accountKey, addressKey, windowStart])
            var refusals: [SignInRefusal] = []
            for (key, limit) in [(accountKey, limits.accountLimit), (addressKey, limits.addressLimit)] {
                let row = try Row.fetchOne(
                    db, sql: "SELECT COUNT(*), MIN(at_ms) FROM sign_in_attempt WHERE key = ?", arguments: [key])
                let count: Int = row?[0] ?? 0
                if count >= limit, let oldest = row?[1] as Int64? {
                    refusals.append(
                        SignInRefusal(
                            key: key,
                            retryAfterSeconds: limits.wait(oldest: Timestamp.date(milliseconds: oldest), now: now)))
                }
            }
            if let longest = refusals.max(by: { $0.retryAfterSeconds < $1.retryAfterSeconds }) { return longest }
            for key in [accountKey, addressKey] {
                try db.execute(
                    sql: "INSERT INTO sign_in_attempt (ticket, key, at_ms, pending) VALUES (?, ?, ?, 1)",
                    arguments: [UUIDText.lowercase(ticket), key, nowMs])
            }
            return nil
        }
    }

    public func settleSignInAttempt(_ ticket: UUID, accountKey: String, outcome: SignInOutcome) async throws {
        let id = UUIDText.lowercase(ticket)
        try await write { db in
            switch outcome {
            case .failed:
                try db.execute(sql: "UPDATE sign_in_attempt SET pending = 0 WHERE ticket = ?", arguments: [id])
            case .succeeded:
                // The account's failures are forgotten; attempts still being checked keep their place.
                try db.execute(
                    sql: "DELETE FROM sign_in_attempt WHERE key = ? AND pending = 0", arguments: [accountKey])
                try db.execute(sql: "DELETE FROM sign_in_attempt WHERE ticket = ?", arguments: [id])
            case .abandoned:
                try db.execute(sql: "DELETE FROM sign_in_attempt WHERE ticket = ?", arguments: [id])
            }
        }
    }

    @discardableResult
    public func pruneSignInAttempts(before cutoff: Date) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM sign_in_attempt WHERE at_ms < ?", arguments: [Timestamp.milliseconds(cutoff)])
            return db.changesCount
        }
    }
}
