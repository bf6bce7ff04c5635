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
        /// Check the password, then settle `ticket`.
        case proceed(Ticket)
        /// Refused: answer 429.
        case refused(retryAfterSeconds: Int)
    }

    private struct Attempt {
        let ticket: UInt64
        let at: Date
        var pending: Bool
    }

    private var attempts: [String: [Attempt]] = [:]
    private var nextTicket: UInt64 = 0
    private var reservationsSinceSweep = 0

    init(window: TimeInterval = 15 * 60, accountLimit: Int = 10, addressLimit: Int = 50) {
        self.window = window
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
    }

    /// Reserves an attempt for `account` from `address` at `now`, or refuses it. Atomic: two
    /// concurrent calls can never both take the last place under a limit.
    func reserve(account: String, address: String, now: Date) -> Decision {
        let accountKey = "account:" + account.lowercased(), addressKey = "address:" + address
        sweepIfDue(now: now)
        let waits = [(accountKey, wait(key: accountKey, limit: accountLimit, now: now)),
                     (addressKey, wait(key: addressKey, limit: addressLimit, now: now))]
            .compactMap { key, wait in wait.map { (key, $0) } }
        if let limiting = waits.max(by: { $0.1 < $1.1 }) {
            return .refused(retryAfterSeconds: limiting.1)
        }
        nextTicket += 1
        for key in [accountKey, addressKey] {
            attempts[key, default: []].append(Attempt(ticket: nextTicket, at: now, pending: true))
        }
        return .proceed(Ticket(id: nextTicket, accountKey: accountKey, addressKey: addressKey))
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
    }
}
