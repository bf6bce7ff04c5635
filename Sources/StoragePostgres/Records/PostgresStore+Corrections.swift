import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Corrects an entry of a patient's record, as the embedded store does; the patient's row
    /// is locked first, so two corrections of one record take turns and each is decided
    /// against the record the other left.
    public func correctRecordEntry(
        _ change: RecordCorrection.Change, entryKind: RecordEntryKind, entryID: UUID, patientID: Identifier<Patient>,
        scope: AccessScope, idempotencyKey: IdempotencyKey?
    ) async throws -> RecordCorrection {
        let correctionID = UUID()
        return try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let now = self.clock.now()
                let (id, _) = try await self.idempotent(
                    connection: connection, scope: scope, key: idempotencyKey, operation: .recordCorrect,
                    resourceID: UUIDText.lowercase(correctionID)
                ) {
                    let patient = try await self.patient(
                        connection: connection, practiceID: scope.practiceID, id: patientID.rawValue,
                        forUpdate: true
                    ).orNotFound("patient")
                    let record = try await self.record(
                        of: patient.value, practiceID: scope.practiceID, connection: connection
                    )
                    .applying(
                        try await self.corrections(
                            practiceID: scope.practiceID, condition: "patient_id = $2",
                            binding: patientID.rawValue, connection: connection))
                    let correction = try RecordCorrection.decide(
                        change, entryKind: entryKind, entryID: entryID, on: record,
                        by: scope.actorID?.description, at: now, id: correctionID)
                    try await connection.insert(
                        RecordRows.insert(correction, seal: self.fieldSeal(scope.practiceID)), logger: self.logger)
                    try await self.appendAudit(
                        .recordCorrected(correction), scope: scope, connection: connection)
                    _ = try await self.appendEvent(
                        .recordEntryCorrected(correction, practiceID: scope.practiceID, occurredAt: now),
                        scope: scope, connection: connection)
                }
                let stored = try await self.corrections(
                    practiceID: scope.practiceID, condition: "id = $2", binding: UUID(uuidString: id) ?? correctionID,
                    connection: connection)
                return try stored.first.orNotFound("correction")
            }
        }
    }

    /// The practice's corrections matching `condition` (on `$2`, bound to `binding`), in the order they were made.
    func corrections(
        practiceID: PracticeID, condition: String, binding: some PostgresEncodable & Sendable,
        connection: PostgresConnection
    ) async throws -> [RecordCorrection] {
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT id,
                    change_json FROM record_correction WHERE practice_id = $1 AND \(condition) ORDER BY recorded_at_ms,
                    seq
                """)
        query.binds.append(practiceID.rawValue)
        try query.binds.append(binding)
        var found: [RecordCorrection] = []
        let seal = fieldSeal(practiceID)
        for try await (id, stored) in try await connection.query(query, logger: logger).decode((UUID, String).self) {
            found.append(try RecordRows.correction(sealed: stored, id: id.uuidString, seal: seal))
        }
        return found
    }
}
