/// Who is asking, for which practice, in which request.
///
/// Every repository call takes a scope: the storage layer applies `practiceID` to every query
/// (so a handler cannot forget tenancy) and records `actorID` and `requestID` in the audit
/// entry it writes in the same transaction as the change.
public struct AccessScope: Hashable, Sendable {
    /// The caller's practice; every read and write is confined to it.
    public let practiceID: PracticeID
    /// The signed-in staff member, or `nil` for the system itself (seeding, command-line tools).
    public let actorID: UserID?
    /// The caller's role, or `nil` for the system.
    public let role: Role?
    /// The request id (HTTP `X-Request-Id` or a command-line run id), for the audit trail.
    public let requestID: String?

    /// Creates a scope.
    public init(practiceID: PracticeID, actorID: UserID?, role: Role?, requestID: String?) {
        self.practiceID = practiceID
        self.actorID = actorID
        self.role = role
        self.requestID = requestID
    }

    /// The scope of `account` acting in its own practice.
    public init(account: StaffAccount, requestID: String?) {
        self.init(practiceID: account.practiceID, actorID: account.id, role: account.role, requestID: requestID)
    }

    /// The system acting on a practice (command-line tools, seeding, background services).
    public static func system(_ practiceID: PracticeID, requestID: String? = nil) -> AccessScope {
        AccessScope(practiceID: practiceID, actorID: nil, role: nil, requestID: requestID)
    }
}
