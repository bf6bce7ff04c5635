import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - CSV import

    /// Stores a validated import plan in one transaction: every owner and patient through the
    /// same inserts as single creates, so record numbers, the search index and the audit trail
    /// are exactly as if each had been entered by hand; one `patient.import` entry sums it up.
    ///
    /// A row the store refuses (a microchip the practice already has) refuses the whole import
    /// with ``PatientImportError/invalidRows(_:)``, unless `skipRefused`: then that row alone is
    /// rolled back and reported in ``PatientImportResult/refused``, and an owner is created only
    /// with their first stored patient.
    public func importPatients(
        _ plan: PatientImportPlan, scope: AccessScope, skipRefused: Bool = false,
        progress: ImportProgressHandler? = nil
    ) async throws -> PatientImportResult {
        let owners = Dictionary(uniqueKeysWithValues: plan.owners.map { ($0.id, $0) })
        return try await write { db in
            let counterBefore = try Self.recordNumberCounter(db: db, practiceID: scope.practiceID)
            var storedOwners = Set<Identifier<Owner>>()
            var refused: [ImportRowIssue] = []
            var stored = 0
            for (index, patient) in plan.patients.enumerated() {
                let line = plan.patientLines[patient.id] ?? 0
                do {
                    try db.inSavepoint {
                        for ownerID in [patient.ownerID, patient.coOwnerID].compactMap({ $0 })
                        where !storedOwners.contains(ownerID) {
                            guard let owner = owners[ownerID] else {
                                throw ValidationError(field: "owner", message: "is not in the import plan")
                            }
                            try self.insertOwner(owner, db: db, scope: scope)
                        }
                        try self.insertPatient(patient, db: db, scope: scope)
                        return .commit
                    }
                    storedOwners.insert(patient.ownerID)
                    if let coOwner = patient.coOwnerID { storedOwners.insert(coOwner) }
                    stored += 1
                } catch {
                    // A row the store refuses — an invalid value, or a microchip already taken —
                    // is this row's problem; anything else ends the import.
                    guard let issue = ImportRowIssue(line: line, refusal: error) else { throw error }
                    guard skipRefused else { throw PatientImportError.invalidRows([issue]) }
                    refused.append(issue)
                }
                if let progress, (index + 1) % 500 == 0 || index + 1 == plan.patients.count {
                    progress(index + 1, plan.patients.count)
                }
            }
            try self.appendAudit(
                AuditRecord(
                    action: .patientImport, resourceType: "practice", resourceID: scope.practiceID.description,
                    detail:
                        "owners=\(storedOwners.count) patients=\(stored) refused=\(refused.count + plan.skippedRows.count)"
                ),
                scope: scope, db: db)
            if stored > 0 || !storedOwners.isEmpty {
                try self.appendEvent(
                    DomainEvent(
                        practiceID: scope.practiceID, kind: RecordEventKind.imported, occurredAt: self.clock.now(),
                        resourceType: "practice", resourceID: scope.practiceID.description,
                        payload: ["owners": String(storedOwners.count), "patients": String(stored)]), scope: scope,
                    db: db)
            }
            let counterAfter = try Self.recordNumberCounter(db: db, practiceID: scope.practiceID)
            let numbers =
                counterAfter > counterBefore
                ? (Self.recordNumber(counterBefore + 1), Self.recordNumber(counterAfter)) : nil
            return PatientImportResult(
                ownersCreated: storedOwners.count, patientsCreated: stored, recordNumbers: numbers, refused: refused)
        }
    }

    // MARK: - Record numbers

    /// The last record number handed out in the practice (0 before the first).
    static func recordNumberCounter(db: Database, practiceID: PracticeID) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT value FROM practice_counter WHERE practice_id = ? AND name = 'mrn'",
            arguments: [practiceID.description]) ?? 0
    }

    /// Moves the record-number counter to at least `value`, so later patients get higher numbers.
    static func advanceRecordNumberCounter(db: Database, practiceID: PracticeID, to value: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO practice_counter (practice_id, name, value) VALUES (?, 'mrn', ?)
                ON CONFLICT (practice_id, name) DO UPDATE SET value = max(value, excluded.value)
                """, arguments: [practiceID.description, value])
    }

    /// `P-000042` for 42: the form ``nextMedicalRecordNumber(db:practiceID:)`` assigns.
    static func recordNumber(_ value: Int) -> String { MedicalRecordNumber.text(Int64(value)) }

    /// The counter value of a record number in the assigned form, `nil` for any other text.
    static func recordNumberValue(_ text: String) -> Int? {
        MedicalRecordNumber.value(of: text).flatMap { Int(exactly: $0) }
    }
}
