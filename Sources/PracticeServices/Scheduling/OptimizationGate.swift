import Foundation
import SharedKernel
import Synchronization

/// One optimization at a time per practice: a search holds a core for its whole time limit, so
/// a second one of the same practice would only halve both and slow everyone else's requests.
/// A second caller is told when the running one will be done (429 with `Retry-After`).
package final class OptimizationGate: Sendable {
    private let running = Mutex<[PracticeID: ContinuousClock.Instant]>([:])

    /// A gate with no optimization running.
    package init() {}

    /// Runs `work` as `practice`'s only optimization, expected to take up to `limit`; refuses
    /// with ``ServiceRefusal/busy(detail:retryAfterSeconds:)`` while another is running.
    package func run<T: Sendable>(for practice: PracticeID, limit: Duration, _ work: () async throws -> T) async throws
        -> T
    {
        let clock = ContinuousClock()
        let busyUntil = running.withLock { running -> ContinuousClock.Instant? in
            if let until = running[practice] { return until }
            running[practice] = clock.now.advanced(by: limit)
            return nil
        }
        if let busyUntil {
            let seconds = max(1, Int((busyUntil - clock.now).components.seconds) + 1)
            throw ServiceRefusal.busy(
                detail: "An optimization of this practice is already running; try again in \(seconds) seconds.",
                retryAfterSeconds: seconds)
        }
        defer { running.withLock { _ = $0.removeValue(forKey: practice) } }
        return try await work()
    }
}
