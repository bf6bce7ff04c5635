import Foundation
import PatientRecords
import PostgresNIO
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSupport

/// Moving a practice in and out of the shared database: the same ``PracticeExport`` document
/// the embedded store writes and reads, so a practice moves between the two stores (and
/// back) with its records, schedule, documents and audit trail.
extension PostgresStore: PracticeTransfer {
    // MARK: - Export

    /// The scope's whole practice, read in one repeatable-read snapshot, notes opened, with its
    /// audit trail (and, with `documentContent`, the documents' content); audited as
    /// `practice.export` once the snapshot is read.
    public func exportPractice(scope: AccessScope, documentContent: Bool) async throws -> PracticeExport {
        let exportedAt = clock.now()
        let export = try await snapshot(scope.practiceID) { connection in
            try await self.practiceExport(
                practiceID: scope.practiceID, exportedAt: exportedAt, documentContent: documentContent,
                connection: connection)
        }
        try await recordAudit(.exported(export, documentContent: documentContent), scope: scope)
        return export
    }

    private func practiceExport(
        practiceID: PracticeID, exportedAt: Date, documentContent: Bool,
        connection: PostgresConnection
    ) async throws -> PracticeExport {
        let practice = try await practiceProfile(practiceID, connection: connection)
        let id = practiceID.rawValue
        let staff: [StaffAccount] = try await connection.rows(
            """
            SELECT id, practice_id, email, display_name, role, disabled, created_at, version,
                password_hash FROM staff_user
            WHERE practice_id = \(id) ORDER BY display_name, id
            """, logger: logger
        ) { try Self.account(from: $0).0 }
        let owners: [Owner] = try await connection.rows(
            """
            SELECT id, first_name, last_name, email, phones::text, address::text, communication::text, notes, version
            FROM owner WHERE practice_id = \(id) ORDER BY last_name, first_name, id
            """, logger: logger
        ) { try self.owner(from: $0, practiceID: practiceID).value }

        let stamps = try await entryStamps(practiceID: practiceID, connection: connection)
        let visits = Dictionary(
            grouping: try await connection.rows(
                """
                SELECT \(unescaped: Self.visitColumns) FROM visit WHERE practice_id = \(id) ORDER BY occurred_at_ms, id
                """, logger: logger
            ) { try RecordRows.visit(from: $0, seal: fieldSeal(practiceID)).visit }, by: \.patientID.rawValue)
        let patients: [(Patient, Date?)] = try await connection.rows(
            """
            SELECT \(unescaped: Self.patientColumns),
                p.archived_at FROM patient p WHERE p.practice_id = \(id) ORDER BY length(p.mrn), p.mrn
            """, logger: logger
        ) { (try PatientRows.patient(from: $0).value, try $0[15].decode(Date?.self)) }
        var exported: [ExportedPatient] = []
        for (patient, archivedAt) in patients {
            let record = try await record(of: patient, practiceID: practiceID, connection: connection)
            exported.append(
                ExportedPatient(
                    record: record, archivedAt: archivedAt.map(PracticeExport.instant),
                    entered: stamps[patient.id.rawValue] ?? [:], visits: visits[patient.id.rawValue],
                    corrections: try await corrections(
                        practiceID: practiceID, condition: "patient_id = $2",
                        binding: patient.id.rawValue, connection: connection)))
        }

        var assessments: [ExportedAssessment] = try await connection.rows(
            """
            SELECT \(unescaped: AssessmentRows.exportedColumns)
            FROM triage_assessment WHERE practice_id = \(id) ORDER BY assessed_at_ms, id
            """, logger: logger
        ) { try AssessmentRows.exported(from: $0, seal: fieldSeal(practiceID)) }
        let overrides = Dictionary(
            grouping: try await self.overrides(where: "practice_id = $1", bindings: [id], connection: connection),
            by: { $0.assessmentID.description })
        for index in assessments.indices { assessments[index].overrides = overrides[assessments[index].id] }
        let arrivals: [ExportedTriageArrival] = try await connection.rows(
            """
            SELECT \(unescaped: AssessmentRows.arrivalColumns) FROM triage_arrival WHERE practice_id = \(id)
            ORDER BY arrival_at_ms, patient_id
            """, logger: logger
        ) { try AssessmentRows.exportedArrival(from: $0) }
        var documents: [ExportedDocument] = []
        for try await row in try await connection.query(
            """
            SELECT \(unescaped: Self.documentColumns) FROM document WHERE practice_id = \(id) ORDER BY created_at_ms, id
            """, logger: logger)
        {
            let info = try RecordRows.document(from: row.makeRandomAccess())
            var document = ExportedDocument(info)
            if documentContent {
                document.content = try await sealedContent(of: info, practiceID: practiceID, connection: connection)
                    .base64EncodedString()
            }
            documents.append(document)
        }
        let audit: [AuditEntry] = try await connection.rows(
            """
            SELECT seq, id, occurred_at, practice_id, actor_id, action, resource_type, resource_id, outcome, request_id,
                detail, prev_hash, hash
            FROM audit_entry WHERE practice_id = \(practiceID.description) ORDER BY ordinal
            """, logger: logger
        ) { try AuditRows.entry(from: $0) }
        return PracticeExport(
            exportedAt: exportedAt, practice: practice, staff: staff, owners: owners, patients: exported,
            triageAssessments: assessments, triageArrivals: arrivals, documents: documents,
            schedule: try await schedule(practiceID: practiceID, connection: connection), audit: audit)
    }

