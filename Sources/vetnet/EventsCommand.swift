import ArgumentParser
import Foundation
import SharedKernel
import StoragePorts
import StorageSQLite

/// `vetnet events`: the practice's event log from the command line.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Follow the practice's event log.", subcommands: [Tail.self])

    /// `vetnet events tail`.
    struct Tail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the practice's events as they happen (one line each, or JSON lines).",
            discussion: """
                Reads the store's durable event log, so it works beside a running server on the same data directory \
                and \
                shows every change the server commits (within --interval). Without --after it starts at the newest \
                event; \
                --after 0 prints everything the log still keeps first. --no-follow stops once caught up. \
                Opening the log is recorded in the audit trail: events name patients.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice:
            String?
        @Option(help: "Print the events after this sequence number first (default: only new events).") var after: Int64?
        @Option(help: "Output: text (aligned columns) or json (one LiveEvent object per line).") var format = "text"
        @Option(help: "Seconds between looks at the log, 0.05–10.") var interval = 0.2
        @Flag(inversion: .prefixedNo, help: "Keep waiting for new events (default) or stop once caught up.")
        var follow = true

        func validate() throws {
            guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
            guard (0.05...10).contains(interval) else {
                throw ValidationError("--interval must be between 0.05 and 10 seconds")
            }
            if let after, after < 0 { throw ValidationError("--after must not be negative") }
        }

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let profile = try await selectPractice(practice, store: vetStore)
            let scope = AccessScope.system(profile.id, requestID: "cli-events-tail")
            try await vetStore.recordAudit(
                AuditRecord(
                    action: .eventsTail, resourceType: .practice, resourceID: profile.id.description,
                    detail: after.map { "after=\($0)" }), scope: scope)
            _ = try? opened.embedded?.writeAuditCheckpoint()
            var cursor: Int64
            if let after { cursor = after } else { cursor = try await vetStore.eventHead(practiceID: profile.id) }
            printError("Following \(profile.name) after event \(cursor). Ctrl-C stops.")
            while true {
                let page = try await vetStore.events(practiceID: profile.id, after: cursor, limit: 500)
                if page.mustReset(after: cursor) {
                    printError(
                        "Events after \(cursor) are no longer kept (log pruned through \(page.prunedThrough), head "
                            + "\(page.headSequence)); "
                            + "continuing from \(page.headSequence).")
                    cursor = page.headSequence
                    continue
                }
                var lines = ""
                for event in page.events {
                    lines += (format == "json" ? EventLine.json(event) : EventLine.text(event)) + "\n"
                    cursor = event.sequence
                }
                // Written at once rather than through `print`, whose buffer would hold the
                // lines back when the output is a pipe.
                if !lines.isEmpty { FileHandle.standardOutput.write(Data(lines.utf8)) }
                if page.hasMore { continue }
                if !follow { return }
                try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            }
        }
    }
}

/// How `vetnet events tail` prints one event.
enum EventLine {
    /// `seq  time  kind  resource  key=value …` with keys sorted, for reading in a terminal.
    static func text(_ event: DomainEvent) -> String {
        let payload = event.payload.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let resource = "\(event.resourceType)/\(event.resourceID ?? "-")"
        return
            "\(String(event.sequence).leftPadded(to: 6))  \(Timestamp.string(event.occurredAt))  "
            + "\(event.kind.padding(toLength: 28, withPad: " ", startingAt: 0)) "
            + "\(resource)  \(payload)"
    }

    /// The event as one line of JSON, in the field names of the API's `LiveEvent`.
    static func json(_ event: DomainEvent) -> String {
        var object: [String: Any] = [
            "sequence": event.sequence, "kind": event.kind, "occurredAt": Timestamp.string(event.occurredAt),
            "resourceType": event.resourceType, "payload": event.payload,
        ]
        if let id = event.resourceID { object["resourceId"] = id }
        if let actor = event.actorID { object["actorId"] = actor }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
