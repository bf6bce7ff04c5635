import Foundation
import GRDB
import Scheduling
import SharedKernel
import StoragePorts

extension VetNetStore: AppointmentNoteRepository {
    public func addAppointmentNote(_ note: AppointmentNote, scope: AccessScope, idempotencyKey: IdempotencyKey?)
        async throws -> AppointmentNote
    {
        try await write { db in
            let (id, _) = try self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: .appointmentNoteAdd)
            {
                let appointment = try Self.appointment(
                    db: db, practiceID: scope.practiceID, id: note.appointmentID.description
                ).orNotFound("appointment").value
                try db.insert(
                    AppointmentRows.insert(
                        note, patientID: appointment.patientID, practiceID: scope.practiceID, cipher: self.cipher))
                try self.appendAudit(
                    AuditRecord.appointmentNoteAdded(note), scope: scope, db: db)
                _ = try self.appendEvent(note.addedEvent(practiceID: scope.practiceID), scope: scope, db: db)
                return UUIDText.lowercase(note.id)
            }
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM appointment_note WHERE id = ? AND practice_id = ?",
                arguments: [id, scope.practiceID.description]
            ).orNotFound("appointment note")
            return try self.appointmentNote(from: row, practiceID: scope.practiceID)
        }
    }

    public func appointmentNotes(scope: AccessScope, appointmentID: Identifier<Appointment>) async throws
        -> [AppointmentNote]
    {
        try await write { db in
            guard try Self.appointment(db: db, practiceID: scope.practiceID, id: appointmentID.description) != nil
            else {
                throw DomainError.notFound(resource: "appointment")
            }
            let notes = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM appointment_note WHERE practice_id = ? AND appointment_id = ? ORDER BY created_at_ms,
                        id
                    """, arguments: [scope.practiceID.description, appointmentID.description]
            ).map { try self.appointmentNote(from: $0, practiceID: scope.practiceID) }
            try self.appendAudit(
                .appointmentNotesRead(appointmentID, count: notes.count), scope: scope, db: db)
            return notes
        }
    }

    public func appointmentNoteCounts(scope: AccessScope, appointmentIDs: [Identifier<Appointment>]) async throws
        -> [Identifier<Appointment>: Int]
    {
        guard !appointmentIDs.isEmpty else { return [:] }
        return try await writer.read { db in
            var counts: [Identifier<Appointment>: Int] = [:]
            // In chunks, below SQLite's limit on bound values.
            for chunk in stride(from: 0, to: appointmentIDs.count, by: 500).map({
                Array(appointmentIDs[$0..<min($0 + 500, appointmentIDs.count)])
            }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try Row.fetchAll(
                    db,
                    sql:
                        """
                        SELECT appointment_id, COUNT(*) AS notes FROM appointment_note WHERE practice_id = ? AND \
                        appointment_id IN (\(marks)) GROUP BY appointment_id
                        """,
                    arguments: StatementArguments([scope.practiceID.description] + chunk.map(\.description)))
                for row in rows {
                    if let id = Identifier<Appointment>(uuidString: try row.read("appointment_id")) {
                        counts[id] = try row.read("notes")
                    }
                }
            }
            return counts
        }
    }

    /// Every note of the practice by appointment, oldest first (the export).
    func appointmentNotesByAppointment(practiceID: PracticeID, db: Database) throws -> [Identifier<Appointment>:
        [AppointmentNote]]
    {
        let notes = try Row.fetchAll(
            db, sql: "SELECT * FROM appointment_note WHERE practice_id = ? ORDER BY created_at_ms, id",
            arguments: [practiceID.description]
        ).map { try self.appointmentNote(from: $0, practiceID: practiceID) }
        return Dictionary(grouping: notes, by: \.appointmentID)
    }

    /// The note in the row, its text opened; a row that does not open fails the request.
    func appointmentNote(from row: Row, practiceID: PracticeID) throws -> AppointmentNote {
        try AppointmentRows.note(from: row, practiceID: practiceID, cipher: cipher)
    }
}
