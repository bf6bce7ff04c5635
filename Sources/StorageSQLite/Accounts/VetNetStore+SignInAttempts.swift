import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore: SignInAttemptLedger {
    public func reserveSignInAttempt(
        _ ticket: UUID, accountKey: String, addressKey: String, limits: SignInLimits,
        now: Date
    ) async throws -> SignInRefusal? {
        // One write transaction: SQLite's single writer makes the count and the insert atomic.
        return try await write { db in
            try db.execute(
                sql: "DELETE FROM sign_in_attempt WHERE key IN (?, ?) AND at_ms <= ?",
                arguments: [accountKey, addressKey, limits.windowStart(now: now)])
            let tallies = try [accountKey, addressKey].map { key in
                let row = try Row.fetchOne(
                    db, sql: "SELECT COUNT(*), MIN(at_ms) FROM sign_in_attempt WHERE key = ?", arguments: [key])
                // MIN is NULL when no attempt counts: read as an optional, never forced.
                let oldest = try row.flatMap { try $0.read(at: 1) as Int64? }
                return SignInTally(
                    key: key, count: try row.map { try $0.read(at: 0) as Int } ?? 0, oldestMilliseconds: oldest)
            }
            if let refusal = limits.refusal(account: tallies[0], address: tallies[1], now: now) { return refusal }
            for key in [accountKey, addressKey] {
                try db.execute(
                    sql: "INSERT INTO sign_in_attempt (ticket, key, at_ms, pending) VALUES (?, ?, ?, 1)",
                    arguments: [UUIDText.lowercase(ticket), key, Timestamp.milliseconds(now)])
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
