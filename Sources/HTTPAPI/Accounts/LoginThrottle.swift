import Foundation

/// Counts sign-in attempts per account and per client address in a sliding window. Once a
/// key reaches its limit every attempt (even with the right password) is refused until the
/// oldest counted attempt leaves the window, which makes online guessing impractically slow.
///
/// An attempt is counted when it is *reserved*, before its password is checked, not when
/// it has failed: bcrypt takes a quarter of a second, and counting afterwards let a burst of
/// parallel guesses all be checked before the first failure was recorded. A reservation is
/// settled once the outcome is known: a failure keeps it, a success clears the account's
/// failures, and an attempt that could not be checked at all (a store error) gives it back.
actor LoginThrottle {
    /// How long an attempt counts.
    let window: TimeInterval
    /// Attempts allowed per account within the window.
    let accountLimit: Int
    /// Attempts allowed per client address within the window (higher: offices share addresses).
    let addressLimit: Int

    /// The reservation of one attempt, to settle with ``settle(_:as:)``.
    struct Ticket: Sendable {
        fileprivate let id: UInt64
        fileprivate let accountKey: String
        fileprivate let addressKey: String
    }

    /// How an attempt ended.
    enum Outcome: Sendable {
        /// The password was checked and refused: the attempt keeps counting.
        case failed
        /// The account signed in: its failures are forgotten.
        case succeeded
        /// The password could not be checked (an internal error): the attempt does not count.
        case abandoned
    }

    /// Whether an attempt may go ahead.
    enum Decision: Sendable {
        /// Check the password, then settle `ticket`. `unreported`, when set, is the audit
        /// detail of refusals that got no entry of their own and are not yet accounted for.
        case proceed(Ticket, unreported: String?)
        /// Refused: answer 429. `audit` is the detail of the entry to write, or `nil` when
        /// this refusal is accounted for by an entry already written in the current window.
        case refused(retryAfterSeconds: Int, audit: String?)
    }

    private struct Attempt {
        let ticket: UInt64
        let at: Date
        var pending: Bool
    }

    /// Refusals of one key since its last audited refusal.
    private struct RefusalLog {
        var auditedAt: Date
        var unaudited = 0
        var firstUnaudited: Date?
        var lastUnaudited: Date?
    }

    private var attempts: [String: [Attempt]] = [:]
    private var refusals: [String: RefusalLog] = [:]
    private var nextTicket: UInt64 = 0
    private var reservationsSinceSweep = 0

    init(window: TimeInterval = 15 * 60, accountLimit: Int = 10, addressLimit: Int = 50) {
        self.window = window
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
    }

    /// Reserves an attempt for `account` from `address` at `now`, or refuses it. Atomic: two
    /// concurrent calls can never both take the last place under a limit.
    ///
    /// Refusals are audited at most once per limiting key (the account, or the address when
    /// that is what is over its limit) per window, so a flood of refused attempts cannot fill
    /// the append-only audit trail; the refusals in between are counted and reported in the
    /// detail of that key's next audited refusal, or of the next attempt allowed for it.
    func reserve(account: String, address: String, now: Date) -> Decision {
        let accountKey = "account:" + account.lowercased(), addressKey = "address:" + address
        sweepIfDue(now: now)
        let waits = [(accountKey, wait(key: accountKey, limit: accountLimit, now: now)),
                     (addressKey, wait(key: addressKey, limit: addressLimit, now: now))]
            .compactMap { key, wait in wait.map { (key, $0) } }
        if let limiting = waits.max(by: { $0.1 < $1.1 }) {
            return .refused(retryAfterSeconds: limiting.1, audit: refusalAudit(key: limiting.0, now: now))
        }
        nextTicket += 1
        for key in [accountKey, addressKey] {
            attempts[key, default: []].append(Attempt(ticket: nextTicket, at: now, pending: true))
        }
        let unreported = [accountKey, addressKey].compactMap { unreportedRefusals(key: $0, now: now) }
        return .proceed(Ticket(id: nextTicket, accountKey: accountKey, addressKey: addressKey),
                        unreported: unreported.isEmpty ? nil : unreported.joined(separator: "; "))
    }

    /// Settles a reservation once its outcome is known.
    func settle(_ ticket: Ticket, as outcome: Outcome) {
        switch outcome {
        case .failed:
            for key in [ticket.accountKey, ticket.addressKey] {
                guard let index = attempts[key]?.firstIndex(where: { $0.ticket == ticket.id }) else { continue }
                attempts[key]?[index].pending = false
            }
        case .succeeded:
            // The account's failures are forgotten; attempts still being checked keep their place.
            attempts[ticket.accountKey]?.removeAll { !$0.pending || $0.ticket == ticket.id }
            attempts[ticket.addressKey]?.removeAll { $0.ticket == ticket.id }
        case .abandoned:
            for key in [ticket.accountKey, ticket.addressKey] { attempts[key]?.removeAll { $0.ticket == ticket.id } }
        }
        for key in [ticket.accountKey, ticket.addressKey] where attempts[key]?.isEmpty == true { attempts[key] = nil }
    }

    /// Seconds until `key` is below `limit` again, or `nil` if it is below now.
    private func wait(key: String, limit: Int, now: Date) -> Int? {
        let recent = (attempts[key] ?? []).filter { now.timeIntervalSince($0.at) < window }
        attempts[key] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.at.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
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

    private static func kind(of key: String) -> String { key.hasPrefix("account:") ? "account" : "address" }

    /// Forgets keys with nothing left to count or report, now and then, so a stream of
    /// made-up emails cannot grow the tables without bound.
    private func sweepIfDue(now: Date) {
        reservationsSinceSweep += 1
        guard reservationsSinceSweep >= 1024 else { return }
        reservationsSinceSweep = 0
        for (key, list) in attempts {
            let recent = list.filter { now.timeIntervalSince($0.at) < window }
            attempts[key] = recent.isEmpty ? nil : recent
        }
        for (key, log) in refusals where log.unaudited == 0 && now.timeIntervalSince(log.auditedAt) >= window {
            refusals[key] = nil
        }
    }
}
