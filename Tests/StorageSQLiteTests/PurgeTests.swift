import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSQLite
import Testing

@Suite("Retention purge")
struct PurgeTests {
    @Test(
        """
        only patients archived longer than the retention period are purged, with their notes, and each purge is audited
        """
    )
    func purge() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let old = try await fixture.store.createPatient(
            Patient(name: "Old", species: .dog, ownerID: owner.id), scope: scope)
        let recent = try await fixture.store.createPatient(
            Patient(name: "Recent", species: .dog, ownerID: owner.id), scope: scope)
        let active = try await fixture.store.createPatient(
            Patient(name: "Active", species: .dog, ownerID: owner.id), scope: scope)
        try await fixture.store.addRecordEntry(
            .note(
                ClinicalNote(
                    patientID: old.id, author: NoteAuthor(id: fixture.adminA.id, displayName: "A"),
                    createdAt: fixture.clock.clock.now(), subjective: "s", objective: "o",
                    assessment: "a", plan: "p")), patientID: old.id, scope: scope)
        var archived = old
        archived.status = .archived
        _ = try await fixture.store.updatePatient(archived, scope: scope, expectedVersion: nil)
        fixture.clock.advance(8 * 365 * 86_400)
        var archivedRecently = recent
        archivedRecently.status = .archived
        _ = try await fixture.store.updatePatient(archivedRecently, scope: scope, expectedVersion: nil)

