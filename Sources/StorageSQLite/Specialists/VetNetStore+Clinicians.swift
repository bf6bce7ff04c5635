import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Stores a decided new clinician in one write transaction (see
    /// ``ClinicianRoster/createClinician(_:availability:scope:idempotencyKey:)``).
    public func storeNewClinician(
        _ decision: ClinicianRosterWrite, at now: Date, scope: AccessScope, idempotencyKey: IdempotencyKey?
    ) async throws -> Versioned<Clinician> {
        let created = decision.clinician.value
        return try await write { db in
            let (id, _) = try self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: .clinicianCreate) {
                try Self.checkReferences(of: created, practiceID: scope.practiceID, db: db)
                try Self.insertClinician(created, active: true, practiceID: scope.practiceID, createdAt: now, db: db)
                if let owned = decision.availability {
                    try db.insert(AppointmentRows.insert(owned, version: 1, practiceID: scope.practiceID))
                }
                try self.recordRosterChange(decision, scope: scope, db: db)
                return created.id.description
            }
            return try Self.clinician(db: db, practiceID: scope.practiceID, id: id).orNotFound("clinician")
        }
    }

    /// Decided by ``ClinicianRosterWrite/update(_:current:expectedVersion:scope:now:)`` on the row
    /// read in the same write transaction (SQLite's one writer keeps the two together).
    public func updateClinician(
        id: Identifier<Clinician>, change: ClinicianChange, scope: AccessScope,
        expectedVersion: Int?
    ) async throws -> Versioned<Clinician> {
        try await write { db in
            let decision = try ClinicianRosterWrite.update(
                change, current: try Self.clinician(db: db, practiceID: scope.practiceID, id: id.description),
                expectedVersion: expectedVersion, scope: scope, now: self.clock.now())
            let next = decision.clinician.value
            try Self.checkReferences(of: next, practiceID: scope.practiceID, db: db)
            try db.execute(
                sql: """
                    UPDATE clinician SET display_name = ?, credentials = ?, species = ?, max_appointments_per_day = ?,
                        complexity_ceiling = ?,
                        preferences = ?, version = version + 1
                    WHERE id = ? AND practice_id = ?
                    """,
                arguments: [
                    next.displayName, next.credentials, try Self.speciesJSON(next), next.maxAppointmentsPerDay,
                    next.complexityCeiling,
                    try Self.preferencesJSON(next), id.description, scope.practiceID.description,
                ])
            if change.expertise != nil {
                try db.execute(
                    sql: "DELETE FROM clinician_expertise WHERE clinician_id = ?", arguments: [id.description])
                try Self.insertExpertise(next, db: db)
            }
            try self.recordRosterChange(decision, scope: scope, db: db)
            return decision.clinician
        }
    }

    /// Retires a clinician (audited): kept for history, never offered or booked again, their
    /// calendar feeds revoked; the appointments they still had are returned for re-planning.
    public func retireClinician(id: Identifier<Clinician>, scope: AccessScope, expectedVersion: Int?) async throws
        -> ClinicianRetirement
    {
        let now = clock.now()
        return try await write { db in
            let current = try Self.clinician(db: db, practiceID: scope.practiceID, id: id.description)
            let booked = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(AppointmentRows.selectList()) FROM appointment
                    WHERE practice_id = ? AND clinician_id = ?
                        AND status IN (\(AppointmentStatus.sqlList(where: \.isAwaitingVisit))) AND end_ms > ?
                        ORDER BY start_ms
                    """, arguments: [scope.practiceID.description, id.description, Timestamp.milliseconds(now)]
            )
            .map(AppointmentRows.appointment(from:))
            let decision = try ClinicianRosterWrite.retire(
                current, expectedVersion: expectedVersion, booked: booked, scope: scope, now: now)
            try db.execute(
                sql:
                    """
                    UPDATE clinician SET active = 0, retired_at = ?, version = version + 1 WHERE id = ? AND \
                    practice_id = ?
                    """,
                arguments: [Timestamp.string(now), id.description, scope.practiceID.description])
            try db.execute(
                sql:
                    """
                    UPDATE calendar_feed SET revoked_at = ? WHERE clinician_id = ? AND practice_id = ? AND revoked_at \
                    IS NULL
                    """,
                arguments: [Timestamp.string(now), id.description, scope.practiceID.description])
            try self.recordRosterChange(decision, scope: scope, db: db)
            return ClinicianRetirement(
                clinician: decision.clinician, appointmentsToReplan: decision.appointmentsToReplan)
        }
    }

    /// The audit entry and event of a decided roster change.
    private func recordRosterChange(_ write: ClinicianRosterWrite, scope: AccessScope, db: Database) throws {
        try appendAudit(write.audit, scope: scope, db: db)
        try appendEvent(write.event, scope: scope, db: db)
    }

    /// Looks up the staff account and preferred appointment types the clinician names in the
    /// practice, and refuses what is not there (``ClinicianRosterWrite/checkReferences(of:accountFound:typesFound:)``).
    static func checkReferences(of clinician: Clinician, practiceID: PracticeID, db: Database) throws {
        let accountFound = try clinician.userID.map {
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS(SELECT 1 FROM staff_user WHERE id = ? AND practice_id = ?)",
                arguments: [$0.description, practiceID.description]) == true
        }
        let preferred = clinician.preferences.preferredAppointmentTypeIDs.map(Self.text)
        let typesFound = try String.fetchAll(
            db,
            sql: """
                SELECT id FROM appointment_type WHERE practice_id = ?
                    AND id IN (SELECT value FROM json_each(?))
                """,
            arguments: [practiceID.description, String(decoding: try JSONEncoder().encode(preferred), as: UTF8.self)])
        try ClinicianRosterWrite.checkReferences(
            of: clinician, accountFound: accountFound ?? true, typesFound: Set(typesFound.compactMap(UUIDText.parse)))
    }

    /// The clinician's row and expertise rows (creation and restore).
    static func insertClinician(
        _ clinician: Clinician, active: Bool, practiceID: PracticeID, createdAt: Date, db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO clinician (id, practice_id, user_id, display_name, credentials, species,
                    max_appointments_per_day,
                                       complexity_ceiling, active, created_at, preferences, retired_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                clinician.id.description, practiceID.description, clinician.userID?.description, clinician.displayName,
                clinician.credentials, try speciesJSON(clinician), clinician.maxAppointmentsPerDay,
                clinician.complexityCeiling, active,
                Timestamp.string(createdAt), try preferencesJSON(clinician),
                clinician.retiredAt.map(Timestamp.string),
            ])
        try insertExpertise(clinician, db: db)
    }

    private static func insertExpertise(_ clinician: Clinician, db: Database) throws {
        for item in clinician.expertise {
            try db.execute(
                sql:
                    "INSERT INTO clinician_expertise (clinician_id, specialty, proficiency, years) VALUES (?, ?, ?, ?)",
                arguments: [clinician.id.description, item.specialty.rawValue, item.proficiency, item.years])
        }
    }

    private static func speciesJSON(_ clinician: Clinician) throws -> String {
        String(decoding: try JSONEncoder().encode(clinician.species.map(\.rawValue).sorted()), as: UTF8.self)
    }

    private static func preferencesJSON(_ clinician: Clinician) throws -> String {
        String(decoding: try JSONEncoder().encode(clinician.preferences), as: UTF8.self)
    }

    // MARK: - Reading

    /// The scope's practice's clinicians who work here, with their expertise, by name (two
    /// queries, whatever the count); with `includingRetired`, the retired ones too.
    public func clinicians(scope: AccessScope, includingRetired: Bool = false) async throws -> [Clinician] {
        try await writer.read { db in
            try Self.clinicians(db: db, practiceID: scope.practiceID, includingInactive: includingRetired).map(
                \.clinician)
        }
    }

    /// One clinician of the scope's practice, retired or not, with its version; another
    /// practice's id is not found.
    public func clinician(scope: AccessScope, id: Identifier<Clinician>) async throws -> Versioned<Clinician> {
        try await writer.read { db in
            return try Self.clinician(db: db, practiceID: scope.practiceID, id: id.description).orNotFound("clinician")
        }
    }

    static func clinicians(db: Database, practiceID: PracticeID) throws -> [Clinician] {
        try clinicians(db: db, practiceID: practiceID, includingInactive: false).map(\.clinician)
    }

    static func clinician(db: Database, practiceID: PracticeID, id: String) throws -> Versioned<Clinician>? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM clinician WHERE id = ? AND practice_id = ?",
                arguments: [id.lowercased(), practiceID.description])
        else { return nil }
        let expertise = try Row.fetchAll(
            db, sql: "SELECT * FROM clinician_expertise WHERE clinician_id = ? ORDER BY proficiency DESC, specialty",
            arguments: [id.lowercased()]
        ).map(expertiseItem(from:))
        return Versioned(try clinician(from: row, expertise: expertise), version: try row.read("version") ?? 1)
    }

    /// The practice's clinicians with whether each is active (those who left are still named
    /// by their past appointments).
    static func clinicians(db: Database, practiceID: PracticeID, includingInactive: Bool) throws -> [(
        clinician: Clinician, active: Bool
    )] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM clinician WHERE practice_id = ? \(includingInactive ? "" : "AND active = 1")
                    ORDER BY display_name, id
                """, arguments: [practiceID.description])
        var expertise: [String: [Expertise]] = [:]
        for item in try Row.fetchAll(
            db,
            sql: """
                SELECT e.* FROM clinician_expertise e JOIN clinician c ON c.id = e.clinician_id
                WHERE c.practice_id = ? ORDER BY e.proficiency DESC, e.specialty
                """, arguments: [practiceID.description])
        {
            let id = try StoreCorruption.known(
                try item.read("clinician_id") as String?, column: "clinician_expertise.clinician_id")
            expertise[id, default: []].append(try expertiseItem(from: item))
        }
        return try rows.map { row in
            let id: String = try row.read("id") ?? ""
            return (try clinician(from: row, expertise: expertise[id] ?? []), try row.read("active") ?? false)
        }
    }

    /// A clinician's expertise row: a specialty the domain does not know fails the read naming
    /// it, rather than leaving the clinician out of the cases they are matched for.
    private static func expertiseItem(from row: Row) throws -> Expertise {
        let specialty = try StoreCorruption.known(
            (try row.read("specialty") as String?).flatMap(Specialty.init(rawValue:)),
            column: "clinician_expertise.specialty")
        let proficiency = try StoreCorruption.known(
            try row.read("proficiency") as Int?, column: "clinician_expertise.proficiency")
        let years = try StoreCorruption.known(try row.read("years") as Int?, column: "clinician_expertise.years")
        return Expertise(specialty: specialty, proficiency: proficiency, years: years)
    }

    private static func clinician(from row: Row, expertise: [Expertise]) throws -> Clinician {
        let speciesJSON: String = try row.read("species") ?? "[]"
        let species = try StoreCorruption.decoded([String].self, from: speciesJSON, column: "clinician.species").map {
            try StoreCorruption.known(Species(rawValue: $0), column: "clinician.species")
        }
        let preferencesJSON: String = try row.read("preferences") ?? "{}"
        let preferences = try StoreCorruption.decoded(
            CaseloadPreferences.self, from: preferencesJSON, column: "clinician.preferences")
        var retiredAt = (try row.read("retired_at") as String?).flatMap(Timestamp.date)
        // Rows retired before the date was kept have only `active = 0`.
        if retiredAt == nil, (try row.read("active") as Bool?) == false {
            retiredAt = (try row.read("created_at") as String?).flatMap(Timestamp.date) ?? .distantPast
        }
        return Clinician(
            id: try row.identifier("id"),
            userID: (try row.read("user_id") as String?).flatMap(UserID.init(uuidString:)),
            displayName: try row.read("display_name") ?? "", credentials: try row.read("credentials") ?? "",
            expertise: expertise,
            species: Set(species), maxAppointmentsPerDay: try row.read("max_appointments_per_day") ?? 1,
            complexityCeiling: try row.read("complexity_ceiling") ?? 0, preferences: preferences, retiredAt: retiredAt)
    }
}
