import Foundation
import GRDB
import SharedKernel

extension VetNetStore {
    /// Creates a practice (system action, audited).
    public func createPractice(_ profile: PracticeProfile, requestID: String? = nil) async throws {
        try profile.validate()
        let hours = String(decoding: try JSONEncoder().encode(profile.openingHours), as: UTF8.self)
        try await write { db in
            try db.execute(
                sql: "INSERT INTO practice (id, name, time_zone, opening_hours, phone, address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [profile.id.description, profile.name, profile.timeZone, hours, profile.phone, profile.address,
                            Timestamp.string(self.clock.now())])
            try self.appendAudit(AuditRecord(action: "practice.create", resourceType: "practice", resourceID: profile.id.description),
                                 scope: .system(profile.id, requestID: requestID), db: db)
        }
    }

    /// The caller's own practice.
    public func practice(scope: AccessScope) async throws -> PracticeProfile {
        guard let practice = try await practice(id: scope.practiceID) else { throw DomainError.notFound(resource: "practice") }
        return practice
    }

    /// A practice by id, for system use (command-line tools); `nil` when unknown.
    public func practice(id: PracticeID) async throws -> PracticeProfile? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM practice WHERE id = ?", arguments: [id.description]).map(Self.practice(from:))
        }
    }

    /// Every practice in the store, by name (system use: the command-line tools).
    public func allPractices() async throws -> [PracticeProfile] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM practice ORDER BY name").map(Self.practice(from:))
        }
    }

    /// Whether the store holds no practice yet (demo seeding runs only then).
    public func isEmpty() async throws -> Bool {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM practice") == 0 }
    }

    static func practice(from row: Row) throws -> PracticeProfile {
        let hoursJSON: String = row["opening_hours"]
        let hours = (try? JSONDecoder().decode([OpeningHours].self, from: Data(hoursJSON.utf8))) ?? []
        return PracticeProfile(
            id: try row.identifier("id"), name: row["name"], timeZone: row["time_zone"],
            openingHours: hours, phone: row["phone"], address: row["address"])
    }
}