    /// Clinicians (active or not), availability, rooms, appointment types and every appointment.
    private func schedule(practiceID: PracticeID, connection: PostgresConnection) async throws -> ExportedSchedule {
        let id = practiceID.rawValue
        var clinicians: [ExportedClinician] = []
        for try await (definition, active) in try await connection.query(
            """
            SELECT definition::text, active FROM clinician WHERE practice_id = \(id) ORDER BY display_name, id
            """, logger: logger
        ).decode((String, Bool).self) {
            clinicians.append(
                ExportedClinician(
                    clinician: try Self.decode(Clinician.self, definition, column: "clinician.definition"),
                    active: active))
        }
        let availabilities = ExportedAvailability.ordered(
            try await self.availabilities(practiceID: practiceID, clinicianID: nil, connection: connection).values)
        let notes = Dictionary(
            grouping: try await appointmentNotes(practiceID: practiceID, connection: connection), by: \.appointmentID)
        let appointments: [ExportedAppointment] = try await connection.rows(
            """
            SELECT \(unescaped: AppointmentRows.selectList()), reason, created_at, staff_notes, match_basis::text,
                cancelled_at_ms
            FROM appointment WHERE practice_id = \(id) ORDER BY start_ms, id
            """, logger: logger
        ) { columns in
            let stored = try AppointmentRows.appointment(from: columns)
            let basis = try columns[20].decode(String?.self).map {
                try Self.decode(BookingBasis.self, $0, column: "appointment.match_basis")
            }
            return ExportedAppointment(
                appointment: stored.value, reason: try columns[17].decode(String?.self),
                bookedAt: PracticeExport.instant(try columns[18].decode(Date.self)), version: stored.version,
                staffNotes: try columns[19].decode(String?.self), intake: basis,
                cancelledAt: try columns[21].decode(Int64?.self).map { PracticeExport.instant(milliseconds: $0) },
                notes: notes[stored.value.id])
        }
        return ExportedSchedule(
            clinicians: clinicians, availabilities: availabilities,
            rooms: try await rooms(practiceID: practiceID, connection: connection),
            appointmentTypes: try await appointmentTypes(practiceID: practiceID, onlyID: nil, connection: connection),
            appointments: appointments)
    }

