import Foundation
import SharedKernel

/// Session lifetime rules: sessions end after an idle period and at an absolute age.
public struct SessionPolicy: Sendable {
    /// A session unused this long is over.
    public var idleTimeout: TimeInterval
    /// No session lives longer than this after sign-in.
    public var absoluteTimeout: TimeInterval

    /// Creates a policy.
    public init(idleTimeout: TimeInterval = 30 * 60, absoluteTimeout: TimeInterval = 12 * 60 * 60) {
        self.idleTimeout = idleTimeout
        self.absoluteTimeout = absoluteTimeout
    }
}

/// How a session was opened: decided at sign-in by ``AccountService``'s rules and kept with
/// the session, so no request has to ask again.
public struct SessionAssurance: Hashable, Sendable {
    /// The sign-in proved a second factor (a code or a recovery code) besides the password,
    /// or the second factor was set up within this session.
    public var secondFactor: Bool
    /// The practice asks a second factor of the account's role and the account has none yet:
    /// the session may only set one up.
    public var mustEnrolSecondFactor: Bool

    /// Creates the assurance.
    public init(secondFactor: Bool = false, mustEnrolSecondFactor: Bool = false) {
        self.secondFactor = secondFactor
        self.mustEnrolSecondFactor = mustEnrolSecondFactor
    }
}

/// A live session resolved from a token.
public struct ActiveSession: Sendable {
    /// The signed-in account.
    public let account: StaffAccount
    /// When the session ends if it stays idle (never later than the absolute expiry).
    public let expiresAt: Date
    /// How the session was opened.
    public let assurance: SessionAssurance

    /// Creates the resolved session.
    public init(account: StaffAccount, expiresAt: Date, assurance: SessionAssurance = SessionAssurance()) {
        self.account = account
        self.expiresAt = expiresAt
        self.assurance = assurance
    }
}

/// An account with its password hash, for sign-in only. Never leaves the server.
public struct StoredCredentials: Sendable {
    /// The account.
    public let account: StaffAccount
    /// bcrypt hash of the SHA-256 of the password.
    public let passwordHash: String

    /// Pairs an account with its stored hash.
    public init(account: StaffAccount, passwordHash: String) {
        self.account = account
        self.passwordHash = passwordHash
    }
}

/// The first administrator of a new practice.
public struct FirstAdministrator: Sendable {
    /// Sign-in email.
    public let email: String
    /// Name shown to colleagues.
    public let displayName: String
    /// bcrypt hash of the password (the caller hashes; the password never reaches the store).
    public let passwordHash: String

    /// Creates the description.
    public init(email: String, displayName: String, passwordHash: String) {
        self.email = email
        self.displayName = displayName
        self.passwordHash = passwordHash
    }
}

extension FirstAdministrator {
    /// Checks `profile` and this administrator and returns the account every store creates
    /// with the practice: the rule is here once, so the stores cannot disagree on it.
    public func account(of profile: PracticeProfile, createdAt: Date) throws -> StaffAccount {
        try profile.validate()
        return try StaffAccount.new(
            email: email, displayName: displayName, role: .administrator, practiceID: profile.id, createdAt: createdAt)
    }
}

extension StaffAccount {
    /// A new account of `practiceID`, as every store creates one: its email and name checked,
    /// its address kept in lower case, enabled, at version 1.
    public static func new(email: String, displayName: String, role: Role, practiceID: PracticeID, createdAt: Date)
        throws -> StaffAccount
    {
        try validateNew(email: email, displayName: displayName)
        return StaffAccount(
            id: UserID(), practiceID: practiceID, email: email.lowercased(), displayName: displayName, role: role,
            disabled: false, createdAt: createdAt, version: 1)
    }
}

/// A live session as a store finds it, before the rules on its idle timer are applied.
public struct StoredSession: Sendable {
    /// The signed-in account.
    public let account: StaffAccount
    /// When the session was last used, in milliseconds since 1970.
    public let lastSeenMilliseconds: Int64
    /// When the session ends whatever happens, in milliseconds since 1970.
    public let expiresAtMilliseconds: Int64
    /// How the session was opened.
    public let assurance: SessionAssurance

    /// The session as read.
    public init(
        account: StaffAccount, lastSeenMilliseconds: Int64, expiresAtMilliseconds: Int64, assurance: SessionAssurance
    ) {
        self.account = account
        self.lastSeenMilliseconds = lastSeenMilliseconds
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.assurance = assurance
    }
}

/// A session looked up at one moment under a policy: the figures both stores' queries use,
/// and the rules on what they find.
public struct SessionCheck: Sendable {
    /// When the session is looked up.
    public let now: Date
    /// The timeouts it is held to.
    public let policy: SessionPolicy

    /// A check at `now` under `policy`.
    public init(now: Date, policy: SessionPolicy) {
        self.now = now
        self.policy = policy
    }

    /// How long the idle timer may lag behind a session's use: a busy client's reads do not
    /// each become a write.
    public static let refreshMilliseconds: Int64 = 15_000

    /// `now`, in milliseconds since 1970.
    public var nowMilliseconds: Int64 { Timestamp.milliseconds(now) }

    /// The idle timeout, in milliseconds.
    public var idleMilliseconds: Int64 { Int64(policy.idleTimeout * 1_000) }

    /// Whether this use refreshes the idle timer of a session last seen at `lastSeen` (ms).
    public func refreshes(lastSeen: Int64) -> Bool { nowMilliseconds - lastSeen > Self.refreshMilliseconds }

    /// When the session ends if it is not used again: idle from now, or at its absolute
    /// expiry `absolute` (ms), whichever comes first.
    public func expiry(absolute: Int64) -> Date {
        min(now.addingTimeInterval(policy.idleTimeout), Timestamp.date(milliseconds: absolute))
    }
}
