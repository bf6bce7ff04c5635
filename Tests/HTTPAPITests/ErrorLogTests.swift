import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StoragePorts
import Synchronization
import Testing

@testable import HTTPAPI

/// An unexpected failure answers an opaque 500 and goes to the log for the operator, linked
/// by the request id: with what it knows to say safely, never a value a database error holds.
@Suite("The log of an unexpected failure")
struct ErrorLogTests {
    /// A database failure as a driver reports it: a full description with a bound value, and
    /// a log-safe one without.
    struct DriverFailure: LogSafeDescription, CustomDebugStringConvertible {
        var debugDescription: String { "DriverFailure(binds: [\"jo.bloggs.private@example.org\"], sqlState: 23514)" }
        var logSafeDescription: String { "the database refused: check violation [SQLSTATE 23514]" }
    }

    /// A failure nobody described for the log.
    struct Unforeseen: Error, CustomDebugStringConvertible {
        var debugDescription: String { "Unforeseen(step: 3)" }
    }

    @Test("the 500 carries no detail; the log names the failure with its safe text, never the bound value")
    func opaqueAnswerSafeLog() async throws {
        let log = CapturedLog()
        let router = Router(context: VetNetRequestContext.self)
        router.add(middleware: ProblemDetailsMiddleware())
        router.get("/failing") { _, _ -> String in throw DriverFailure() }
        router.get("/unforeseen") { _, _ -> String in throw Unforeseen() }
        let logger = Logger(label: "vetnet.test") { _ in CapturingLogHandler(log: log) }
        try await Application(router: router, logger: logger).test(.router) { client in
            try await client.execute(uri: "/failing", method: .get) { response in
                #expect(response.status == .internalServerError)
                let body = String(buffer: response.body)
                #expect(!body.contains("jo.bloggs"))
                #expect(!body.contains("23514"))
            }
            try await client.execute(uri: "/unforeseen", method: .get) { response in
                #expect(response.status == .internalServerError)
            }
        }
        let lines = log.lines
        #expect(lines.contains { $0.contains("the database refused: check violation [SQLSTATE 23514]") }, "\(lines)")
        #expect(!lines.contains { $0.contains("jo.bloggs") }, "\(lines)")
        // A failure without a safe text keeps its full one: the operator needs something to act on.
        #expect(lines.contains { $0.contains("Unforeseen(step: 3)") }, "\(lines)")
    }
}

/// Every line logged, with its metadata, in order.
final class CapturedLog: Sendable {
    private let stored = Mutex<[String]>([])
    var lines: [String] { stored.withLock { $0 } }
    func append(_ line: String) { stored.withLock { $0.append(line) } }
}

/// A log handler that keeps what it is given in a ``CapturedLog``.
struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        let all = self.metadata.merging(metadata ?? [:]) { $1 }
        log.append("\(level) \(message) \(all.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))")
    }
}
