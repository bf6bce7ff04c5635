import Foundation

/// Counts failed sign-ins per account and per client address in a sliding window. Once a key
/// reaches its limit every attempt (even with the right password) is refused until the
/// oldest failure leaves the window, which makes online guessing impractically slow.
actor LoginThrottle {
    /// How long a failure counts.
    let window: TimeInterval
    /// Failures allowed per account within the window.
    let accountLimit: Int
    /// Failures allowed per client address within the window (higher: offices share addresses).
    let addressLimit: Int
    private var failures: [String: [Date]] = [:]

    init(window: TimeInterval = 15 * 60, accountLimit: Int = 10, addressLimit: Int = 50) {
        self.window = window
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
    }

    /// Seconds to wait before another attempt for this account or address, or `nil` if allowed.
    func retryAfter(account: String, address: String, now: Date) -> Int? {
        let waits = [wait(key: "account:" + account.lowercased(), limit: accountLimit, now: now),
                     wait(key: "address:" + address, limit: addressLimit, now: now)].compactMap { $0 }
        return waits.max()
    }

    /// Records a failed attempt.
    func recordFailure(account: String, address: String, now: Date) {
        for key in ["account:" + account.lowercased(), "address:" + address] {
            failures[key, default: []].append(now)
        }
    }

    /// Forgets an account's failures after a successful sign-in.
    func recordSuccess(account: String) {
        failures["account:" + account.lowercased()] = nil
    }

    private func wait(key: String, limit: Int, now: Date) -> Int? {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }
}