    /// When and by whom each weight, problem, allergy, medication and vaccination was entered.
    private func entryStamps(practiceID: PracticeID, connection: PostgresConnection) async throws -> [UUID: [String:
        EntryStamp]]
    {
        let id = practiceID.rawValue
        var stamps: [UUID: [String: EntryStamp]] = [:]
        for try await (patientID, entryID, at, by) in try await connection.query(
            """
            SELECT patient_id, id, created_at_ms, recorded_by FROM weight WHERE practice_id = \(id)
            UNION ALL SELECT patient_id, id, created_at_ms, NULL FROM problem WHERE practice_id = \(id)
            UNION ALL SELECT patient_id, id, created_at_ms, NULL FROM allergy WHERE practice_id = \(id)
            UNION ALL SELECT patient_id, id, created_at_ms, prescribed_by FROM medication WHERE practice_id = \(id)
            UNION ALL SELECT patient_id, id, created_at_ms, NULL FROM vaccination WHERE practice_id = \(id)
            """, logger: logger
        ).decode((UUID, UUID, Int64, String?).self) {
            stamps[patientID, default: [:]][UUIDText.lowercase(entryID)] = EntryStamp(
                at: Timestamp.date(milliseconds: at), by: by)
        }
        return stamps
    }

    /// A document's content reassembled from its rows, opened and checked against its SHA-256.
    private func sealedContent(of info: DocumentInfo, practiceID: PracticeID, connection: PostgresConnection)
        async throws -> Data
    {
        var sealed = Data()
        for try await bytes in try await connection.query(
            """
            SELECT bytes FROM document_chunk WHERE document_id = \(info.id) AND practice_id = \(practiceID.rawValue)
                ORDER BY seq
            """, logger: logger
        ).decode(Data.self) { sealed.append(bytes) }
        return try DocumentUpload.content(of: sealed, sha256: info.sha256, cipher: cipher)
    }

    // MARK: - Restore

    /// Restores `export` in one transaction beside the practices already here: the practice
    /// (its id and name must be new to the database), staff with unusable password hashes,
    /// owners, patients with their ids and record numbers, every record entry (notes sealed
    /// again with this installation's key), visits, triage, the schedule (through the same
    /// exclusion constraints as bookings), documents whose content the export carries, and the
    /// audit trail, carried first into this chain.
    public func restorePractice(_ export: PracticeExport, requestID: String?, progress: ImportProgressHandler?)
        async throws -> RestoreSummary
    {
        let now = clock.now()
        try export.validate(now: now)
        let carriedAudit = try export.checkedAudit()
        var carried: [(ExportedDocument, Data)] = []
        for (index, document) in export.documents.enumerated() {
            if let content = try document.checkedContent(index: index) { carried.append((document, content)) }
        }
        let documents = carried
        let practiceID = export.practice.id
        let scope = AccessScope.system(practiceID, requestID: requestID)
        do {
            return try await transaction(.practice(practiceID)) { connection in
                try await self.restore(
                    export, documents: documents, audit: carriedAudit, scope: scope, now: now, progress: progress,
                    connection: connection)
            }
        } catch let refusal as OverlapRefusal {
            throw RestoreError.overlappingAppointment(id: refusal.appointment.id.description)
        } catch let error as PSQLError where error.sqlState == "23505" {
            // The practice's id or name is already in the database: a restore never merges.
            throw RestoreError.storeNotEmpty
        }
    }

