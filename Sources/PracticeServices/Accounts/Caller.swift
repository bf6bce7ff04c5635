import Foundation
import SharedKernel
import StoragePorts

/// The signed-in staff member a use case acts for, resolved from a session by
/// ``AccountService/authenticate(token:requestID:)`` (the HTTP layer carries it in a
/// task-local, since the generated handlers' signatures are fixed by the OpenAPI document).
public struct Caller: Sendable {
    /// The signed-in account.
    public let account: StaffAccount
    /// The SHA-256 of the bearer token (for sign-out).
    public let tokenHash: String
    /// When the session ends if idle.
    public let sessionExpiresAt: Date
    /// How the session was opened: a session that must set up a second factor may do nothing
    /// else (``mayAct``).
    public let assurance: SessionAssurance
    /// The request id.
    public let requestID: String

    /// Whether the session may use its role's permissions: not while the practice asks a
    /// second factor of the role and the account has not set one up.
    public var mayAct: Bool { !assurance.mustEnrolSecondFactor }

    /// The scope that every repository call of this request uses.
    public var scope: AccessScope {
        AccessScope(account: account, requestID: requestID)
    }
}
