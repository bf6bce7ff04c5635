import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Stores a validated import plan in one transaction, every owner and patient through the
    /// same inserts as single creates (record numbers, search words, audit entries exactly as
    /// if each had been entered by hand); one `patient.import` entry and one `records.imported`
    /// event sum it up.
    ///
    /// A row the store refuses (a microchip the practice already has) refuses the whole import
    /// with ``PatientImportError/invalidRows(_:)``, unless `skipRefused`: then each row runs
    /// under a savepoint, a refused row alone is rolled back (its record number with it, so
    /// numbers stay gap-free) and reported in ``PatientImportResult/refused``, and an owner is
    /// created only with their first stored patient.
    public func importPatients(
        _ plan: PatientImportPlan, scope: AccessScope, skipRefused: Bool,
        progress: ImportProgressHandler?
    ) async throws -> PatientImportResult {
        let owners = Dictionary(plan.owners.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try await transaction(.practice(scope.practiceID)) { connection in
            let now = self.clock.now()
            let counterBefore = try await self.recordNumberCounter(practiceID: scope.practiceID, connection: connection)
            var storedOwners = Set<Identifier<Owner>>()
            var refused: [ImportRowIssue] = []
            var stored = 0
            for (index, patient) in plan.patients.enumerated() {
                let line = plan.patientLines[patient.id] ?? 0
                if skipRefused { try await connection.query("SAVEPOINT import_row", logger: self.logger) }
                do {
                    for ownerID in [patient.ownerID, patient.coOwnerID].compactMap({ $0 })
                    where !storedOwners.contains(ownerID) {
                        guard let owner = owners[ownerID] else {
                            throw ValidationError(field: "owner", message: "is not in the import plan")
                        }
                        try await self.insertOwner(owner, scope: scope, now: now, connection: connection)
                    }
                    try await self.insertPatient(patient, scope: scope, now: now, connection: connection)
                    if skipRefused { try await connection.query("RELEASE SAVEPOINT import_row", logger: self.logger) }
                    storedOwners.insert(patient.ownerID)
                    if let coOwner = patient.coOwnerID { storedOwners.insert(coOwner) }
                    stored += 1
                } catch {
                    // A row the store refuses — an invalid value, or a microchip already taken —
                    // is this row's problem; anything else ends the import.
                    guard let issue = ImportRowIssue(line: line, refusal: error) else { throw error }
                    guard skipRefused else { throw PatientImportError.invalidRows([issue]) }
                    try await connection.query("ROLLBACK TO SAVEPOINT import_row", logger: self.logger)
                    refused.append(issue)
                }
                if let progress, (index + 1) % 500 == 0 || index + 1 == plan.patients.count {
                    progress(index + 1, plan.patients.count)
                }
            }
            try await self.appendAudit(
                AuditRecord(
                    action: .patientImport, resourceType: "practice", resourceID: scope.practiceID.description,
                    detail:
                        "owners=\(storedOwners.count) patients=\(stored) refused=\(refused.count + plan.skippedRows.count)"
                ),
                scope: scope, connection: connection)
            if stored > 0 || !storedOwners.isEmpty {
                try await self.appendEvent(
                    DomainEvent(
                        practiceID: scope.practiceID, kind: RecordEventKind.imported, occurredAt: now,
                        resourceType: "practice", resourceID: scope.practiceID.description,
                        payload: ["owners": String(storedOwners.count), "patients": String(stored)]),
                    scope: scope, connection: connection)
            }
            let counterAfter = try await self.recordNumberCounter(practiceID: scope.practiceID, connection: connection)
            let numbers =
                counterAfter > counterBefore
                ? (Self.recordNumber(counterBefore + 1), Self.recordNumber(counterAfter)) : nil
            return PatientImportResult(
                ownersCreated: storedOwners.count, patientsCreated: stored, recordNumbers: numbers, refused: refused)
        }
    }

    /// The last record number handed out in the practice (0 before the first).
    func recordNumberCounter(practiceID: PracticeID, connection: PostgresConnection) async throws -> Int64 {
        for try await value in try await connection.query(
            """
            SELECT value FROM practice_counter WHERE practice_id = \(practiceID.rawValue) AND name = 'mrn'
            """, logger: logger
        ).decode(Int64.self) {
            return value
        }
        return 0
    }
}
