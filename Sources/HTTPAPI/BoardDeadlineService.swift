import Logging
import ServiceLifecycle
import StoragePorts

/// Announces, once each, the moments the ER board must not let pass silently: a waiting
/// patient passing their target time, and a re-assessment falling due (spec §2.5). Every
/// `interval` (30 s in the server) it asks the store, which decides with the domain's rules
/// (``TriageQueue/dueAnnouncements(at:)``) and writes the announcement and its event in one
/// transaction; an announcement is marked on the board entry, so instances sharing a
/// database and restarts never announce the same deadline twice.
struct BoardDeadlineService: Service {
    let store: any TriageRepository
    let interval: Duration
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                do {
                    let announced = try await store.announceBoardDeadlines()
                    if announced > 0 { logger.debug("board deadlines announced", metadata: ["count": "\(announced)"]) }
                } catch {
                    // The next round retries: nothing is marked announced unless its event was written.
                    logger.error("announcing board deadlines failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