    private func restore(
        _ export: PracticeExport, documents: [(ExportedDocument, Data)], audit: [AuditEntry], scope: AccessScope,
        now: Date,
        progress: ImportProgressHandler?, connection: PostgresConnection
    ) async throws -> RestoreSummary {
        let practice = export.practice
        let id = practice.id.rawValue
        try await connection.query(
            """
            INSERT INTO practice (id, name, time_zone, profile, created_at)
            VALUES (\(id), \(practice.name), \(practice.timeZone), \(try Self.json(practice))::jsonb, \(now))
            """, logger: logger)
        // The practice's history comes first in the chain, as it happened; the restore's own entries follow.
        for entry in audit { try await appendCarriedAudit(entry, connection: connection) }
        for account in export.staff {
            try await connection.insert(
                AccountRows.insert(
                    account.restored(in: practice.id), passwordHash: StoredCredentials.unusablePasswordHash()),
                logger: logger)
            try await appendAudit(.restoredAccount(account), scope: scope, connection: connection)
        }
        for owner in export.owners { try await insertOwner(owner, scope: scope, now: now, connection: connection) }
        let highest = export.highestRecordNumber
        if highest > 0 {
            try await connection.query(
                """
                INSERT INTO practice_counter (practice_id, name, value) VALUES (\(id), 'mrn', \(highest))
                ON CONFLICT (practice_id, name) DO UPDATE SET value = GREATEST(practice_counter.value, excluded.value)
                """, logger: logger)
        }
        var entries = 0
        for (index, item) in export.patients.enumerated() {
            try await insertPatient(
                item.patient, recordNumber: item.patient.medicalRecordNumber, archivedAt: item.archivedAt, scope: scope,
                now: now, connection: connection)
            entries += try await insertRecordEntries(
                of: item, practiceID: practice.id, now: now, connection: connection)
            if let progress, (index + 1) % 500 == 0 || index + 1 == export.patients.count {
                progress(index + 1, export.patients.count)
            }
        }
        let seal = fieldSeal(practice.id)
        // Every assessment before the overrides that name them, many rows to a statement.
        var overrides: [StoredInsert] = []
        for assessment in export.triageAssessments {
            let (assessmentID, patientID) = try assessment.checkedIDs()
            overrides += try (assessment.overrides ?? []).filter { $0.assessmentID.rawValue == assessmentID }.map {
                try AssessmentRows.insert($0, patientID: patientID, seal: seal)
            }
        }
        try await connection.insert(
            try export.triageAssessments.map { try AssessmentRows.insert($0, practiceID: practice.id, seal: seal) }
                + overrides
                + (export.triageArrivals ?? []).map { try AssessmentRows.insert($0, practiceID: practice.id) },
            logger: logger)
        if let schedule = export.schedule {
            try await restoreSchedule(schedule, practiceID: practice.id, now: now, connection: connection)
        }
        // Visits refer to appointments and clinicians, so they come after the schedule.
        var visitsAndCorrections: [StoredInsert] = []
        for item in export.patients {
            visitsAndCorrections += try (item.visits ?? []).filter { $0.patientID == item.patient.id }.map {
                try RecordRows.insert(
                    $0, seal: seal, recordedBy: $0.recordedBy?.id.description, createdAt: $0.occurredAt)
            }
            visitsAndCorrections += try (item.corrections ?? []).filter { $0.patientID == item.patient.id }.map {
                try RecordRows.insert($0, seal: seal)
            }
        }
        try await connection.insert(visitsAndCorrections, logger: logger)
        for (document, content) in documents {
            try await insertRestoredDocument(
                document, content: content, practiceID: practice.id, connection: connection)
        }
        let summary = RestoreSummary(
            restoring: export, recordEntries: entries, documents: documents.count, auditEntries: audit.count)
        try await appendAudit(summary.auditRecord, scope: scope, connection: connection)
        return summary
    }

    /// A restored patient's entries as stored originally (no re-validation against today: a
    /// dose or weight valid when entered stays part of the history). Returns how many.
    private func insertRecordEntries(
        of item: ExportedPatient, practiceID: PracticeID, now: Date, connection: PostgresConnection
    ) async throws -> Int {
        let entries = item.restoredEntries(fallback: now)
        try await connection.insert(
            try entries.map {
                try RecordRows.insert(
                    $0.0, patientID: item.patient.id, practiceID: practiceID, stamp: $0.1, cipher: cipher)
            }, logger: logger)
        return entries.count
    }

