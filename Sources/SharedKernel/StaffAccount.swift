import Foundation

/// A staff member's account as the rest of the system sees it (never with its password hash).
public struct StaffAccount: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: UserID
    /// The practice the account belongs to.
    public var practiceID: PracticeID
    /// Sign-in email, unique across the installation.
    public var email: String
    /// Name shown to colleagues.
    public var displayName: String
    /// Role, which decides permissions.
    public var role: Role
    /// A disabled account cannot sign in and its sessions are revoked.
    public var disabled: Bool
    /// When it was created.
    public var createdAt: Date
    /// Optimistic-concurrency version (the ETag).
    public var version: Int

    /// Creates an account value.
    public init(
        id: UserID, practiceID: PracticeID, email: String, displayName: String, role: Role, disabled: Bool,
        createdAt: Date, version: Int
    ) {
        self.id = id
        self.practiceID = practiceID
        self.email = email
        self.displayName = displayName
        self.role = role
        self.disabled = disabled
        self.createdAt = createdAt
        self.version = version
    }

    /// Validates a new account's email and display name.
    public static func validateNew(email: String, displayName: String) throws(ValidationError) {
        var errors = FieldErrorCollector()
        if !EmailAddress.isPlausible(email) { errors.add("email", "must be an email address like name@example.com") }
        if displayName.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("displayName", "must not be empty") }
        if displayName.count > 200 { errors.add("displayName", "must be at most 200 characters") }
        try errors.throwIfAny()
    }
}

/// Email syntax checks kept deliberately simple: one `@`, a dot in the domain, no spaces.
public enum EmailAddress {
    /// Whether `text` looks like a deliverable address.
    public static func isPlausible(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."),
            text.count <= 254, !text.contains(where: { $0.isWhitespace })
        else { return false }
        return true
    }
}
