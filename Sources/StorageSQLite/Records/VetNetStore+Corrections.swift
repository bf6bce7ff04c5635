import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Corrects an entry of a patient's record: decided against the record as it stands
    /// (``RecordCorrection/decide(_:entryKind:entryID:on:by:at:id:calendar:)``), kept, audited
    /// and published in one transaction. Nothing recorded is deleted.
    public func correctRecordEntry(
        _ change: RecordCorrection.Change, entryKind: RecordEntryKind, entryID: UUID, patientID: Identifier<Patient>,
        scope: AccessScope, idempotencyKey: IdempotencyKey?
    ) async throws -> RecordCorrection {
        let now = clock.now()
        return try await write { db in
            let (id, _) = try self.idempotent(
                db: db, scope: scope, key: idempotencyKey, operation: .recordCorrect
            ) {
                let patient = try Self.patient(db: db, practiceID: scope.practiceID, id: patientID.description)
                    .orNotFound("patient").value
                let record = try self.record(db: db, practiceID: scope.practiceID, patient: patient)
                    .applying(try self.corrections(db: db, practiceID: scope.practiceID, patientID: patientID))
                let correction = try RecordCorrection.decide(
                    change, entryKind: entryKind, entryID: entryID, on: record,
                    by: scope.actorID?.description, at: now)
                try db.insert(RecordRows.insert(correction, seal: self.fieldSeal(scope.practiceID)))
                try self.appendAudit(.recordCorrected(correction), scope: scope, db: db)
                try self.appendEvent(
                    .recordEntryCorrected(correction, practiceID: scope.practiceID, occurredAt: now), scope: scope,
                    db: db)
                return UUIDText.lowercase(correction.id)
            }
            let corrections = try self.corrections(db: db, practiceID: scope.practiceID, patientID: patientID)
            return try corrections.first(where: { UUIDText.lowercase($0.id) == id }).orNotFound("correction")
        }
    }

    /// A patient's corrections, in the order they were made.
    func corrections(db: Database, practiceID: PracticeID, patientID: Identifier<Patient>) throws
        -> [RecordCorrection]
    {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id,
                        change_json FROM record_correction WHERE practice_id = ? AND patient_id = ?
                        ORDER BY recorded_at_ms, rowid
                    """), arguments: [practiceID.description, patientID.description]
        ).map { try correction(from: $0, practiceID: practiceID) }
    }

    /// The practice's corrections of vaccinations, for the practice-wide due list.
    func vaccinationCorrections(db: Database, practiceID: PracticeID) throws -> [RecordCorrection] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id,
                        change_json FROM record_correction WHERE practice_id = ? AND entry_kind = 'vaccination'
                        ORDER BY recorded_at_ms, rowid
                    """), arguments: [practiceID.description]
        ).map { try correction(from: $0, practiceID: practiceID) }
    }

    private func correction(from row: Row, practiceID: PracticeID) throws -> RecordCorrection {
        try RecordRows.correction(
            sealed: try row.read("change_json"), id: try row.read("id"), seal: fieldSeal(practiceID))
    }
}
