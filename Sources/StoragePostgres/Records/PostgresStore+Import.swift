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
        return try await transaction(.practice(scope.practiceID)) { connection in
            let now = self.clock.now()
            let counterBefore = try await self.recordNumberCounter(practiceID: scope.practiceID, connection: connection)
            var tally = PatientImportTally(plan, skipRefused: skipRefused)
            for (index, patient) in plan.patients.enumerated() {
                if skipRefused { try await connection.query("SAVEPOINT import_row", logger: self.logger) }
                do {
                    for owner in try tally.ownersToStore(before: patient) {
                        try await self.insertOwner(owner, scope: scope, now: now, connection: connection)
                    }
                    try await self.insertPatient(patient, scope: scope, now: now, connection: connection)
                    if skipRefused { try await connection.query("RELEASE SAVEPOINT import_row", logger: self.logger) }
                    tally.stored(patient)
                } catch {
                    try tally.refuse(patient, error: error)
                    try await connection.query("ROLLBACK TO SAVEPOINT import_row", logger: self.logger)
                }
                if let progress, let done = tally.progress(after: index) { progress(done.done, done.total) }
            }
            try await self.appendAudit(
                tally.audit(practiceID: scope.practiceID),
                events: tally.event(practiceID: scope.practiceID, at: now).map { [$0] } ?? [],
                scope: scope, connection: connection)
            return tally.result(
                counterBefore: counterBefore,
                counterAfter: try await self.recordNumberCounter(practiceID: scope.practiceID, connection: connection))
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
