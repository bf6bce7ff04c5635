import Foundation
import OpenAPIRuntime
import SharedKernel
import StoragePorts

extension APIHandler {
    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        let caller = try await authorize(.readRecords, action: .eventsStream, resourceType: .practice)
        // The browser's EventSource resends the last id it saw as a header when it reconnects.
        let position =
            try input.headers.lastEventID.map { header -> Int64 in
                guard let value = Int64(header) else {
                    throw ValidationError(field: "Last-Event-ID", message: "must be a sequence number")
                }
                return value
            } ?? input.query.after
        let kinds = input.query.kinds.map { Set($0.split(separator: ",").map(String.init)) }
        let items = try await live.subscribe(
            practiceID: caller.account.practiceID, role: caller.account.role, userID: caller.account.id,
            tokenHash: caller.tokenHash, kinds: kinds, after: position)
        // Events carry patient names and triage levels: opening the stream is a read of them.
        try await auditRead(
            caller, action: .eventsStreamOpen, resourceType: .practice,
            resourceID: caller.account.practiceID.description,
            detail: position.map { "after=\($0)" })
        // The client going away frees the stream's place (the account's cap) at once.
        RequestState.connectionClosed?.whenComplete { _ in items.cancel() }
        let accounts = self.accounts
        let tokenHash = caller.tokenHash
        let stream = ServerSentEventStream(
            items: items, sessionIsActive: { await accounts.sessionIsActive(tokenHash: tokenHash) })
        return .ok(
            .init(
                headers: .init(cacheControl: "no-store", xAccelBuffering: "no"),
                body: .textEventStream(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }

    func listChanges(_ input: Operations.ListChanges.Input) async throws -> Operations.ListChanges.Output {
        let caller = try await authorize(.readRecords, action: .eventsChangesRead, resourceType: .practice)
        let after = input.query.after ?? 0
        let limit = input.query.limit ?? 200
        guard (1...1000).contains(limit) else {
            throw ValidationError(field: "limit", message: "must be between 1 and 1000")
        }
        guard after >= 0 else { throw ValidationError(field: "after", message: "must not be negative") }
        let page = try await store.events(practiceID: caller.account.practiceID, after: after, limit: limit)
        let reset = page.mustReset(after: after)
        // Filtered after paging, so `nextAfter` moves past events the role may not see.
        let items = reset ? [] : page.events.filter { $0.isVisible(to: caller.account.role) }
        try await auditRead(
            caller, action: .eventsChangesRead, resourceType: .practice,
            resourceID: caller.account.practiceID.description,
            detail: "after=\(after) items=\(items.count)")
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: items.map(Components.Schemas.LiveEvent.init), headSequence: page.headSequence,
                        nextAfter: reset ? page.headSequence : (page.events.last?.sequence ?? after),
                        hasMore: !reset && page.hasMore, reset: reset))))
    }
}
