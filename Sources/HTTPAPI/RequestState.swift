import Foundation
import NIOCore
import PracticeServices
import SharedKernel

/// Task-local request state.
public enum RequestState {
    /// The authenticated caller, set by ``AuthenticationMiddleware``.
    @TaskLocal public static var caller: Caller?
    /// The request id, set by ``RequestIDMiddleware``.
    @TaskLocal public static var requestID: String = "none"
    /// The client's address, set by ``RequestIDMiddleware``.
    @TaskLocal public static var clientAddress: String = "unknown"
    /// Whether this server itself received the request over TLS, set by
    /// ``StrictTransportSecurityMiddleware`` (cookies it sets are then `Secure`).
    @TaskLocal public static var servedOverTLS = false
    /// The JSON body exactly as the client sent it, set by ``ContractMiddleware`` for parsers
    /// stricter than the generated decoder (the triage case refuses duplicate keys, which
    /// decoding and re-encoding would silently resolve).
    @TaskLocal public static var jsonBody: [UInt8]?
    /// Out-of-bounds fields (422) the contract found in a signed-in caller's request, held back
    /// by ``ContractMiddleware`` so that a caller who may not make the request at all is told
    /// that (403) first; the handler's authorization check throws them once the role allows it.
    @TaskLocal public static var deferredValidation: [FieldError]?
    /// When the request arrived (its head read), set by ``RequestIDMiddleware``: limits that
    /// bound a whole call (an optimization's time limit) count from here.
    @TaskLocal public static var receivedAt = ContinuousClock.now
    /// Completes when the request's connection closes, set by ``RequestIDMiddleware``.
    @TaskLocal public static var connectionClosed: EventLoopFuture<Void>?
}
