import SharedKernel
import Testing

/// The permission matrix as documented in docs/permissions.md, cell by cell.
@Suite("Permission matrix")
struct PermissionMatrixTests {
    static let documented: [(Role, Permission, Bool)] = {
        let yes: [Role: Set<Permission>] = [
            .administrator: Set(Permission.allCases),
            .veterinarian: [
                .readRecords, .writeRecords, .writeClinical, .triage, .book, .optimizeSchedule, .readAnalytics,
                .readRevenue,
            ],
            .technician: [.readRecords, .writeRecords, .writeClinical, .triage, .book],
            .receptionist: [.readRecords, .writeRecords, .triage, .book, .readAnalytics],
        ]
        return Role.allCases.flatMap { role in Permission.allCases.map { (role, $0, yes[role]!.contains($0)) } }
    }()

    @Test("every role × permission cell matches the documentation", arguments: documented)
    func cell(role: Role, permission: Permission, allowed: Bool) {
        #expect(role.allows(permission) == allowed)
    }

    @Test("only administrators manage staff, the practice and the schedule, or read the audit trail")
    func adminOnly() {
        for role in Role.allCases where role != .administrator {
            #expect(!role.allows(.manageStaff))
            #expect(!role.allows(.readAudit))
            #expect(!role.allows(.managePractice))
            #expect(!role.allows(.manageSchedule))
        }
    }

    @Test("receptionists see operational analytics but not revenue; technicians see neither")
    func analytics() {
        #expect(Role.receptionist.allows(.readAnalytics))
        #expect(!Role.receptionist.allows(.readRevenue))
        #expect(!Role.technician.allows(.readAnalytics))
        #expect(!Role.technician.allows(.readRevenue))
        // Revenue is part of analytics: no role may see the money without the figures.
        for role in Role.allCases where role.allows(.readRevenue) { #expect(role.allows(.readAnalytics)) }
    }

    @Test("receptionists cannot write clinical notes")
    func receptionistClinical() {
        #expect(!Role.receptionist.allows(.writeClinical))
    }
}
