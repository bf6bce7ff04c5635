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
            let (id, replayed) = try self.idempotent(
                db: db, scope: scope, key: idempotencyKey, operation: .recordCorrect
            ) {
                guard
                    let patient = try Self.patient(db: db, practiceID: scope.practiceID, id: patientID.description)?
                        .value
                else {
                    throw DomainError.notFound(resource: "patient")
                }
                let record = try self.record(db: db, practiceID: scope.practiceID, patient: patient)
                    .applying(try Self.corrections(db: db, practiceID: scope.practiceID, patientID: patientID))
                let correction = try RecordCorrection.decide(
                    change, entryKind: entryKind, entryID: entryID, on: record,
                    by: scope.actorID?.description, at: now)
                try Self.insertCorrection(correction, practiceID: scope.practiceID, db: db)
                try self.appendAudit(
                    AuditRecord(
                        action: .recordCorrect, resourceType: "patient", resourceID: patientID.description,
                        detail: correction.auditDetail), scope: scope, db: db)
                try self.appendEvent(
                    .recordEntryCorrected(correction, practiceID: scope.practiceID, occurredAt: now), scope: scope,
                    db: db)
                return UUIDText.lowercase(correction.id)
            }
            let corrections = try Self.corrections(db: db, practiceID: scope.practiceID, patientID: patientID)
            guard let stored = corrections.first(where: { UUIDText.lowercase($0.id) == id }) else {
                throw DomainError.notFound(resource: "correction")
            }
            _ = replayed
            return stored
        }
    }

    /// Keeps a decided correction (or one carried by a restore).
    static func insertCorrection(_ correction: RecordCorrection, practiceID: PracticeID, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO record_correction (id, practice_id, patient_id, entry_kind, entry_id, change_json, recorded_by, recorded_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                UUIDText.lowercase(correction.id), practiceID.description, correction.patientID.description,
                correction.entryKind.rawValue, UUIDText.lowercase(correction.entryID),
                String(decoding: try correction.storedJSON(), as: UTF8.self), correction.recordedBy,
                Timestamp.milliseconds(correction.recordedAt),
            ])
    }

    /// A patient's corrections, in the order they were made.
    static func corrections(db: Database, practiceID: PracticeID, patientID: Identifier<Patient>) throws
        -> [RecordCorrection]
    {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT change_json FROM record_correction WHERE practice_id = ? AND patient_id = ? ORDER BY recorded_at_ms, rowid
                    """), arguments: [practiceID.description, patientID.description]
        ).map { text in
            do { return try RecordCorrection(storedJSON: Data(text.utf8)) } catch {
                throw StoreCorruption(column: "record_correction.change_json", reason: "not a record correction")
            }
        }
    }

    /// The practice's corrections of vaccinations, for the practice-wide due list.
    static func vaccinationCorrections(db: Database, practiceID: PracticeID) throws -> [RecordCorrection] {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT change_json FROM record_correction WHERE practice_id = ? AND entry_kind = 'vaccination' ORDER BY recorded_at_ms, rowid
                    """), arguments: [practiceID.description]
        ).map { text in
            do { return try RecordCorrection(storedJSON: Data(text.utf8)) } catch {
                throw StoreCorruption(column: "record_correction.change_json", reason: "not a record correction")
            }
        }
    }
}
