extension APIHandler {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: "ok"))))
    }

    func getReady(_ input: Operations.GetReady.Input) async throws -> Operations.GetReady.Output {
        if await store.isReady() { return .ok(.init(body: .json(.init(status: "ready")))) }
        return .serviceUnavailable(.init(body: .json(.init(status: "store unavailable"))))
    }
}