        let purged = try await fixture.store.purgeArchivedPatients(scope: scope, retentionYears: 7)
        #expect(purged.patients == 1)
        await #expect(throws: DomainError.notFound(resource: "patient")) {
            _ = try await fixture.store.patient(scope: scope, id: old.id)
        }
        _ = try await fixture.store.patient(scope: scope, id: recent.id)
        _ = try await fixture.store.patient(scope: scope, id: active.id)
        let audit = try await fixture.store.auditEntries(scope: scope, limit: 200, before: nil).items
        #expect(audit.filter { $0.action == "patient.purge" }.map(\.resourceID) == [old.id.description])
        #expect(try await fixture.store.verifyAuditChain().isIntact)
    }

    /// Rows left in every table that refers to a patient, by table.
    static func rowsReferring(to patientID: Identifier<Patient>, in store: VetNetStore) async throws -> [String: Int] {
        try await store.writer.read { db in
            var counts: [String: Int] = [:]
            for table in [
                "patient", "note_addendum", "clinical_note", "weight", "problem", "allergy", "medication",
                "vaccination", "document",
                "triage_queue_entry", "triage_arrival", "triage_assessment", "appointment", "visit", "intake_ranking",
            ] {
                let column = table == "patient" ? "id" : "patient_id"
                counts[table] = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(column) = ?", arguments: [patientID.description])
            }
            counts["patient_search"] = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM patient_search WHERE patient_id = ?", arguments: [patientID.description])
            return counts
        }
    }

    /// A patient with a completed appointment, an open appointment far in the future, a triage
    /// assessment on the ER board, a clinical note, and an idempotency key for their creation.
    static func patientWithHistory(
        _ name: String, owner: Owner, fixture: TwoPractices, clinician: Clinician, type: AppointmentType,
        hoursFromNow: Double
    ) async throws -> Patient {
        let store = fixture.store
        let scope = fixture.scope(fixture.adminA)
        let patient = try await store.createPatient(
            Patient(name: name, species: .dog, ownerID: owner.id), scope: scope,
            idempotencyKey: IdempotencyKey(key: "create-\(name)", fingerprint: "f")
        ).0.value
        let now = fixture.clock.clock.now()
        func book(at start: Date) async throws -> Appointment {
            let appointment = try Appointment.book(
                practiceID: fixture.a.id, patientID: patient.id.rawValue, clinicianID: clinician.id.rawValue,
                type: type, start: start, now: start.addingTimeInterval(-3600)
            ).current
            return try await store.bookAppointment(
                scope: scope, patientID: patient.id.rawValue, clinicianID: clinician.id.rawValue,
                appointmentTypeID: type.id, reason: nil,
                idempotencyKey: IdempotencyKey(key: "book-\(appointment.id)", fingerprint: "f"),
                reads: { _, _ in BookingReads(clinicianPeriod: appointment.time, roomWindow: appointment.occupiedTime)
                },
                decide: { _ in appointment }
            ).0.value
        }
        var done = try await book(at: now.addingTimeInterval(hoursFromNow * 3600))
        for (command, minutes) in [(AppointmentCommand.checkIn, -5.0), (.start, 1), (.complete(actualMinutes: 14), 15)]
        {
            done = try await store.saveAppointment(
                try done.decide(command, at: done.time.start.addingTimeInterval(minutes * 60)),
                scope: scope, expectedVersion: nil
            ).value
        }
        // Open, and still in the future after the eight years the tests wait.
        let open = try await book(at: now.addingTimeInterval(9 * 365 * 86_400 + hoursFromNow * 3600))
        _ = try await store.addVisit(
            Visit(
                patientID: patient.id, appointmentID: done.id.rawValue, occurredAt: done.time.start,
                chiefComplaint: "Cough", diagnoses: [Diagnosis(name: "Examined")], followUpRequired: true,
                followUpDate: RecordCalendar.date(
                    fromISODay: RecordCalendar.isoDay(done.time.start.addingTimeInterval(14 * 86_400)))),
            scope: scope)
        try await store.writer.write { db in
            let assessment = UUID().uuidString.lowercased()
            try db.execute(
                sql: """
                    INSERT INTO triage_assessment (id, practice_id, patient_id, assessor_id, arrival_at_ms, \
                    assessed_at_ms, level, rules_version, case_json, result_json)
                    VALUES (?, ?, ?, NULL, 1795000000001, 1795000060002, 3, 'rules-1', '{"species":"dog"}', \
                    '{"level":3}')
                    """, arguments: [assessment, fixture.a.id.description, patient.id.description])
            try db.execute(
                sql: """
                    INSERT INTO triage_queue_entry (practice_id, patient_id, assessment_id, level, arrival_at_ms, \
                    assessed_at_ms, status, status_changed_at_ms)
                    VALUES (?, ?, ?, 3, 1795000000001, 1795000060002, 'done', 1795000060002)
                    """, arguments: [fixture.a.id.description, patient.id.description, assessment])
            // The open appointment was booked from an intake that ranked the clinician.
            try db.execute(
                sql:
                    """
                    INSERT INTO intake_ranking (id, practice_id, patient_id, ranking, created_at) VALUES (?, ?, ?, \
                    '[]', 'now')
                    """,
                arguments: [assessment, fixture.a.id.description, patient.id.description])
            try db.execute(
                sql: "UPDATE appointment SET assessment_id = ?, triage_level = 3 WHERE id = ?",
                arguments: [assessment, open.id.description])
            try db.execute(
                sql: """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level, first_seen_at_ms)
                    VALUES (?, ?, 1795000000001, 3, 1795000030002)
                    """, arguments: [fixture.a.id.description, patient.id.description])
        }
        try await store.addRecordEntry(
            .note(
                ClinicalNote(
                    patientID: patient.id, author: NoteAuthor(id: fixture.adminA.id, displayName: "A"),
                    createdAt: now, subjective: "s", objective: "o", assessment: "a", plan: "p")),
            patientID: patient.id, scope: scope)
        return patient
    }

    @Test(
        """
        an archived patient with appointments and a triage assessment is purged whole; other patients and the audit \
        chain are untouched
        """
    )
    func purgeWithAppointmentsAndAssessments() async throws {
        let fixture = try await TwoPractices.make()
        let store = fixture.store
        let scope = fixture.scope(fixture.adminA)
        let clinician = try await store.createClinician(
            Clinician(
                displayName: "Dr Vera Vet", credentials: "BVSc", expertise: [],
                species: [.dog], maxAppointmentsPerDay: 20, complexityCeiling: 1), scope: scope)
        let type = try await store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 15,
                fee: Money(minorUnits: 4000, currency: "GBP")), scope: scope)
        let owner = try await store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let old = try await Self.patientWithHistory(
            "Old", owner: owner, fixture: fixture, clinician: clinician, type: type, hoursFromNow: -48)
        let kept = try await Self.patientWithHistory(
            "Kept", owner: owner, fixture: fixture, clinician: clinician, type: type, hoursFromNow: -24)
        var archived = try await store.patient(scope: scope, id: old.id)
        archived.value.status = .archived
        _ = try await store.updatePatient(archived.value, scope: scope, expectedVersion: nil)
        fixture.clock.advance(8 * 365 * 86_400)
        let keptBefore = try await Self.rowsReferring(to: kept.id, in: store)

        let summary = try await store.purgeArchivedPatients(scope: scope, retentionYears: 7)

        #expect(summary.patients == 1)
        #expect(summary.appointments == 2)
        #expect(summary.futureAppointments == 1)
        #expect(summary.assessments == 1)
        #expect(try await Self.rowsReferring(to: old.id, in: store).values.allSatisfy { $0 == 0 })
        #expect(try await Self.rowsReferring(to: kept.id, in: store) == keptBefore)
        #expect(
            keptBefore["appointment"] == 2 && keptBefore["triage_assessment"] == 1 && keptBefore["clinical_note"] == 1)
        #expect(keptBefore["triage_arrival"] == 1)
        _ = try await store.patient(scope: scope, id: kept.id)
        // A replayed creation key no longer answers with the purged patient; the kept one's still does.
        let keys = try await store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT key FROM idempotency_key WHERE key LIKE 'create-%' ORDER BY key")
        }
        #expect(keys == ["create-Kept"])
        #expect(
            try await store.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM idempotency_key WHERE key LIKE 'book-%'")
            } == 2)

        let audit = try await store.auditEntries(scope: scope, limit: 500, before: nil).items
        let perPatient = audit.filter { $0.action == "patient.purge" }
        #expect(perPatient.map(\.resourceID) == [old.id.description])
        #expect(perPatient.first?.detail == "appointments=2 futureAppointments=1 assessments=1 documents=0")
        let run = audit.filter { $0.action == "records.purge" }
        #expect(run.count == 1)
        #expect(
            run.first?.detail
                == "retentionYears=7 patients=1 appointments=2 futureAppointments=1 assessments=1 documents=0")
        // The patient's earlier entries stay: the trail is never purged.
        #expect(audit.contains { $0.action == "appointment.book" && $0.detail == "patient=\(old.id)" })
        #expect(try await store.verifyAuditChain().isIntact)
    }

    @Test(
        "a retention outside 1–100 years is refused naming retentionYears, and nothing is purged",
        arguments: [0, -1, 101, Int.min, Int.max])
    func retentionBounds(_ years: Int) async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        var patient = try await fixture.store.createPatient(
            Patient(name: "Just archived", species: .dog, ownerID: owner.id), scope: scope)
        patient.status = .archived
        _ = try await fixture.store.updatePatient(patient, scope: scope, expectedVersion: nil)
        fixture.clock.advance(5)

        await #expect(throws: ValidationError(field: "retentionYears", message: "must be between 1 and 100 years")) {
            _ = try await fixture.store.purgeArchivedPatients(scope: scope, retentionYears: years)
        }
        _ = try await fixture.store.patient(scope: scope, id: patient.id)
        let audit = try await fixture.store.auditEntries(scope: scope, limit: 200, before: nil).items
        #expect(!audit.contains { $0.action == "patient.purge" || $0.action == "records.purge" })
    }
}
