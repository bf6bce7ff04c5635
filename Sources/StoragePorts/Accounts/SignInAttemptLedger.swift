import Foundation
import SharedKernel

/// Limits on sign-in attempts: per account and per client address, in a sliding window.
public struct SignInLimits: Sendable, Equatable {
    /// How long an attempt counts.
    public var window: TimeInterval
    /// Attempts allowed per account within the window.
    public var accountLimit: Int
    /// Attempts allowed per client address within the window (higher: offices share addresses).
    public var addressLimit: Int

    /// Creates limits.
    public init(window: TimeInterval = 15 * 60, accountLimit: Int = 10, addressLimit: Int = 50) {
        self.window = window
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
    }
}

/// An attempt refused because a key is at its limit.
public struct SignInRefusal: Sendable, Equatable {
    /// The key at its limit (the one with the longer wait when both are).
    public let key: String
    /// Seconds until it is below its limit again (at least 1).
    public let retryAfterSeconds: Int

    /// Creates the refusal.
    public init(key: String, retryAfterSeconds: Int) {
        self.key = key
        self.retryAfterSeconds = retryAfterSeconds
    }
}

/// How a reserved attempt ended.
public enum SignInOutcome: Sendable {
    /// The password was checked and refused: the attempt keeps counting.
    case failed
    /// The account signed in: its failures are forgotten (attempts still being checked stay).
    case succeeded
    /// The password could not be checked (an internal error): the attempt does not count.
    case abandoned
}

/// Sign-in attempts, counted where every server instance on the store sees them, so the
/// throttle holds however many instances a load balancer spreads guesses over.
///
/// Keys are opaque to the store (the throttle passes hashes, never an address in clear).
public protocol SignInAttemptLedger: Sendable {
    /// Atomically: refuses when the account key or the address key already holds its limit
    /// of attempts newer than the window; otherwise counts `ticket` against both, pending.
    /// Two concurrent reservations can never both take the last place under a limit.
    func reserveSignInAttempt(
        _ ticket: UUID, accountKey: String, addressKey: String, limits: SignInLimits,
        now: Date
    ) async throws -> SignInRefusal?

    /// Settles a reservation once its outcome is known.
    func settleSignInAttempt(_ ticket: UUID, accountKey: String, outcome: SignInOutcome) async throws

    /// Forgets attempts made before `cutoff` (housekeeping); returns how many.
    @discardableResult
    func pruneSignInAttempts(before cutoff: Date) async throws -> Int
}

extension SignInLimits {
    /// The wait until a key whose oldest counted attempt was at `oldest` is below its limit.
    public func wait(oldest: Date, now: Date) -> Int {
        max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
    }
}

/// What the ledger holds for one key when an attempt is reserved.
public struct SignInTally: Sendable, Equatable {
    /// The key counted.
    public let key: String
    /// Its attempts within the window.
    public let count: Int
    /// When the oldest of them was made (ms since 1970), if any.
    public let oldestMilliseconds: Int64?

    /// A tally of `count` attempts for `key`, the oldest at `oldestMilliseconds`.
    public init(key: String, count: Int, oldestMilliseconds: Int64?) {
        self.key = key
        self.count = count
        self.oldestMilliseconds = oldestMilliseconds
    }
}

extension SignInLimits {
    /// The end of what is forgotten (ms since 1970): attempts made then or earlier no longer count.
    public func windowStart(now: Date) -> Int64 { Timestamp.milliseconds(now) - Int64(window * 1_000) }

    /// The refusal of an attempt when the account's or the address's tally is at its limit —
    /// the key with the longer wait when both are — or `nil` when the attempt may be counted.
    public func refusal(account: SignInTally, address: SignInTally, now: Date) -> SignInRefusal? {
        [(account, accountLimit), (address, addressLimit)]
            .compactMap { tally, limit -> SignInRefusal? in
                guard tally.count >= limit, let oldest = tally.oldestMilliseconds else { return nil }
                return SignInRefusal(
                    key: tally.key, retryAfterSeconds: wait(oldest: Timestamp.date(milliseconds: oldest), now: now))
            }
            .max { $0.retryAfterSeconds < $1.retryAfterSeconds }
    }
}
