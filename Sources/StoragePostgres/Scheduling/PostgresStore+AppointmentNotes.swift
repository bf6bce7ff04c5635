import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore: AppointmentNoteRepository {
    public func addAppointmentNote(_ note: AppointmentNote, scope: AccessScope, idempotencyKey: IdempotencyKey?)
        async throws -> AppointmentNote
    {
        let practiceID = scope.practiceID
        return try await retryingTransientFailures {
            try await transaction(.practice(practiceID)) { connection in
                let (id, _) = try await self.idempotent(
                    connection: connection, scope: scope, key: idempotencyKey, operation: .appointmentNoteAdd,
                    resourceID: UUIDText.lowercase(note.id)
                ) {
                    let appointment = try await self.appointment(
                        practiceID: practiceID, id: note.appointmentID.rawValue, connection: connection
                    ).orNotFound("appointment").value
                    try await connection.insert(
                        AppointmentRows.insert(
                            note, patientID: appointment.patientID, practiceID: practiceID, cipher: self.cipher),
                        logger: self.logger)
                    try await self.appendAudit(
                        AuditRecord.appointmentNoteAdded(note), scope: scope, connection: connection)
                    _ = try await self.appendEvent(
                        note.addedEvent(practiceID: practiceID), scope: scope, connection: connection)
                }
                guard let noteID = UUID(uuidString: id),
                    let stored = try await self.appointmentNotes(
                        practiceID: practiceID, where: noteID, connection: connection
                    ).first
                else { throw DomainError.notFound(resource: "appointment note") }
                return stored
            }
        }
    }

    public func appointmentNotes(scope: AccessScope, appointmentID: Identifier<Appointment>) async throws
        -> [AppointmentNote]
    {
        try await transaction(.practice(scope.practiceID)) { connection in
            guard
                try await self.appointment(
                    practiceID: scope.practiceID, id: appointmentID.rawValue, connection: connection) != nil
            else {
                throw DomainError.notFound(resource: "appointment")
            }
            let notes = try await self.appointmentNotes(
                practiceID: scope.practiceID, appointment: appointmentID.rawValue, connection: connection)
            try await self.appendAudit(
                .appointmentNotesRead(appointmentID, count: notes.count), scope: scope, connection: connection)
            return notes
        }
    }

    public func appointmentNoteCounts(scope: AccessScope, appointmentIDs: [Identifier<Appointment>]) async throws
        -> [Identifier<Appointment>: Int]
    {
        guard !appointmentIDs.isEmpty else { return [:] }
        return try await transaction(.practice(scope.practiceID)) { connection in
            var counts: [Identifier<Appointment>: Int] = [:]
            for try await (id, notes) in try await connection.query(
                """
                SELECT appointment_id, count(*)::int FROM appointment_note
                WHERE practice_id = \(scope.practiceID.rawValue)
                    AND appointment_id = ANY(\(appointmentIDs.map(\.rawValue))::uuid[])
                GROUP BY appointment_id
                """, logger: self.logger
            ).decode((UUID, Int).self) {
                counts[Identifier(id)] = notes
            }
            return counts
        }
    }

    /// Notes of one appointment, the one note `noteID`, or (with neither) every note of the
    /// practice, oldest first, their text opened.
    func appointmentNotes(
        practiceID: PracticeID, appointment: UUID? = nil, where noteID: UUID? = nil,
        connection: PostgresConnection
    ) async throws -> [AppointmentNote] {
        let notes: [AppointmentNote] = try await connection.rows(
            """
            SELECT id, appointment_id, author_id, author_name, created_at_ms, sealed_text FROM appointment_note
            WHERE practice_id = \(practiceID.rawValue) AND (\(appointment)::uuid IS NULL
                OR appointment_id = \(appointment))
              AND (\(noteID)::uuid IS NULL OR id = \(noteID))
            ORDER BY created_at_ms, id
            """, logger: logger
        ) { try AppointmentRows.note(from: $0, practiceID: practiceID, cipher: cipher) }
        return notes
    }
}
