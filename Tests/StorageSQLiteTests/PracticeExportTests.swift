import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSQLite
import StorageSupport
import Testing

@Suite("Practice export and restore")
struct PracticeExportTests {
    static let secretHash = "$2b$12$exportMustNeverContainThisHash"
    static let noteText = "Limping on left fore since Tuesday"

    /// Practice A with two staff, two owners, patients with a full history, a triage
    /// assessment and a document row; practice B with its own owner, patient and note.
    static func populated() async throws -> (TwoPractices, rex: Patient) {
        let fixture = try await TwoPractices.make()
        let store = fixture.store
        let scope = fixture.scope(fixture.adminA)
        // Times with milliseconds, which must survive the round trip exactly.
        fixture.clock.advance(0.002)
        let now = fixture.clock.clock.now()
        let vet = try await store.createUser(
            scope: scope, email: "vet@alpha.example", displayName: "Dr Vera Vet", role: .veterinarian,
            passwordHash: secretHash)
        let jo = try await store.createOwner(
            Owner(
                firstName: "Jo", lastName: "Bloggs", email: "jo@example.com",
                phones: [PhoneNumber(label: "mobile", number: "07700 900123")],
                address: PostalAddress(line1: "1 High St", city: "Leeds", postcode: "LS1 1AA", country: "GB"),
                notes: "prefers mornings"), scope: scope)
        let ann = try await store.createOwner(
            Owner(firstName: "Ann", lastName: "Lee", phones: [PhoneNumber(label: "home", number: "0113 496 0000")]),
            scope: scope)
        let rex = try await store.createPatient(
            Patient(
                name: "Rex", species: .dog, breed: "Collie", sex: .maleNeutered,
                birthDate: RecordCalendar.date(fromISODay: "2020-05-01"), microchip: "826012345678901",
                alerts: ["bites"], ownerID: jo.id, coOwnerID: ann.id), scope: scope)
        var old = try await store.createPatient(Patient(name: "Old Tom", species: .cat, ownerID: ann.id), scope: scope)
        old.status = .archived
        _ = try await store.updatePatient(old, scope: scope, expectedVersion: nil)

        let vetScope = fixture.scope(vet)
        let author = NoteAuthor(id: vet.id, displayName: vet.displayName)
        let day = { (text: String) in RecordCalendar.date(fromISODay: text)! }
        let note = ClinicalNote(
            patientID: rex.id, author: author, createdAt: now.addingTimeInterval(-3600), subjective: noteText,
            objective: "T 38.6", assessment: "soft tissue injury", plan: "rest, recheck in 7 days")
        for entry: RecordEntry in [
            .weight(
                WeightMeasurement(
                    patientID: rex.id, value: Decimal(string: "23.45")!, unit: .kg,
                    measuredAt: now.addingTimeInterval(-86_400))),
            .problem(Problem(patientID: rex.id, name: "Lameness", onsetDate: day("2026-11-01"))),
            .allergy(Allergy(patientID: rex.id, substance: "penicillin", reaction: "hives", severity: .moderate)),
            .medication(
                Medication(
                    patientID: rex.id, drug: "Meloxicam", concentrationMgPerML: Decimal(string: "1.5")!,
                    doseMgPerKg: Decimal(string: "0.1")!,
                    route: .oral, frequency: "once daily", startDate: day("2026-11-10"), endDate: day("2026-11-17"))),
            .vaccination(
                Vaccination(
                    patientID: rex.id, vaccine: "DHP", administeredDate: day("2026-01-15"), batchNumber: "B-77",
                    nextDueDate: day("2027-01-15"))),
            .note(note),
            .addendum(
                Addendum(
                    noteID: note.id, author: author, createdAt: now.addingTimeInterval(-60),
                    text: "Owner reports improvement")),
        ] {
            try await store.addRecordEntry(entry, patientID: rex.id, scope: vetScope)
            fixture.clock.advance(1.005)
        }
        let triageCase = #"{"species":"dog","signs":[]}"#
        try await store.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO triage_assessment (id, practice_id, patient_id, assessor_id, arrival_at_ms, \
                    assessed_at_ms, level, rules_version, case_json, result_json)
                    VALUES (?, ?, ?, ?, 1795000000001, 1795000060002, 3, 'rules-1', ?, '{"level":3}')
                    """,
                arguments: [
                    UUID().uuidString.lowercased(), fixture.a.id.description, rex.id.description, vet.id.description,
                    triageCase,
                ])
            try db.execute(
                sql: """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level, first_seen_at_ms)
                    VALUES (?, ?, 1795000000001, 3, 1795000030002)
                    """, arguments: [fixture.a.id.description, rex.id.description])
            try db.execute(
                sql: """
                    INSERT INTO document (id, practice_id, patient_id, file_name, content_type, byte_count, sha256, \
                    uploaded_by, created_at)
                    VALUES (?, ?, ?, 'xray.png', 'image/png', 1234, 'abc123', ?, '2026-11-18T10:00:00.000Z')
                    """,
                arguments: [
                    UUID().uuidString.lowercased(), fixture.a.id.description, rex.id.description, vet.id.description,
                ])
        }

        try await schedule(for: rex, in: fixture)

        let scopeB = fixture.scope(fixture.adminB)
        let bee = try await store.createOwner(
            Owner(firstName: "Bea", lastName: "Otherpractice", email: "bea@example.com"), scope: scopeB)
        let kit = try await store.createPatient(Patient(name: "Kit", species: .cat, ownerID: bee.id), scope: scopeB)
        try await store.addRecordEntry(
            .note(
                ClinicalNote(
                    patientID: kit.id, author: NoteAuthor(id: fixture.adminB.id, displayName: "Bea Beta"),
                    createdAt: now, subjective: "Practice B only", objective: "", assessment: "", plan: "")),
            patientID: kit.id, scope: scopeB)
        return (fixture, rex)
    }

    /// Practice A's schedule: a clinician with availability, one who has left, a room, a type,
    /// and appointments that were completed, cancelled and are still booked.
    static func schedule(for rex: Patient, in fixture: TwoPractices) async throws {
        let store = fixture.store
        let scope = fixture.scope(fixture.adminA)
        let vet = try await store.createClinician(
            Clinician(
                displayName: "Dr Vera Vet", credentials: "BVSc MRCVS",
                expertise: [Expertise(specialty: .orthopedics, proficiency: 4, years: 8)],
                species: [.dog, .cat], maxAppointmentsPerDay: 14, complexityCeiling: 0.9), scope: scope)
        let leaver = try await store.createClinician(
            Clinician(
                displayName: "Dr Lee Left", credentials: "BVM&S", expertise: [], species: [.cat],
                maxAppointmentsPerDay: 8, complexityCeiling: 0.5),
            scope: scope)
        _ = try await store.setAvailability(
            ClinicianAvailability(
                clinicianID: vet.id, weekly: (1...5).map { WeeklyInterval(weekday: $0, from: (8, 30), to: (17, 0)) }),
            scope: scope, expectedVersion: nil)
        let room = try await store.createRoom(Room(name: "Consult 1", type: .exam), scope: scope)
        let consult = try await store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 20, bufferAfterMinutes: 5, requiredRoomType: .exam,
                fee: Money(minorUnits: 4800, currency: "GBP")), scope: scope)
        let now = fixture.clock.clock.now()
        func book(_ clinician: Clinician, hoursFromNow: Double, reason: String) async throws -> Appointment {
            let start = now.addingTimeInterval(hoursFromNow * 3600)
            var appointment = try Appointment.book(
                practiceID: fixture.a.id, patientID: rex.id.rawValue, clinicianID: clinician.id.rawValue, type: consult,
                start: start, now: start.addingTimeInterval(-3600)
            ).current
            appointment.roomID = room.id
            let prepared = appointment
            return try await store.bookAppointment(
                scope: scope, patientID: rex.id.rawValue, clinicianID: clinician.id.rawValue,
                appointmentTypeID: consult.id, reason: reason,
                idempotencyKey: nil,
                reads: { _, _ in BookingReads(clinicianPeriod: prepared.time, roomWindow: prepared.occupiedTime) },
                decide: { _ in prepared }
            ).0.value
        }
        var done = try await book(vet, hoursFromNow: -48, reason: "limping")
        for (command, minutes) in [(AppointmentCommand.checkIn, -5.0), (.start, 1), (.complete(actualMinutes: 27), 28)]
        {
            let decision = try done.decide(command, at: done.time.start.addingTimeInterval(minutes * 60))
            done = try await store.saveAppointment(decision, scope: scope, expectedVersion: nil).value
        }
        // The visit record of the completed appointment, asking the patient back.
        _ = try await store.addVisit(
            Visit(
                patientID: rex.id, appointmentID: done.id.rawValue, occurredAt: done.time.start.addingTimeInterval(600),
                chiefComplaint: "Limping on the left fore", vitalsJSON: #"{"heartRate":92}"#,
                diagnoses: [Diagnosis(name: "Carpal sprain", certainty: .presumptive)],
                followUpRequired: true,
                followUpDate: RecordCalendar.date(
                    fromISODay: RecordCalendar.isoDay(now.addingTimeInterval(10 * 86_400))),
                followUpReason: "Recheck carpus"),
            scope: scope)
        let cancelled = try await book(leaver, hoursFromNow: 30, reason: "vaccination")
        _ = try await store.saveAppointment(
            try cancelled.decide(.cancel(reason: "owner away"), at: now), scope: scope, expectedVersion: nil)
        _ = try await book(vet, hoursFromNow: 26, reason: "recheck")
        try await store.writer.write { db in
            try db.execute(sql: "UPDATE clinician SET active = 0 WHERE id = ?", arguments: [leaver.id.description])
        }
    }

    /// An empty on-disk store with a record key of its own, so a restore must re-encrypt.
    static func emptyStoreWithOtherKey() throws -> (VetNetStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-restore-\(UUID())")
        let store = try VetNetStore.open(
            directory: directory, auditKey: AuditKey(bytes: Array(repeating: 3, count: 32)),
            cipher: try RecordCipher(keyBytes: Array(repeating: 5, count: 32)))
        return (store, directory)
    }

    @Test("the export holds the whole record with notes in clear and no password hash, and is audited")
    func exportContents() async throws {
        let (fixture, rex) = try await Self.populated()
        let export = try await fixture.store.exportPractice(scope: fixture.scope(fixture.adminA))
        let json = String(decoding: try export.jsonData(), as: UTF8.self)

        #expect(json.contains("\"format\" : \"vetnet-export-v1\""))
        #expect(json.contains(Self.noteText))
        #expect(json.contains("Owner reports improvement"))
        #expect(!json.contains(Self.secretHash))
        #expect(!json.lowercased().contains("password"))
        #expect(export.staff.map(\.email).sorted() == ["admin@alpha.example", "vet@alpha.example"])
        let exportedRex = try #require(export.patients.first { $0.patient.id == rex.id })
        #expect(exportedRex.patient.medicalRecordNumber == "P-000001")
        #expect(exportedRex.weights.map(\.value) == [Decimal(string: "23.45")!])
        #expect(exportedRex.notes.map(\.subjective) == [Self.noteText])
        #expect(exportedRex.medications.first.flatMap { exportedRex.entered[$0.id.description]?.by } != nil)
        #expect(export.patients.first { $0.patient.name == "Old Tom" }?.archivedAt != nil)
        #expect(export.triageAssessments.count == 1)
        #expect(export.triageArrivals?.count == 1 && export.triageArrivals?.first?.level == 3)
        #expect(export.triageArrivals?.first?.firstSeenAt.map(Timestamp.milliseconds) == 1_795_000_030_002)
        #expect(export.documents.map(\.fileName) == ["xray.png"])
        let schedule = try #require(export.schedule)
        #expect(
            schedule.clinicians.map { "\($0.clinician.displayName) \($0.active)" } == [
                "Dr Lee Left false", "Dr Vera Vet true",
            ])
        #expect(schedule.availabilities.map(\.version) == [1])
        #expect(
            schedule.rooms.map(\.name) == ["Consult 1"] && schedule.appointmentTypes.map(\.name) == ["Consultation"])
        #expect(schedule.appointments.map(\.appointment.status) == [.completed, .booked, .cancelled])
        #expect(schedule.appointments.map(\.reason) == ["limping", "recheck", "vaccination"])
        #expect(schedule.appointments.first?.appointment.actualMinutes == 27)
        // The moment of the cancellation travels with it (late cancellations are counted from it).
        #expect(schedule.appointments.map { $0.cancelledAt != nil } == [false, false, true])

        let audit = try await fixture.store.auditEntries(scope: fixture.scope(fixture.adminA), limit: 1, before: nil)
            .items
        #expect(audit.first?.action == "practice.export")
    }

    @Test("an export holds nothing of another practice")
    func exportIsolation() async throws {
        let (fixture, _) = try await Self.populated()
        let export = try await fixture.store.exportPractice(scope: fixture.scope(fixture.adminA))
        let json = String(decoding: try export.jsonData(), as: UTF8.self)
        for text in [
            "Otherpractice", "bea@example.com", "Kit", "Practice B only", "admin@beta.example",
            fixture.b.id.description,
        ] {
            #expect(!json.contains(text), "practice A's export mentions \(text)")
        }
        let exportB = try await fixture.store.exportPractice(scope: fixture.scope(fixture.adminB))
        #expect(exportB.patients.map(\.patient.name) == ["Kit"])
        #expect(exportB.owners.map(\.lastName) == ["Otherpractice"])
        #expect(exportB.staff.map(\.email) == ["admin@beta.example"])
        #expect(exportB.documents.isEmpty && exportB.triageAssessments.isEmpty)
        #expect(exportB.schedule?.clinicians.isEmpty == true && exportB.schedule?.appointments.isEmpty == true)
    }

    @Test("export, restore into an empty store with another key, export again: the same practice")
    func roundTrip() async throws {
        let (fixture, rex) = try await Self.populated()
        let first = try await fixture.store.exportPractice(scope: fixture.scope(fixture.adminA))
        let decoded = try PracticeExport.decode(try first.jsonData())
        #expect(decoded == first)

        let (target, directory) = try Self.emptyStoreWithOtherKey()
        defer {
            try? target.close()
            try? FileManager.default.removeItem(at: directory)
        }
        let summary = try await target.restorePractice(decoded, requestID: "test-restore")
        #expect(summary.patients == 2 && summary.owners == 2 && summary.staff.count == 2)
        #expect(summary.recordEntries == 7)
        #expect(summary.documentsNotRestored == 1)
        #expect(summary.clinicians == 2 && summary.appointments == 3)

        #expect(summary.auditEntries == first.audit?.count && summary.auditEntries > 10)
        var second = try await target.exportPractice(scope: .system(fixture.a.id))
        second.exportedAt = first.exportedAt
        // Documents are listed, not restored: their bytes are not part of an export.
        #expect(second.documents.isEmpty)
        second.documents = first.documents
        // The audit trail came along first, entry for entry (linked into the new chain), then
        // the restore's own entries (an export's own entry follows the snapshot it reads).
        let carried = Array((second.audit ?? []).prefix(first.audit?.count ?? 0))
        #expect(carried.map(Self.auditContent) == (first.audit ?? []).map(Self.auditContent))
        #expect(first.audit?.contains { $0.action == "record.note.add" } == true)
        #expect(second.audit?.last?.action == "practice.restore")
        second.audit = first.audit
        #expect(second == first)

        // The visit record came along, still linked to its appointment and asking the patient back.
        let visits = try await target.visits(scope: .system(fixture.a.id), patientID: rex.id)
        #expect(visits.map(\.visit.chiefComplaint) == ["Limping on the left fore"])
        #expect(visits.first?.visit.recall?.reason == "Recheck carpus")
        // Notes were sealed again with the target's key: they open there, and the record reads as before.
        let record = try await target.medicalRecord(scope: .system(fixture.a.id), patientID: rex.id).0
        #expect(record.notes.notes.map(\.subjective) == [Self.noteText])
        #expect(try await target.verifyAuditChain().isIntact)
        // Search works on restored patients.
        let found = try await target.searchPatients(
            scope: .system(fixture.a.id), query: PatientQuery(text: "bloggs"), limit: 5, after: nil)
        #expect(found.items.map(\.patient.value.name) == ["Rex"])
        // New patients continue after the restored record numbers.
        let owner = try #require(first.owners.first)
        let next = try await target.createPatient(
            Patient(name: "New", species: .cat, ownerID: owner.id), scope: .system(fixture.a.id))
        #expect(next.medicalRecordNumber == "P-000003")
    }

    /// What an audit entry says, apart from its place in a chain (sequence and hashes).
    static func auditContent(_ entry: AuditEntry) -> [String?] {
        [
            entry.id.uuidString, entry.occurredAt, entry.practiceID, entry.actorID, entry.action, entry.resourceType,
            entry.resourceID,
            entry.outcome.rawValue, entry.requestID, entry.detail,
        ]
    }

    @Test(
        """
        an export with documents carries their content; the restore stores them byte for byte, and a doctored file is \
        refused whole
        """
    )
    func documentsTravel() async throws {
        let (fixture, _) = try await Self.populated()
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-docs-\(UUID())")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: documents) }
        let source = try VetNetStore.inMemory(documentsDirectory: documents)
        let practice = PracticeProfile(id: PracticeID(), name: "Docs Vets", timeZone: "Europe/London", openingHours: [])
        let (_, admin) = try await source.createPractice(
            practice,
            administrator: FirstAdministrator(
                email: "a@docs.example", displayName: "A",
                passwordHash: Self.secretHash), requestID: nil)
        let scope = AccessScope(practiceID: admin.practiceID, actorID: admin.id, role: admin.role, requestID: "test")
        let owner = try await source.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let rex = try await source.createPatient(Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
        let pdf = Data("%PDF-1.4\nlab results \(UUID())\n%%EOF".utf8)
        let stored = try await source.addDocument(
            patientID: rex.id, fileName: "labs.pdf", declaredType: "application/pdf", data: pdf, scope: scope)

        let export = try PracticeExport.decode(
            try await source.exportPractice(scope: scope, documentContent: true).jsonData())
        #expect(export.documents.first?.content == pdf.base64EncodedString())
        let (target, directory) = try Self.emptyStoreWithOtherKey()
        defer {
            try? target.close()
            try? FileManager.default.removeItem(at: directory)
        }

        var doctored = export
        doctored.documents[0].content = Data("%PDF-1.4\nsomething else".utf8).base64EncodedString()
        await #expect(throws: ValidationError.self) { _ = try await target.restorePractice(doctored) }
        #expect(try await target.isEmpty())
        // A document or assessment whose id is not a UUID is refused naming its field, before anything is written.
        var misnamed = export
        misnamed.documents[0].id = "labs-1"
        do {
            _ = try await target.restorePractice(misnamed)
            Issue.record("a document id that is not a UUID was restored")
        } catch let error as ValidationError {
            #expect(error.errors.first?.field == "documents" && error.description.contains("labs-1"))
        }
        #expect(try await target.isEmpty())

        let summary = try await target.restorePractice(export)
        #expect(summary.documents == 1 && summary.documentsNotRestored == 0)
        let (info, content) = try await target.document(id: stored.id, patientID: rex.id, scope: .system(practice.id))
        #expect(content == pdf && info.fileName == "labs.pdf")
        #expect(try await target.verifyAuditChain().isIntact)
        _ = fixture
    }

    @Test("restored accounts cannot sign in until a password is set, and a restore never merges into a store with data")
    func restoreRules() async throws {
        let (fixture, _) = try await Self.populated()
        let export = try await fixture.store.exportPractice(scope: fixture.scope(fixture.adminA))
        let (target, directory) = try Self.emptyStoreWithOtherKey()
        defer {
            try? target.close()
            try? FileManager.default.removeItem(at: directory)
        }
        _ = try await target.restorePractice(export)

        let credentials = try #require(try await target.credentials(email: "vet@alpha.example").first)
        #expect(!credentials.passwordHash.hasPrefix("$2"))
        #expect(credentials.passwordHash != Self.secretHash)

        await #expect(throws: RestoreError.self) { _ = try await target.restorePractice(export) }
        await #expect(throws: RestoreError.self) { _ = try await fixture.store.restorePractice(export) }

        // A hand-made file that double-books a clinician is refused whole.
        var doubleBooked = export
        var schedule = try #require(doubleBooked.schedule)
        var copy = try #require(schedule.appointments.first { $0.appointment.status == .booked })
        copy.appointment.id = Identifier()
        schedule.appointments.append(copy)
        doubleBooked.schedule = schedule
        let (other, otherDirectory) = try Self.emptyStoreWithOtherKey()
        defer {
            try? other.close()
            try? FileManager.default.removeItem(at: otherDirectory)
        }
        await #expect(throws: RestoreError.overlappingAppointment(id: copy.appointment.id.description)) {
            _ = try await other.restorePractice(doubleBooked)
        }
        #expect(try await other.isEmpty())

        var wrongFormat = export
        wrongFormat.format = "vetnet-export-v2"
        #expect(throws: PracticeExport.FormatError.self) { _ = try PracticeExport.decode(try wrongFormat.jsonData()) }
    }
}
