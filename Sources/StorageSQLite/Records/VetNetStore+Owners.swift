import Foundation
import GRDB
import PatientRecords
import SharedKernel

extension VetNetStore {
    /// Creates an owner in the scope's practice (validated, audited).
    public func createOwner(_ owner: Owner, scope: AccessScope) async throws -> Owner {
        try owner.validate()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let phones = String(decoding: try encoder.encode(owner.phones), as: UTF8.self)
        let address = try owner.address.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let communication = String(decoding: try encoder.encode(owner.communication), as: UTF8.self)
        let now = Timestamp.string(clock.now())
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO owner (id, practice_id, first_name, last_name, email, phones, phone_digits, address, communication,
                                       notes, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [owner.id.description, scope.practiceID.description, owner.firstName, owner.lastName, owner.email,
                            phones, owner.phones.map(\.digits).joined(separator: " "), address, communication, owner.notes, now, now])
            try self.appendAudit(AuditRecord(action: "owner.create", resourceType: "owner", resourceID: owner.id.description), scope: scope, db: db)
        }
        return owner
    }

    /// Number of owners in the scope's practice.
    public func ownerCount(scope: AccessScope) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM owner WHERE practice_id = ?", arguments: [scope.practiceID.description]) ?? 0
        }
    }
}
