import Foundation
import GRDB
import PatientRecords
import SharedKernel

extension VetNetStore {
    /// Creates a patient in the scope's practice, assigning the next medical record number
    /// in the same transaction (validated, audited). The owners must belong to the practice.
    public func createPatient(_ patient: Patient, scope: AccessScope) async throws -> Patient {
        try patient.validate(now: clock.now())
        let encoder = JSONEncoder()
        let alerts = String(decoding: try encoder.encode(patient.alerts), as: UTF8.self)
        let now = Timestamp.string(clock.now())
        return try await writer.write { db in
            for (field, owner) in [("ownerId", Optional(patient.ownerID)), ("coOwnerId", patient.coOwnerID)] {
                guard let owner else { continue }
                let exists = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM owner WHERE id = ? AND practice_id = ?",
                                              arguments: [owner.description, scope.practiceID.description]) ?? 0
                if exists == 0 { throw ValidationError(field: field, message: "is not an owner of this practice") }
            }
            var created = patient
            created.medicalRecordNumber = try Self.nextMedicalRecordNumber(db: db, practiceID: scope.practiceID)
            try db.execute(
                sql: """
                    INSERT INTO patient (id, practice_id, mrn, name, species, breed, sex, birth_date, birth_date_estimated, colour,
                                         microchip, status, alerts, owner_id, co_owner_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [created.id.description, scope.practiceID.description, created.medicalRecordNumber, created.name,
                            created.species.rawValue, created.breed, created.sex.rawValue, created.birthDate.map(Self.dayString),
                            created.birthDateEstimated, created.colour, created.microchip, created.status.rawValue, alerts,
                            created.ownerID.description, created.coOwnerID?.description, now, now])
            try self.appendAudit(AuditRecord(action: "patient.create", resourceType: "patient", resourceID: created.id.description),
                                 scope: scope, db: db)
            return created
        }
    }

    /// Number of patients in the scope's practice.
    public func patientCount(scope: AccessScope) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM patient WHERE practice_id = ?", arguments: [scope.practiceID.description]) ?? 0
        }
    }

    /// `P-000001`, `P-000002`, … per practice; gap-free because it advances inside the creating transaction.
    static func nextMedicalRecordNumber(db: Database, practiceID: PracticeID) throws -> String {
        try db.execute(sql: """
            INSERT INTO practice_counter (practice_id, name, value) VALUES (?, 'mrn', 1)
            ON CONFLICT (practice_id, name) DO UPDATE SET value = value + 1
            """, arguments: [practiceID.description])
        let value = try Int.fetchOne(db, sql: "SELECT value FROM practice_counter WHERE practice_id = ? AND name = 'mrn'",
                                     arguments: [practiceID.description]) ?? 1
        return String(format: "P-%06d", value)
    }

    /// A calendar date as `yyyy-MM-dd` in UTC (dates of birth carry no time of day).
    static func dayString(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
