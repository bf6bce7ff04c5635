import Foundation
import GRDB
import SharedKernel
import Specialists

extension VetNetStore {
    /// Creates a clinician with their expertise in the scope's practice (validated, audited).
    public func createClinician(_ clinician: Clinician, scope: AccessScope) async throws -> Clinician {
        try clinician.validate()
        try await write { db in
            try Self.insertClinician(clinician, active: true, practiceID: scope.practiceID, createdAt: self.clock.now(), db: db)
            try self.appendAudit(AuditRecord(action: "clinician.create", resourceType: "clinician", resourceID: clinician.id.description),
                                 scope: scope, db: db)
        }
        return clinician
    }

    /// The clinician's row and expertise rows (creation and restore).
    static func insertClinician(_ clinician: Clinician, active: Bool, practiceID: PracticeID, createdAt: Date, db: Database) throws {
        let species = String(decoding: try JSONEncoder().encode(clinician.species.map(\.rawValue).sorted()), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO clinician (id, practice_id, user_id, display_name, credentials, species, max_appointments_per_day,
                                       complexity_ceiling, active, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [clinician.id.description, practiceID.description, clinician.userID?.description, clinician.displayName,
                        clinician.credentials, species, clinician.maxAppointmentsPerDay, clinician.complexityCeiling, active,
                        Timestamp.string(createdAt)])
        for item in clinician.expertise {
            try db.execute(sql: "INSERT INTO clinician_expertise (clinician_id, specialty, proficiency, years) VALUES (?, ?, ?, ?)",
                           arguments: [clinician.id.description, item.specialty.rawValue, item.proficiency, item.years])
        }
    }

    /// The scope's practice's clinicians with their expertise, by name (two queries, whatever the count).
    public func clinicians(scope: AccessScope) async throws -> [Clinician] {
        try await writer.read { db in try Self.clinicians(db: db, practiceID: scope.practiceID) }
    }

    static func clinicians(db: Database, practiceID: PracticeID) throws -> [Clinician] {
        try clinicians(db: db, practiceID: practiceID, includingInactive: false).map(\.clinician)
    }

    /// The practice's clinicians with whether each is active (those who left are still named
    /// by their past appointments).
    static func clinicians(db: Database, practiceID: PracticeID, includingInactive: Bool) throws -> [(clinician: Clinician, active: Bool)] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT * FROM clinician WHERE practice_id = ? \(includingInactive ? "" : "AND active = 1") ORDER BY display_name, id
            """, arguments: [practiceID.description])
        var expertise: [String: [Expertise]] = [:]
        for item in try Row.fetchAll(db, sql: """
            SELECT e.* FROM clinician_expertise e JOIN clinician c ON c.id = e.clinician_id
            WHERE c.practice_id = ? ORDER BY e.proficiency DESC, e.specialty
            """, arguments: [practiceID.description]) {
            guard let specialty = Specialty(rawValue: item["specialty"]) else { continue }
            expertise[item["clinician_id"], default: []].append(Expertise(specialty: specialty, proficiency: item["proficiency"], years: item["years"]))
        }
        return try rows.map { row in
            let id: String = row["id"]
            let speciesJSON: String = row["species"]
            let species = ((try? JSONDecoder().decode([String].self, from: Data(speciesJSON.utf8))) ?? []).compactMap(Species.init(rawValue:))
            let clinician = Clinician(id: try row.identifier("id"), userID: (row["user_id"] as String?).flatMap(UserID.init(uuidString:)),
                                      displayName: row["display_name"], credentials: row["credentials"], expertise: expertise[id] ?? [],
                                      species: Set(species), maxAppointmentsPerDay: row["max_appointments_per_day"],
                                      complexityCeiling: row["complexity_ceiling"])
            return (clinician, row["active"])
        }
    }
}
