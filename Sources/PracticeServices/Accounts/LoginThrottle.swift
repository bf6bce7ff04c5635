import Crypto
import Foundation
import SharedKernel
import StoragePorts

/// Counts sign-in attempts per account and per client address in a sliding window. Once a
/// key reaches its limit every attempt (even with the right password) is refused until the
/// oldest counted attempt leaves the window, which makes online guessing impractically slow.
///
/// The counts live in the store (``SignInAttemptLedger``), so every server instance on the
/// same database shares them: spreading guesses over instances gains nothing. The keys are
/// hashes, so the store never holds the addresses tried. What stays in the process is the
/// bookkeeping of which refusals were audited, which only keeps the audit trail short.
///
/// An attempt is counted when it is *reserved*, before its password is checked, not when
/// it has failed: bcrypt takes a quarter of a second, and counting afterwards let a burst of
/// parallel guesses all be checked before the first failure was recorded. A reservation is
/// settled once the outcome is known: a failure keeps it, a success clears the account's
/// failures, and an attempt that could not be checked at all (a store error) gives it back.
package actor LoginThrottle {
    /// Where attempts are counted.
    package let ledger: any SignInAttemptLedger
    /// The limits and window.
    package let limits: SignInLimits
    /// How long an attempt counts.
    package var window: TimeInterval { limits.window }

    /// The reservation of one attempt, to settle with ``settle(_:as:)``.
    package struct Ticket: Sendable {
        fileprivate let id: UUID
        fileprivate let accountKey: String
        fileprivate let addressKey: String
    }

    /// How an attempt ended.
    package typealias Outcome = SignInOutcome

    /// Whether an attempt may go ahead.
    package enum Decision: Sendable {
        /// Check the password, then settle `ticket`. `unreported`, when set, is the audit
        /// detail of refusals that got no entry of their own and are not yet accounted for.
        case proceed(Ticket, unreported: String?)
        /// Refused: answer 429. `audit` is the detail of the entry to write, or `nil` when
        /// this refusal is accounted for by an entry already written in the current window.
        case refused(retryAfterSeconds: Int, audit: String?)
    }

    /// Refusals of one key since its last audited refusal.
    private struct RefusalLog {
        var auditedAt: Date
        var unaudited = 0
        var firstUnaudited: Date?
        var lastUnaudited: Date?
    }

    private var refusals: [String: RefusalLog] = [:]
    private var reservationsSinceSweep = 0

    package init(
        ledger: any SignInAttemptLedger, window: TimeInterval = 15 * 60, accountLimit: Int = 10, addressLimit: Int = 50
    ) {
        self.ledger = ledger
        self.limits = SignInLimits(window: window, accountLimit: accountLimit, addressLimit: addressLimit)
    }

    /// The key under which `kind` (`account` or `address`) `value` is counted: a hash, so
    /// the store keeps no address in clear, prefixed with its kind for the audit detail.
    package static func key(_ kind: String, _ value: String) -> String {
        kind + ":" + Hex.encode(SHA256.hash(data: Data(value.utf8)))
    }

    /// Reserves an attempt for `account` from `address` at `now`, or refuses it. Atomic: two
    /// concurrent calls can never both take the last place under a limit.
    ///
    /// From a `device` that carries the account's mark (``SignInDevices``) the attempt counts
    /// against that device and account, with the account's limit, instead of the address: a
    /// clinic's shared address used up by someone else does not shut out staff on their own
    /// devices. The account's limit holds either way.
    ///
    /// Refusals are audited at most once per limiting key (the account, or the address when
    /// that is what is over its limit) per window, so a flood of refused attempts cannot fill
    /// the append-only audit trail; the refusals in between are counted and reported in the
    /// detail of that key's next audited refusal, or of the next attempt allowed for it.
    package func reserve(account: String, address: String, device: String? = nil, now: Date) async throws -> Decision {
        let accountKey = Self.key("account", account.lowercased())
        let addressKey =
            device.map { Self.key("device", $0 + "|" + account.lowercased()) } ?? Self.key("address", address)
        var limits = self.limits
        if device != nil { limits.addressLimit = limits.accountLimit }
        try await sweepIfDue(now: now)
        let ticket = UUID()
        if let refusal = try await ledger.reserveSignInAttempt(
            ticket, accountKey: accountKey, addressKey: addressKey, limits: limits, now: now)
        {
            return .refused(
                retryAfterSeconds: refusal.retryAfterSeconds, audit: refusalAudit(key: refusal.key, now: now))
        }
        let unreported = [accountKey, addressKey].compactMap { unreportedRefusals(key: $0, now: now) }
        return .proceed(
            Ticket(id: ticket, accountKey: accountKey, addressKey: addressKey),
            unreported: unreported.isEmpty ? nil : unreported.joined(separator: "; "))
    }

    /// Settles a reservation once its outcome is known. A store error leaves the attempt
    /// counted (the safe side: at worst one more wait).
    package func settle(_ ticket: Ticket, as outcome: Outcome) async {
        try? await ledger.settleSignInAttempt(ticket.id, accountKey: ticket.accountKey, outcome: outcome)
    }

    /// The audit detail for a refusal of `key` at `now`, or `nil` when one was audited within the window.
    private func refusalAudit(key: String, now: Date) -> String? {
        if var log = refusals[key], now.timeIntervalSince(log.auditedAt) < window {
            log.unaudited += 1
            log.firstUnaudited = log.firstUnaudited ?? now
            log.lastUnaudited = now
            refusals[key] = log
            return nil
        }
        let earlier = refusals[key].flatMap(Self.summary)
        refusals[key] = RefusalLog(auditedAt: now)
        return "throttled (\(Self.kind(of: key)) over its limit)" + (earlier.map { "; " + $0 } ?? "")
    }

    /// The refusals of `key` not yet reported, once its window has passed (then forgotten).
    private func unreportedRefusals(key: String, now: Date) -> String? {
        guard let log = refusals[key], now.timeIntervalSince(log.auditedAt) >= window else { return nil }
        refusals[key] = nil
        return Self.summary(log).map { "throttled (\(Self.kind(of: key)) over its limit): " + $0 }
    }

    private static func summary(_ log: RefusalLog) -> String? {
        guard log.unaudited > 0, let first = log.firstUnaudited, let last = log.lastUnaudited else { return nil }
        return "\(log.unaudited) further attempts refused without entries of their own between "
            + "\(first.formatted(.iso8601)) and \(last.formatted(.iso8601))"
    }

    private static func kind(of key: String) -> String { String(key.prefix { $0 != ":" }) }

    /// Forgets attempts and refusal logs with nothing left to count or report, now and then,
    /// so a stream of made-up emails cannot grow them without bound.
    private func sweepIfDue(now: Date) async throws {
        reservationsSinceSweep += 1
        guard reservationsSinceSweep >= 1024 else { return }
        reservationsSinceSweep = 0
        try await ledger.pruneSignInAttempts(before: now.addingTimeInterval(-window))
        for (key, log) in refusals where log.unaudited == 0 && now.timeIntervalSince(log.auditedAt) >= window {
            refusals[key] = nil
        }
    }
}
