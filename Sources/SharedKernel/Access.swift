/// The tenant: every record belongs to exactly one practice.
public enum Practice {}
/// A staff account.
public enum User {}

/// Identifies a practice.
public typealias PracticeID = Identifier<Practice>
/// Identifies a staff account.
public typealias UserID = Identifier<User>

/// A staff member's role. The role decides what an account may do (see ``Permission``).
public enum Role: String, CaseIterable, Codable, Sendable, Comparable {
    case administrator
    case veterinarian
    case technician
    case receptionist

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
}

/// What an account may do. The matrix is documented in `docs/permissions.md` and tested
/// cell by cell so the documentation and the code cannot drift apart.
public enum Permission: String, CaseIterable, Codable, Sendable {
    /// Read owners, patients and their medical record.
    case readRecords
    /// Create or change owners, patients, weights, vaccinations.
    case writeRecords
    /// Write clinical notes, problems, medications (clinical judgement).
    case writeClinical
    /// Triage an arrival and manage the ER board.
    case triage
    /// Book, move, cancel appointments and check patients in.
    case book
    /// Manage clinicians, rooms, availability, appointment types.
    case manageSchedule
    /// Change the practice's settings (name, address, time zone, opening hours, booking grid,
    /// default buffer, services, retention) and its closures.
    case managePractice
    /// Run the schedule optimizer and apply its plans.
    case optimizeSchedule
    /// Create, disable and change the role of staff accounts.
    case manageStaff
    /// Read the audit trail.
    case readAudit
    /// Read practice analytics: operational figures (appointments, utilization, no-shows,
    /// durations, VTL compliance, bottlenecks, forecasts, insights).
    case readAnalytics
    /// Read the money in practice analytics (revenue by appointment type and clinician).
    case readRevenue
    /// Purge archived records past retention, export the practice.
    case administerData
}

extension Role {
    /// The permissions granted to this role.
    public var permissions: Set<Permission> {
        switch self {
        case .administrator:
            return Set(Permission.allCases)
        case .veterinarian:
            return [
                .readRecords, .writeRecords, .writeClinical, .triage, .book, .optimizeSchedule, .readAnalytics,
                .readRevenue,
            ]
        case .technician:
            return [.readRecords, .writeRecords, .writeClinical, .triage, .book]
        case .receptionist:
            // The front desk runs the day: it sees the operational figures, not the money.
            return [.readRecords, .writeRecords, .triage, .book, .readAnalytics]
        }
    }

    /// Whether this role may perform `permission`.
    public func allows(_ permission: Permission) -> Bool { permissions.contains(permission) }
}

extension Permission {
    /// What applying an optimizer plan needs: it books appointments, so running the
    /// optimizer must not become a way to book without `book`.
    public static let applyOptimizedPlan: [Permission] = [.optimizeSchedule, .book]

    /// What applying a re-plan needs: it moves appointments (`book`) and marks the absent
    /// clinician's day as time off in their availability (`manageSchedule`), so it needs
    /// every permission those changes need on their own. A preview needs `optimizeSchedule` only.
    public static let applyReplan: [Permission] = [.optimizeSchedule, .book, .manageSchedule]
}