    /// The schedule's rows; appointments meet the same exclusion constraints as bookings, so
    /// a hand-made file cannot double-book anyone.
    private func restoreSchedule(
        _ schedule: ExportedSchedule, practiceID: PracticeID, now: Date, connection: PostgresConnection
    ) async throws {
        let id = practiceID.rawValue
        for item in schedule.clinicians {
            try await connection.query(
                """
                INSERT INTO clinician (id, practice_id, display_name, definition, active, created_at)
                VALUES (\(item.clinician.id.rawValue), \(id), \(item.clinician.displayName),
                    \(try Self.json(item.clinician))::jsonb, \(item.active), \(now))
                """, logger: logger)
        }
        try await connection.insert(
            try schedule.availabilities.map {
                try AppointmentRows.insert($0.availability, version: $0.version, practiceID: practiceID)
            } + schedule.rooms.map { AppointmentRows.insert($0, practiceID: practiceID) }
                + schedule.appointmentTypes.map { try AppointmentRows.insert($0, practiceID: practiceID) },
            logger: logger)
        var notes: [StoredInsert] = []
        for item in schedule.appointments {
            let appointment = item.appointment
            do {
                try await connection.query(
                    """
                    INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, room_type,
                        room_id, start_ms, end_ms,
                                             occupied_end_ms, status, holds_time, reason, staff_notes, created_at,
                                                 version, checked_in_at_ms,
                                             started_at_ms, completed_at_ms, actual_minutes, cancellation_reason,
                                                 cancelled_at_ms,
                                             assessment_id, triage_level, match_basis)
                    VALUES (\(appointment.id.rawValue), \(id), \(appointment.patientID), \(appointment.clinicianID),
                        \(appointment.appointmentTypeID.rawValue),
                            \(appointment.roomType?.rawValue), \(appointment.roomID?.rawValue),
                                \(Timestamp.milliseconds(appointment.time.start)),
                            \(Timestamp.milliseconds(appointment.time.end)),
                                \(Timestamp.milliseconds(appointment.occupiedTime.end)),
                            \(appointment.status.rawValue), \(appointment.status.holdsTime), \(item.reason),
                                \(item.staffNotes), \(item.bookedAt),
                            \(Int32(item.version)), \(appointment.checkedInAt.map(Timestamp.milliseconds)),
                                \(appointment.startedAt.map(Timestamp.milliseconds)),
                            \(appointment.completedAt.map(Timestamp.milliseconds)), \(appointment.actualMinutes),
                                \(appointment.cancellationReason),
                            \(item.cancelledAt.map(Timestamp.milliseconds)), \(item.intake?.assessmentID),
                                \(item.intake?.triageLevel),
                            \(try item.intake.map { try Self.json($0) })::jsonb)
                    """, logger: logger)
            } catch let error as PSQLError where error.sqlState == "23P01" {
                throw OverlapRefusal(appointment: appointment, constraint: error.serverInfo?[.constraintName] ?? "")
            }
            notes += try (item.notes ?? []).map {
                try AppointmentRows.insert($0, patientID: appointment.patientID, practiceID: practiceID, cipher: cipher)
            }
        }
        // After every appointment they belong to.
        try await connection.insert(notes, logger: logger)
    }

    /// A carried document: sealed as an upload would be and stored in rows with its record.
    private func insertRestoredDocument(
        _ document: ExportedDocument, content: Data, practiceID: PracticeID,
        connection: PostgresConnection
    ) async throws {
        let documentID = try document.checkedIDs().id
        let upload = try DocumentUpload(directory: uploadDirectory, keyBytes: cipher.keyBytes, limit: maxDocumentBytes)
        try upload.append(content)
        _ = try upload.finish()
        let sealed = try Data(contentsOf: upload.temporaryURL)
        try await connection.insert(
            RecordRows.insert(try document.restoredInfo(), practiceID: practiceID, uploadedBy: nil), logger: logger)
        var index: Int32 = 0
        var offset = 0
        while offset < sealed.count {
            let end = min(offset + Self.documentChunkBytes, sealed.count)
            try await connection.query(
                """
                INSERT INTO document_chunk (document_id, practice_id, seq, bytes) VALUES (\(documentID),
                    \(practiceID.rawValue), \(index), \(sealed[offset..<end]))
                """, logger: logger)
            index += 1
            offset = end
        }
    }
}
