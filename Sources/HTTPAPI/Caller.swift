import Foundation
import SharedKernel

/// The authenticated caller of the current request, carried in a task-local so the generated
/// handlers (whose signatures are fixed by the OpenAPI document) can read it.
public struct Caller: Sendable {
    /// The signed-in account.
    public let account: StaffAccount
    /// The SHA-256 of the bearer token (for sign-out).
    public let tokenHash: String
    /// When the session ends if idle.
    public let sessionExpiresAt: Date
    /// The request id.
    public let requestID: String

    /// The scope that every repository call of this request uses.
    public var scope: AccessScope {
        AccessScope(practiceID: account.practiceID, actorID: account.id, role: account.role, requestID: requestID)
    }
}

/// Task-local request state.
public enum RequestState {
    /// The authenticated caller, set by ``AuthenticationMiddleware``.
    @TaskLocal public static var caller: Caller?
    /// The request id, set by ``RequestIDMiddleware``.
    @TaskLocal public static var requestID: String = "none"
    /// The client's address, set by ``RequestIDMiddleware``.
    @TaskLocal public static var clientAddress: String = "unknown"
    /// The JSON body exactly as the client sent it, set by ``ContractMiddleware`` for parsers
    /// stricter than the generated decoder (the triage case refuses duplicate keys, which
    /// decoding and re-encoding would silently resolve).
    @TaskLocal public static var jsonBody: [UInt8]?
}
