import Foundation
import PatientRecords
import SharedKernel

/// Whether an audited action succeeded, was refused for lack of permission, or failed.
public enum AuditOutcome: String, CaseIterable, Codable, Sendable {
    case success, denied, failure
}

/// What is being recorded, before the store gives it a sequence number and a hash.
public struct AuditRecord: Sendable {
    /// What was done (``AuditAction``: `user.create`, `patient.read`, `auth.login`, …).
    public var action: AuditAction
    /// Kind of resource, e.g. `user`, `patient`.
    public var resourceType: String
    /// The resource's id, when there is one.
    public var resourceID: String?
    /// Outcome of the action.
    public var outcome: AuditOutcome
    /// Short non-sensitive context (never a password, token or note text).
    public var detail: String?

    /// Creates a record about a resource of kind `resourceType`.
    public init(
        action: AuditAction, resourceType: ResourceKind, resourceID: String? = nil, outcome: AuditOutcome = .success,
        detail: String? = nil
    ) {
        self.action = action
        self.resourceType = resourceType.rawValue
        self.resourceID = resourceID
        self.outcome = outcome
        self.detail = detail
    }
}

/// One entry of the audit trail as stored: append-only, chained by HMAC-SHA256.
public struct AuditEntry: Codable, Hashable, Sendable {
    /// Position in the chain, starting at 1.
    public var sequence: Int64
    /// Stable id of the entry.
    public var id: UUID
    /// When it happened, RFC 3339 UTC.
    public var occurredAt: String
    /// The practice concerned (`nil` for events before a practice is known, e.g. an unknown login).
    public var practiceID: String?
    /// The acting staff member, `nil` for the system.
    public var actorID: String?
    /// Dotted verb.
    public var action: String
    /// Kind of resource.
    public var resourceType: String
    /// Resource id.
    public var resourceID: String?
    /// Outcome.
    public var outcome: AuditOutcome
    /// Request id that links the entry to the server log.
    public var requestID: String?
    /// Non-sensitive context.
    public var detail: String?
    /// Hash of the previous entry (64 zeros for the first).
    public var previousHash: String
    /// HMAC-SHA256 over this entry's fields and `previousHash`.
    public var hash: String

    /// An entry with every field given (the store computes `hash` with ``AuditChain``).
    public init(
        sequence: Int64, id: UUID, occurredAt: String, practiceID: String?, actorID: String?, action: String,
        resourceType: String, resourceID: String?, outcome: AuditOutcome, requestID: String?, detail: String?,
        previousHash: String, hash: String
    ) {
        self.sequence = sequence
        self.id = id
        self.occurredAt = occurredAt
        self.practiceID = practiceID
        self.actorID = actorID
        self.action = action
        self.resourceType = resourceType
        self.resourceID = resourceID
        self.outcome = outcome
        self.requestID = requestID
        self.detail = detail
        self.previousHash = previousHash
        self.hash = hash
    }
}

extension AuditRecord {
    /// A visit of the medical record read (the patient's record, naming the visit).
    public static func visitRead(patientID: Identifier<Patient>, visitID: Identifier<Visit>) -> AuditRecord {
        AuditRecord(
            action: .recordVisitRead, resourceType: .patient, resourceID: patientID.description,
            detail: "visit=\(visitID)")
    }

    /// A patient's visits listed (`count` of them).
    public static func visitsRead(patientID: Identifier<Patient>, count: Int) -> AuditRecord {
        AuditRecord(
            action: .recordVisitsRead, resourceType: .patient, resourceID: patientID.description,
            detail: "results=\(count)")
    }

    /// A staff account created (`first`: the practice's first administrator, made with it).
    public static func accountCreated(_ account: StaffAccount, first: Bool = false) -> AuditRecord {
        AuditRecord(
            action: .userCreate, resourceType: .user, resourceID: account.id.description,
            detail: "role=\(account.role.rawValue)" + (first ? " first administrator" : ""))
    }

    /// The session of `scope`'s member of staff ended by signing out.
    public static func signedOut(_ scope: AccessScope) -> AuditRecord {
        AuditRecord(action: .authLogout, resourceType: .session, resourceID: scope.actorID?.description)
    }

    /// A session opened for `account`; `detail` says how (password, passkey, second factor).
    public static func signedIn(_ account: StaffAccount, detail: String?) -> AuditRecord {
        AuditRecord(action: .authLogin, resourceType: .session, resourceID: account.id.description, detail: detail)
    }
}
