import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Creates a patient, assigning the next medical record number in the same transaction
    /// (validated, audited, idempotent per key). The owners must belong to the practice.
    public func createPatient(_ patient: Patient, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws -> (
        Versioned<Patient>, replayed: Bool
    ) {
        try patient.validate(now: clock.now())
        return try await write { db in
            let (id, replayed) = try self.idempotent(
                db: db, scope: scope, key: idempotencyKey, operation: .patientCreate
            ) {
                try self.insertPatient(patient, db: db, scope: scope)
                try self.appendEvent(
                    patient.changeEvent(previous: nil, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                    scope: scope, db: db)
                return patient.id.description
            }
            let stored = try Self.patient(db: db, practiceID: scope.practiceID, id: id).orNotFound("patient")
            return (stored, replayed)
        }
    }

    /// Creates a patient (helper for seeding and tests).
    @discardableResult
    public func createPatient(_ patient: Patient, scope: AccessScope) async throws -> Patient {
        try await createPatient(patient, scope: scope, idempotencyKey: nil).0.value
    }

    /// Replaces a patient's details under optimistic concurrency. The record number never changes.
    public func updatePatient(_ patient: Patient, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<
        Patient
    > {
        let now = clock.now()
        return try await write { db in
            let current = try Self.patient(db: db, practiceID: scope.practiceID, id: patient.id.description)
            let update = try PatientUpdate.decide(
                patient, current: current, expectedVersion: expectedVersion, scope: scope, now: now)
            try Self.requireOwners(of: patient, db: db, scope: scope)
            let updated = update.patient.value
            try db.update(PatientRows.update(update, practiceID: scope.practiceID, now: now))
            try Self.reindexPatient(db: db, id: updated.id.description)
            try self.appendAudit(update.audit, scope: scope, db: db)
            try self.appendEvent(update.event, scope: scope, db: db)
            return update.patient
        }
    }

    // MARK: - Reading

    /// One patient (audited read).
    public func patient(scope: AccessScope, id: Identifier<Patient>) async throws -> Versioned<Patient> {
        try await write { db in
            let patient = try Self.patient(db: db, practiceID: scope.practiceID, id: id.description).orNotFound(
                "patient")
            try self.appendAudit(
                AuditRecord.patient(.patientRead, id.rawValue), scope: scope,
                db: db)
            return patient
        }
    }

    /// Searches the practice's patients: prefix match, case- and diacritic-insensitive, on
    /// patient and owner names, phone digits, record number and microchip; filtered by species
    /// and status; ordered by name then id; the cursor is the last id of the page. Audited as
    /// one search (the query text is not logged: it may contain a name).
    public func searchPatients(scope: AccessScope, query: PatientQuery, limit: Int, after cursor: String?) async throws
        -> Page<PatientSummary>
    {
        // A negative limit is an empty page, and the extra row that detects a next page must
        // not overflow (SQLite reads a negative LIMIT as none, and `prefix` traps on it).
        let limit = max(0, limit)
        let fetch = limit == Int.max ? limit : limit + 1
        let contacts = ContactSearchIndex(cipher: cipher, practiceID: scope.practiceID)
        let match = query.text.flatMap { Self.ftsQuery($0, contacts: contacts) }
        // Text with no letter or digit in it ("🐶", "***") matches no name, number or chip.
        let nothingSearchable = match == nil && query.text.map { !$0.allSatisfy(\.isWhitespace) } == true
        return try await write { db in
            let after = try cursor.map { try Self.cursorRow($0, in: "patient", db: db, scope: scope) }
            if nothingSearchable {
                try self.appendAudit(
                    AuditRecord.patientSearch(results: 0), scope: scope,
                    db: db)
                return Page(items: [], nextCursor: nil)
            }
            var sql =
                """
                SELECT p.*, o.first_name AS owner_first, o.last_name AS owner_last FROM patient p JOIN owner o ON \
                o.id = p.owner_id
                """
            var arguments: StatementArguments = []
            if let match {
                sql +=
                    """
                     JOIN (SELECT patient_id FROM patient_search WHERE patient_search MATCH ? AND practice_id = ?) s \
                    ON s.patient_id = p.id
                    """
                arguments += [match, scope.practiceID.description]
            }
            sql += " WHERE p.practice_id = ?"
            arguments += [scope.practiceID.description]
            if let species = query.species {
                sql += " AND p.species = ?"
                arguments += [species.rawValue]
            }
            if let status = query.status {
                sql += " AND p.status = ?"
                arguments += [status.rawValue]
            }
            if let after {
                sql += " AND (p.name, p.id) > (SELECT name, id FROM patient WHERE id = ? AND practice_id = ?)"
                arguments += [after, scope.practiceID.description]
            }
            sql += " ORDER BY p.name, p.id LIMIT ?"
            arguments += [fetch]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let items = try rows.map { row in
                PatientSummary(
                    patient: try PatientRows.patient(from: row),
                    ownerName: "\(try row.read("owner_first") as String) \(try row.read("owner_last") as String)")
            }
            let page = Page(fetched: items, limit: limit) { $0.patient.value.id.description }
            try self.appendAudit(
                AuditRecord.patientSearch(results: page.items.count),
                scope: scope, db: db)
            return page
        }
    }

    /// Number of patients in the scope's practice.
    public func patientCount(scope: AccessScope) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM patient WHERE practice_id = ?", arguments: [scope.practiceID.description]
            ) ?? 0
        }
    }

    // MARK: - Rows

    /// Inserts a patient with the next record number, or with `recordNumber` when restoring a
    /// practice that already assigned one (the caller then moves the counter past it).
    func insertPatient(
        _ patient: Patient, db: Database, scope: AccessScope, recordNumber: String? = nil, archivedAt: Date? = nil
    ) throws {
        try Self.requireOwners(of: patient, db: db, scope: scope)
        let mrn = try recordNumber ?? Self.nextMedicalRecordNumber(db: db, practiceID: scope.practiceID)
        do {
            try db.insert(
                PatientRows.insert(
                    patient, recordNumber: mrn, practiceID: scope.practiceID, archivedAt: archivedAt, now: clock.now()))
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CONSTRAINT && error.message?.contains("microchip") == true
        {
            throw UniquenessConflict.patientMicrochip
        }
        // A new patient has no search row yet; skipping reindexPatient's DELETE matters, as
        // FTS5 can only find a row by an UNINDEXED column by scanning the whole table.
        try db.execute(sql: Self.searchRowsSQL + " WHERE p.id = ?", arguments: [patient.id.description])
        try appendAudit(.patientCreated(patient.id), scope: scope, db: db)
    }

    static func requireOwners(of patient: Patient, db: Database, scope: AccessScope) throws {
        for owner in [patient.ownerID, patient.coOwnerID] {
            guard let owner else { continue }
            let exists =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM owner WHERE id = ? AND practice_id = ?",
                    arguments: [owner.description, scope.practiceID.description]) ?? 0
            if exists == 0 { throw DomainError.notFound(resource: "owner") }
        }
    }

    /// Rebuilds the search row of one patient from the patient and its owners. The search row
    /// shares the patient's rowid, so it is found by key, not by scanning the index.
    static func reindexPatient(db: Database, id: String) throws {
        try db.execute(
            sql: "DELETE FROM patient_search WHERE rowid = (SELECT rowid FROM patient WHERE id = ?)", arguments: [id])
        try db.execute(sql: searchRowsSQL + " WHERE p.id = ?", arguments: [id])
    }

    /// Inserts the search rows of the patients a `WHERE` clause appended to it selects; one
    /// definition, so bulk loads index exactly as single writes do.
    ///
    /// The `phones` column holds the owners' contact tokens (``ContactSearchIndex``): their
    /// phone numbers and email addresses are sealed, and only keyed digests of their words'
    /// prefixes are searchable.
    static let searchRowsSQL = """
        INSERT INTO patient_search (rowid, patient_id, practice_id, patient_name, owner_names, phones, mrn, microchip)
        SELECT p.rowid, p.id, p.practice_id, p.name,
               o.first_name || ' ' || o.last_name || COALESCE(' ' || c.first_name || ' ' || c.last_name, ''),
               o.contact_tokens || COALESCE(' ' || c.contact_tokens, ''),
               p.mrn || ' ' || REPLACE(p.mrn, '-', ''), COALESCE(p.microchip, '')
        FROM patient p JOIN owner o ON o.id = p.owner_id LEFT JOIN owner c ON c.id = p.co_owner_id
        """

    /// The letter every contact token begins with in the full-text index. FTS5 finds the terms
    /// of a prefix query by walking its term dictionary from the prefix, so tokens written in
    /// hex digits alone would be walked by every name prefix that begins with one (a third of
    /// a practice's terms are tokens); no one types "ǂ" (U+01C2, a letter to the tokenizer, so
    /// it stays part of the token), and no name prefix reaches them.
    static let contactTokenMark = "ǂ"

    /// Turns user text into an FTS5 query that matches it literally: the text is cut into
    /// words where the index's tokenizer (unicode61) cuts it — at anything that is not a letter
    /// or a digit — and each word becomes a quoted prefix term; all must match. What staff type
    /// is never read as FTS5 syntax: quotes, `*`, `-`, `AND`, `NEAR`, `^` and the like are
    /// separators or quoted words. `nil` when no letter or digit remains.
    ///
    /// A word matches the beginning of a name, record number or microchip word, or — through
    /// its token in `contacts` — of a phone number or email address word.
    static func ftsQuery(_ text: String, contacts: ContactSearchIndex) -> String? {
        let words = SearchWords.cut(text)
        guard !words.isEmpty else { return nil }
        // A word holds only letters and digits here, so it cannot close its quotes.
        return words.prefix(16).map { word in
            let token = contacts.token(ContactSearchIndex.words(word).joined())
            return "(\"\(word)\"* OR phones : \"\(contactTokenMark)\(token)\")"
        }
        .joined(separator: " AND ")
    }

    static func patient(db: Database, practiceID: PracticeID, id: String) throws -> Versioned<Patient>? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM patient WHERE id = ? AND practice_id = ?", arguments: [id, practiceID.description]
        ).map(PatientRows.patient(from:))
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// `P-000001`, `P-000002`, … per practice; gap-free because it advances inside the creating transaction.
    static func nextMedicalRecordNumber(db: Database, practiceID: PracticeID) throws -> String {
        try db.execute(
            sql: """
                INSERT INTO practice_counter (practice_id, name, value) VALUES (?, 'mrn', 1)
                ON CONFLICT (practice_id, name) DO UPDATE SET value = value + 1
                """, arguments: [practiceID.description])
        let value =
            try Int.fetchOne(
                db, sql: "SELECT value FROM practice_counter WHERE practice_id = ? AND name = 'mrn'",
                arguments: [practiceID.description]) ?? 1
        return String(format: "P-%06ld", value)
    }

}
