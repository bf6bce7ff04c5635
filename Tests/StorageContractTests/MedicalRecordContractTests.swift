import Foundation
import Logging
import PatientRecords
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts
import StoragePostgres
import Synchronization
import Testing
import Triage

extension StoreUnderTest {
    /// The store's medical-record port.
    var medicalRecords: any MedicalRecordRepository {
        if let postgres { return postgres.store }
        return sqlite!
    }

    /// The store's document port.
    var documents: any DocumentRepository {
        if let postgres { return postgres.store }
        return sqlite!
    }

    /// The record day `days` from the test clock's now (midnight UTC, as record dates are).
    func day(_ days: Int) -> Date {
        RecordCalendar.date(
            fromISODay: RecordCalendar.isoDay(clock.clock.now().addingTimeInterval(Double(days) * 86_400)))!
    }
}

/// Runs `body` in a transaction of `store` that sees every practice (as housekeeping does),
/// for what a test checks or breaks below the ports.
func asInstallation<Result: Sendable>(_ store: PostgresStore, _ body: (PostgresConnection) async throws -> Result)
    async throws -> Result
{
    let logger = Logger(label: "vetnet.contract.sql")
    return try await store.client.withTransaction(logger: logger) { connection in
        try await connection.query("SELECT set_config('vetnet.practice_id', 'installation', true)", logger: logger)
        return try await body(connection)
    }
}

/// The number the first row of `query` starts with (a `count(*)`).
func countRows(_ store: PostgresStore, _ query: PostgresQuery) async throws -> Int {
    try await asInstallation(store) { connection in
        for try await value in try await connection.query(query, logger: Logger(label: "vetnet.contract.sql")).decode(
            Int64.self)
        { return Int(value) }
        return 0
    }
}

/// A patient's record entries, visits, recalls, owners and imports, and the retention purge,
/// held to every store adapter alike.
@Suite("Medical record contract (every store adapter)")
struct MedicalRecordContractTests {
    /// A practice with an owner and Rex, a dog born about two years before the test clock.
    static func rex(_ store: StoreUnderTest, practice name: String = "Riverside") async throws -> (
        AccessScope, Versioned<Patient>
    ) {
        let scope = AccessScope.system(try await PatientDirectoryContractTests.practice(store, name))
        let owner = try await store.records.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let (patient, _) = try await store.records.createPatient(
            Patient(name: "Rex", species: .dog, birthDate: store.day(-800), ownerID: owner.id),
            scope: scope, idempotencyKey: nil)
        return (scope, patient)
    }

    static let author = NoteAuthor(id: UserID(), displayName: "Dr Vera Vet")

    // MARK: - Entries

    @Test(
        "an entry of every kind is stored and read back as written; the record's version is the patient's",
        arguments: Adapter.available)
    func everyKind(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await Self.rex(store)
            let id = rex.value.id
            let now = store.clock.clock.now()
            let records = store.medicalRecords
            let weight = WeightMeasurement(
                patientID: id, value: Decimal(string: "12.35")!, unit: .kg, measuredAt: now.addingTimeInterval(-3600))
            let problem = Problem(patientID: id, name: "Otitis externa", status: .active, onsetDate: store.day(-3))
            let resolved = Problem(
                patientID: id, name: "Kennel cough", status: .resolved, onsetDate: store.day(-60),
                resolvedDate: store.day(-40))
            let allergy = Allergy(patientID: id, substance: "Penicillin", reaction: "hives", severity: .lifeThreatening)
            let medication = Medication(
                patientID: id, drug: "Meloxicam", concentrationMgPerML: Decimal(string: "1.5")!,
                doseMgPerKg: Decimal(string: "0.1")!, route: .oral, frequency: "q24h", startDate: store.day(0),
                endDate: store.day(7))
            let vaccination = Vaccination(
                patientID: id, vaccine: "DHP", administeredDate: store.day(-1), batchNumber: "B-77",
                nextDueDate: store.day(364))
            let note = ClinicalNote(
                patientID: id, author: Self.author, createdAt: now, subjective: "Shaking head", objective: "Red canal",
                assessment: "Otitis", plan: "Drops, recheck 2w")
            let addendum = Addendum(
                noteID: note.id, author: Self.author, createdAt: now, text: "Owner reports scratching since Monday")
            let entries: [RecordEntry] = [
                .weight(weight), .problem(problem), .problem(resolved), .allergy(allergy), .medication(medication),
                .vaccination(vaccination), .note(note), .addendum(addendum),
            ]
            for entry in entries { try await records.addRecordEntry(entry, patientID: id, scope: scope) }

            let (record, version) = try await records.medicalRecord(scope: scope, patientID: id)
            #expect(
                record
                    == MedicalRecord(
                        patient: rex.value, weights: [weight], problems: [problem, resolved], allergies: [allergy],
                        medications: [medication], vaccinations: [vaccination], notes: [note], addenda: [addendum]))
            #expect(version == 1)
            // Entries leave the patient's version alone; changing the patient moves it.
            var renamed = rex.value
            renamed.name = "Rexy"
            _ = try await store.records.updatePatient(renamed, scope: scope, expectedVersion: 1)
            #expect(try await records.medicalRecord(scope: scope, patientID: id).version == 2)

            let added = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events
                .filter { $0.kind == RecordEventKind.entryAdded }
            #expect(
                added.map { $0.payload["entryType"] } == [
                    "weight", "problem", "problem", "allergy", "medication", "vaccination", "note", "addendum",
                ])
            #expect(added.map { $0.payload["entryID"] } == entries.map { $0.id })
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: ResourceKind.patient.rawValue,
                resourceID: id.description)
            #expect(audit.items.filter { $0.action.hasPrefix("record.") && $0.action.hasSuffix(".add") }.count == 8)
            #expect(audit.items.filter { $0.action == "record.read" }.count == 2)
            #expect(try await store.audit.verifyAuditChain().isIntact)

            // An addendum to a note the patient does not have is refused.
            await #expect(throws: DomainError.notFound(resource: "note")) {
                try await records.addRecordEntry(
                    .addendum(Addendum(noteID: Identifier(), author: Self.author, createdAt: now, text: "x")),
                    patientID: id, scope: scope)
            }
            if let postgres = store.postgres?.owner {
                // Clinical text is sealed at rest; the rest stays plain for queries.
                let plain = try await countRows(
                    postgres,
                    """
                    SELECT count(*) FROM clinical_note WHERE position(\(Data("Shaking head".utf8)) IN sealed_text) > 0
                    """)
                let addenda = try await countRows(
                    postgres,
                    """
                    SELECT count(*) FROM note_addendum WHERE position(\(Data("scratching".utf8)) IN sealed_text) > 0
                    """)
                #expect(plain == 0 && addenda == 0)
                #expect(try await countRows(postgres, "SELECT count(*) FROM clinical_note") == 1)
                // Append-only: a note cannot be changed or deleted while its patient is not archived.
                await #expect(throws: (any Error).self) {
                    try await asInstallation(postgres) { connection in
                        try await connection.query(
                            "UPDATE clinical_note SET author_name = 'someone else'", logger: Logger(label: "test"))
                    }
                }
                await #expect(throws: (any Error).self) {
                    try await asInstallation(postgres) { connection in
                        try await connection.query("DELETE FROM note_addendum", logger: Logger(label: "test"))
                    }
                }
            }
        }
    }

    @Test(
        "a refused entry writes nothing: invalid values, another practice's or an unknown patient",
        arguments: Adapter.available)
    func refusalsWriteNothing(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await Self.rex(store)
            let (otherScope, _) = try await Self.rex(store, practice: "Hillside")
            let id = rex.value.id
            let now = store.clock.clock.now()
            let records = store.medicalRecords
            await #expect(throws: ValidationError.self) {
                try await records.addRecordEntry(
                    .weight(WeightMeasurement(patientID: id, value: 0, unit: .kg, measuredAt: now)), patientID: id,
                    scope: scope)
            }
            await #expect(throws: ValidationError.self) {
                try await records.addRecordEntry(
                    .vaccination(Vaccination(patientID: id, vaccine: "DHP", administeredDate: store.day(30))),
                    patientID: id, scope: scope)
            }
            await #expect(throws: ValidationError.self) {
                try await records.addRecordEntry(
                    .note(
                        ClinicalNote(
                            patientID: id, author: Self.author, createdAt: now, subjective: " ", objective: "",
                            assessment: "", plan: "")), patientID: id, scope: scope)
            }
            // Before the patient was born.
            await #expect(throws: ValidationError.self) {
                try await records.addRecordEntry(
                    .problem(Problem(patientID: id, name: "Congenital", onsetDate: store.day(-900))), patientID: id,
                    scope: scope)
            }
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                try await records.addRecordEntry(
                    .allergy(Allergy(patientID: id, substance: "Chicken", severity: .mild)), patientID: id,
                    scope: otherScope)
            }
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                try await records.medicalRecord(scope: otherScope, patientID: id)
            }
            let unknown = Identifier<Patient>()
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                try await records.addRecordEntry(
                    .allergy(Allergy(patientID: unknown, substance: "Chicken", severity: .mild)), patientID: unknown,
                    scope: scope)
            }
            let (record, _) = try await records.medicalRecord(scope: scope, patientID: id)
            #expect(record == MedicalRecord(patient: rex.value))
            for practice in [scope.practiceID, otherScope.practiceID] {
                let events = try await store.events.events(practiceID: practice, after: 0, limit: 100).events
                #expect(!events.contains { $0.kind == RecordEventKind.entryAdded })
            }
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: nil, resourceID: nil)
            #expect(!audit.items.contains { $0.action.hasSuffix(".add") })
        }
    }

    @Test(
        "an entry repeated with its idempotency key is added once; the key with another request is refused",
        arguments: Adapter.available)
    func idempotentEntries(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await Self.rex(store)
            let id = rex.value.id
            let records = store.medicalRecords
            let weight = WeightMeasurement(patientID: id, value: 12, unit: .kg, measuredAt: store.clock.clock.now())
            let key = IdempotencyKey(key: "weigh-1", fingerprint: "w12")
            try await records.addRecordEntry(.weight(weight), patientID: id, scope: scope, idempotencyKey: key)
            // A retry of the same request (the client resends the same entry).
            try await records.addRecordEntry(.weight(weight), patientID: id, scope: scope, idempotencyKey: key)
            await #expect(throws: DomainError.self) {
                try await records.addRecordEntry(
                    .weight(
                        WeightMeasurement(patientID: id, value: 13, unit: .kg, measuredAt: store.clock.clock.now())),
                    patientID: id, scope: scope, idempotencyKey: IdempotencyKey(key: "weigh-1", fingerprint: "w13"))
            }
            #expect(try await records.medicalRecord(scope: scope, patientID: id).0.weights.measurements == [weight])
            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events
            #expect(events.filter { $0.kind == RecordEventKind.entryAdded }.count == 1)
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: nil, resourceID: nil)
            #expect(audit.items.filter { $0.action == "record.weight.add" }.count == 1)
            #expect(audit.items.filter { $0.action == "record.weight.add.replay" }.count == 1)
            // A refused entry leaves its key unclaimed: the corrected request goes through under it.
            await #expect(throws: ValidationError.self) {
                try await records.addRecordEntry(
                    .weight(WeightMeasurement(patientID: id, value: 0, unit: .kg, measuredAt: store.clock.clock.now())),
                    patientID: id, scope: scope, idempotencyKey: IdempotencyKey(key: "weigh-2", fingerprint: "w0"))
            }
            let second = WeightMeasurement(
                patientID: id, value: 14, unit: .kg, measuredAt: store.clock.clock.now().addingTimeInterval(1))
            store.clock.advance(1)
            try await records.addRecordEntry(
                .weight(second), patientID: id, scope: scope,
                idempotencyKey: IdempotencyKey(key: "weigh-2", fingerprint: "w14"))
            #expect(
                try await records.medicalRecord(scope: scope, patientID: id).0.weights.measurements == [weight, second])
        }
    }

    // MARK: - Visits

    /// A consultation booked through the scheduling port, the clock moved to it and the patient
    /// checked in (a visit is recorded for an appointment the patient came to).
    static func arrivedAppointment(_ fixture: SchedulingFixture, at start: Date) async throws -> Versioned<Appointment>
    {
        let booked = try await fixture.book(fixture.consult, at: start).0
        let clock = fixture.store.clock
        clock.advance(start.timeIntervalSince(clock.clock.now()) + 120)
        let checkIn = try booked.value.decide(.checkIn, at: clock.clock.now())
        return try await fixture.store.scheduling.saveAppointment(
            checkIn, scope: fixture.scope, expectedVersion: booked.version)
    }

    @Test(
        """
        a visit records an arrived appointment once, adds its marked diagnoses to the problem list and is read back \
        newest first
        """,
        arguments: Adapter.available)
    func visits(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let scope = fixture.scope
            let records = store.medicalRecords
            let patientID = Identifier<Patient>(fixture.patient)
            let appointment = try await Self.arrivedAppointment(fixture, at: fixture.morning).value
            let now = store.clock.clock.now()
            let visit = Visit(
                patientID: patientID, appointmentID: appointment.id.rawValue, occurredAt: now,
                chiefComplaint: "Lame left hind",
                vitalsJSON: #"{"heartRate":96}"#,
                diagnoses: [
                    Diagnosis(name: "Cranial cruciate rupture", code: "CCL", addToProblemList: true),
                    Diagnosis(name: "Osteoarthritis", certainty: .differential),
                ],
                treatmentPlan: TreatmentPlan(
                    approaches: [.surgical, .medical], summary: "TPLO", procedures: [PlannedProcedure(name: "TPLO")],
                    prescriptions: [
                        Medication(
                            patientID: patientID, drug: "Meloxicam", concentrationMgPerML: 1.5,
                            doseMgPerKg: 0.1, route: .oral, frequency: "daily", startDate: store.day(0))
                    ]),
                followUpRequired: true, followUpDate: store.day(14), followUpReason: "Suture removal",
                recordedBy: Self.author)
            let key = IdempotencyKey(key: "visit-1", fingerprint: "v1")
            let stored = try await records.addVisit(visit, otherErrors: [], scope: scope, idempotencyKey: key)
            #expect(stored.version == 1 && stored.createdAt == now)
            // The clinician comes from the appointment; the diagnosis now names its problem.
            #expect(stored.visit.clinicianID == fixture.vet.id.rawValue)
            let problemID = try #require(stored.visit.diagnoses[0].problemID)
            #expect(stored.visit.diagnoses[1].problemID == nil)
            var expected = visit
            expected.clinicianID = fixture.vet.id.rawValue
            expected.diagnoses[0].problemID = problemID
            #expect(stored.visit == expected)
            let record = try await records.medicalRecord(scope: scope, patientID: patientID).0
            #expect(record.problems.map(\.id) == [problemID])
            #expect(
                record.problems.first?.name == "Cranial cruciate rupture"
                    && record.problems.first?.onsetDate == store.day(0))
            // The prescription is an active medication with the id the plan names.
            #expect(record.medications.map(\.id) == visit.treatmentPlan?.prescriptions?.map(\.id))
            #expect(
                record.medications.first?.drug == "Meloxicam" && record.medications.first?.isCurrent(on: now) == true)

            // A retry answers with the first record; a second record of the appointment is refused.
            let replay = try await records.addVisit(visit, otherErrors: [], scope: scope, idempotencyKey: key)
            #expect(replay.visit == stored.visit)
            #expect(
                try await records.medicalRecord(scope: scope, patientID: patientID).0.medications.count == 1,
                "a retry prescribes nothing more")
            await #expect(throws: UniquenessConflict(field: "appointmentId", message: "already has a visit record")) {
                _ = try await records.addVisit(
                    Visit(
                        patientID: patientID, appointmentID: appointment.id.rawValue, occurredAt: now,
                        chiefComplaint: "Again", diagnoses: [Diagnosis(name: "Examined")]), scope: scope)
            }

            // A later visit without an appointment, linking a diagnosis to the problem already listed.
            store.clock.advance(3600)
            let later = Visit(
                patientID: patientID, occurredAt: store.clock.clock.now(), chiefComplaint: "Recheck",
                diagnoses: [Diagnosis(name: "Cranial cruciate rupture", problemID: problemID)])
            let second = try await records.addVisit(later, scope: scope)
            #expect(
                try await records.visits(scope: scope, patientID: patientID).map(\.visit.id) == [later.id, visit.id])
            #expect(try await records.visit(scope: scope, patientID: patientID, id: visit.id).visit == stored.visit)
            #expect(second.visit.clinicianID == nil)

            let other = Identifier<Patient>(try await store.patient(scope: scope, name: "Tom"))
            await #expect(throws: DomainError.notFound(resource: "visit")) {
                _ = try await records.visit(scope: scope, patientID: other, id: visit.id)
            }
            #expect(try await records.visits(scope: scope, patientID: other).isEmpty)
            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 200).events
                .filter { $0.kind == RecordEventKind.entryAdded }.compactMap { $0.payload["entryType"] }
            #expect(events == ["problem", "medication", "visit", "visit"])
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 200, before: nil, resourceType: ResourceKind.patient.rawValue,
                resourceID: patientID.description)
            let add = try #require(audit.items.last { $0.action == "record.visit.add" })
            #expect(
                add.detail
                    == """
                    visit=\(visit.id) appointment=\(UUIDText.lowercase(appointment.id.rawValue)) \
                    follow_up=\(RecordCalendar.isoDay(store.day(14))) problems_added=1 medications_added=1
                    """
            )
        }
    }

    @Test(
        """
        a visit for an appointment the patient has not come to, another patient's, or with other errors writes nothing
        """,
        arguments: Adapter.available)
    func visitRefusals(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let scope = fixture.scope
            let records = store.medicalRecords
            let patientID = Identifier<Patient>(fixture.patient)
            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0.value
            store.clock.advance(fixture.morning.timeIntervalSince(store.clock.clock.now()) + 60)
            let now = store.clock.clock.now()
            func fields(_ body: () async throws -> Void) async -> [String] {
                do { try await body() } catch let error as ValidationError { return error.errors.map(\.field) } catch {
                    return ["\(error)"]
                }
                return []
            }
            // Booked, not arrived.
            let notArrived = await fields {
                _ = try await records.addVisit(
                    Visit(
                        patientID: patientID, appointmentID: booked.id.rawValue, occurredAt: now,
                        chiefComplaint: "Limping", diagnoses: [Diagnosis(name: "Sprain", addToProblemList: true)]),
                    scope: scope)
            }
            #expect(notArrived == ["appointmentId"])
            // Another patient's appointment.
            let tom = Identifier<Patient>(try await store.patient(scope: scope, name: "Tom"))
            let notTheirs = await fields {
                _ = try await records.addVisit(
                    Visit(
                        patientID: tom, appointmentID: booked.id.rawValue, occurredAt: now, chiefComplaint: "Limping",
                        diagnoses: [Diagnosis(name: "Examined")]),
                    scope: scope)
            }
            #expect(notTheirs == ["appointmentId"])
            // Errors of the form's other parts are reported with the record's own.
            let combined = await fields {
                _ = try await records.addVisit(
                    Visit(
                        patientID: patientID, occurredAt: now, chiefComplaint: " ",
                        diagnoses: [Diagnosis(name: "Sprain", addToProblemList: true)]),
                    otherErrors: [FieldError(field: "vitals.heartRate", message: "is not a number")], scope: scope,
                    idempotencyKey: nil)
            }
            #expect(combined == ["vitals.heartRate", "chiefComplaint"])
            let strangeClinician = await fields {
                _ = try await records.addVisit(
                    Visit(
                        patientID: patientID, clinicianID: UUID(), occurredAt: now, chiefComplaint: "Limping",
                        diagnoses: [Diagnosis(name: "Examined")]), scope: scope)
            }
            #expect(strangeClinician == ["clinicianId"])
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await records.addVisit(
                    Visit(
                        patientID: Identifier(), occurredAt: now, chiefComplaint: "Limping",
                        diagnoses: [Diagnosis(name: "Examined")]), scope: scope)
            }
            #expect(try await records.visits(scope: scope, patientID: patientID).isEmpty)
            #expect(try await records.medicalRecord(scope: scope, patientID: patientID).0.problems.isEmpty)
            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 200).events
            #expect(!events.contains { $0.kind == RecordEventKind.entryAdded })
        }
    }

    // MARK: - Recalls

    @Test(
        "recalls list vaccinations and follow-ups due soon or overdue for active patients, soonest first, with names",
        arguments: Adapter.available)
    func recalls(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await Self.rex(store)
            let records = store.medicalRecords
            let id = rex.value.id
            let owner = try await store.records.createOwner(Owner(firstName: "Ann", lastName: "Lee"), scope: scope)
            var gone = try await store.records.createPatient(
                Patient(name: "Gone", species: .cat, birthDate: store.day(-900), ownerID: owner.id),
                scope: scope)
            let dhp = Vaccination(
                patientID: id, vaccine: "DHP", administeredDate: store.day(-355), nextDueDate: store.day(10))
            let rabies = Vaccination(
                patientID: id, vaccine: "Rabies", administeredDate: store.day(-370), nextDueDate: store.day(-5))
            let leptoOld = Vaccination(
                patientID: id, vaccine: "Lepto", administeredDate: store.day(-400), nextDueDate: store.day(-35))
            // A later dose supersedes the earlier one's reminder.
            let leptoNew = Vaccination(
                patientID: id, vaccine: "Lepto", administeredDate: store.day(-30), nextDueDate: store.day(335))
            let far = Vaccination(
                patientID: id, vaccine: "Kennel cough", administeredDate: store.day(-10), nextDueDate: store.day(90))
            for vaccination in [dhp, rabies, leptoOld, leptoNew, far] {
                try await records.addRecordEntry(.vaccination(vaccination), patientID: id, scope: scope)
            }
            let catDue = Vaccination(
                patientID: gone.id, vaccine: "FVRCP", administeredDate: store.day(-360), nextDueDate: store.day(2))
            try await records.addRecordEntry(.vaccination(catDue), patientID: gone.id, scope: scope)
            let visit = Visit(
                patientID: id, occurredAt: store.clock.clock.now().addingTimeInterval(-86_400),
                chiefComplaint: "Ear infection", diagnoses: [Diagnosis(name: "Examined")],
                followUpRequired: true, followUpDate: store.day(7), followUpReason: "Recheck ears")
            _ = try await records.addVisit(visit, scope: scope)

            let reminders = try await records.vaccinationReminders(
                scope: scope, asOf: store.clock.clock.now(), withinDays: 30)
            #expect(
                Set(reminders.report.dueSoon.map(\.id)) == [dhp.id, catDue.id]
                    && reminders.report.overdue.map(\.id) == [rabies.id])
            #expect(reminders.patientNames[id] == "Rex" && reminders.patientNames[gone.id] == "Gone")

            // An archived patient is recalled no more.
            gone.status = .archived
            _ = try await store.records.updatePatient(gone, scope: scope, expectedVersion: nil)
            let (dueSoon, overdue) = try await records.recalls(
                scope: scope, asOf: store.clock.clock.now(), withinDays: 30)
            #expect(dueSoon.map(\.kind) == [.followUp, .vaccination])
            #expect(dueSoon.map(\.sourceID) == [visit.id.description, dhp.id.description])
            #expect(dueSoon.map(\.description) == ["Recheck ears", "DHP"])
            #expect(dueSoon.map(\.dueDate) == [store.day(7), store.day(10)])
            #expect(
                overdue.map(\.sourceID) == [rabies.id.description]
                    && overdue.allSatisfy { $0.patientName == "Rex" && $0.patientID == id })
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: nil, resourceID: nil
            ).items
            #expect(
                audit.first?.action == "record.recalls.read"
                    && audit.first?.detail == "follow_ups_due=1 follow_ups_overdue=0")
            #expect(audit.filter { $0.action == "record.vaccinations_due.read" }.count == 2)
            // Another practice sees none of them.
            let other = AccessScope.system(try await PatientDirectoryContractTests.practice(store, "Hillside"))
            let none = try await records.recalls(scope: other, asOf: store.clock.clock.now(), withinDays: 30)
            #expect(none.dueSoon.isEmpty && none.overdue.isEmpty)
        }
    }

    // MARK: - Owners and counts

    @Test(
        """
        an owner update checks the version, re-indexes their patients for search, and counts and names stay per practice
        """,
        arguments: Adapter.available)
    func ownerUpdateAndCounts(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await Self.rex(store)
            let (otherScope, otherRex) = try await Self.rex(store, practice: "Hillside")
            let records = store.medicalRecords
            var owner = try await store.records.owner(scope: scope, id: rex.value.ownerID).value
            owner.lastName = "Okafor"
            owner.phones = [PhoneNumber(label: "mobile", number: "07700 900456")]
            let updated = try await records.updateOwner(owner, scope: scope, expectedVersion: 1)
            #expect(updated.version == 2 && updated.value == owner)
            #expect(try await store.records.owner(scope: scope, id: owner.id).value == owner)
            await #expect(throws: DomainError.versionMismatch(current: 2)) {
                _ = try await records.updateOwner(owner, scope: scope, expectedVersion: 1)
            }
            await #expect(throws: ValidationError.self) {
                var blank = owner
                blank.lastName = " "
                _ = try await records.updateOwner(blank, scope: scope, expectedVersion: 2)
            }
            await #expect(throws: DomainError.notFound(resource: "owner")) {
                _ = try await records.updateOwner(owner, scope: otherScope, expectedVersion: nil)
            }
            #expect(try await PatientDirectoryContractTests.names(store, scope, "okafor") == ["Rex"])
            #expect(try await PatientDirectoryContractTests.names(store, scope, "900456") == ["Rex"])
            #expect(try await PatientDirectoryContractTests.names(store, scope, "bloggs").isEmpty)
            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events
            #expect(
                events.filter { $0.kind == RecordEventKind.ownerUpdated }.map(\.resourceID) == [owner.id.description])

            _ = try await store.patient(scope: scope, name: "Tom")
            #expect(try await records.ownerCount(scope: scope) == 2)
            #expect(try await records.patientCount(scope: scope) == 2)
            #expect(try await records.ownerCount(scope: otherScope) == 1)
            #expect(try await records.patientCount(scope: otherScope) == 1)
            let names = try await records.patientNames(
                ids: [rex.value.id.rawValue, otherRex.value.id.rawValue, UUID(), rex.value.id.rawValue],
                scope: scope)
            #expect(names == [rex.value.id.rawValue: "Rex"])
            #expect(try await records.patientNames(ids: [], scope: scope).isEmpty)
        }
    }

    // MARK: - Import

    static let importHeader =
        "owner_first_name,owner_last_name,owner_email,owner_phone,owner_address_line1,owner_city,owner_postcode,"
        + "owner_country,"
        + "patient_name,species,breed,sex,birth_date,colour,microchip,alerts"
    /// Line 2: Jo with Rex (microchip …901); line 3: Jo with Tibbles; line 4: Ann with Bun.
    static let importRows = [
        """
        Jo,Bloggs,jo@example.com,+44 20 7946 0958,1 High St,Leeds,LS1 1AA,GB,Rex,dog,Collie,male_neutered,2020-05-01,\
        black,826012345678901,bites
        """,
        """
        Jo,Bloggs,jo@example.com,+44 20 7946 0958,1 High St,Leeds,LS1 1AA,GB,Tibbles,cat,,female_spayed,,\"tabby, \
        white\",,
        """,
        "Ann,Lee,,0113 496 0000,,,,,Bun,rabbit,Lionhead,unknown,2024-02-29,,,",
    ]

    static func importPlan(_ rows: [String], skip: Bool = false, now: Date) throws -> PatientImportPlan {
        try PatientImportPlan.validate(([importHeader] + rows).joined(separator: "\n"), now: now, skipInvalidRows: skip)
    }

    @Test(
        "an import plan is stored whole with consecutive record numbers; a refused row refuses it all unless skipped",
        arguments: Adapter.available)
    func importPlan(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await PatientDirectoryContractTests.practice(store, "Riverside"))
            let records = store.medicalRecords
            let al = try await store.records.createOwner(
                Owner(firstName: "Al", lastName: "Ready", email: "al@example.com"), scope: scope)
            _ = try await store.records.createPatient(
                Patient(name: "Chip", species: .dog, microchip: "826012345678901", ownerID: al.id), scope: scope)

            // Rex's microchip is taken: the whole file is refused, nothing of it stored, no number used.
            let plan = try Self.importPlan(Self.importRows, now: store.clock.clock.now())
            await #expect(
                throws: PatientImportError.invalidRows([
                    ImportRowIssue(
                        line: 2,
                        errors: [
                            FieldError(
                                field: "microchip", message: "is already recorded for another patient of this practice")
                        ])
                ])
            ) {
                _ = try await records.importPatients(plan, scope: scope, skipRefused: false, progress: nil)
            }
            #expect(try await records.patientCount(scope: scope) == 1)
            #expect(try await records.ownerCount(scope: scope) == 1)

            // Skipping: Rex is reported, Tibbles keeps Jo as owner, Bun brings Ann; numbers follow on without a gap.
            let progress = ProgressLog()
            let result = try await records.importPatients(
                plan, scope: scope, skipRefused: true, progress: { progress.record($0, $1) })
            #expect(result.patientsCreated == 2 && result.ownersCreated == 2)
            #expect(result.refused.map(\.line) == [2] && result.refused.first?.errors.map(\.field) == ["microchip"])
            #expect(result.recordNumbers?.first == "P-000002" && result.recordNumbers?.last == "P-000003")
            #expect(progress.last == [3, 3])
            #expect(try await records.patientCount(scope: scope) == 3)
            #expect(try await records.ownerCount(scope: scope) == 3)
            #expect(try await PatientDirectoryContractTests.names(store, scope, "bloggs") == ["Tibbles"])
            #expect(try await PatientDirectoryContractTests.names(store, scope, "P-000003") == ["Bun"])
            let next = try await store.records.createPatient(
                Patient(name: "Later", species: .cat, ownerID: al.id), scope: scope)
            #expect(next.medicalRecordNumber == "P-000004")

            // A clean file in a fresh practice: everything, numbered from the first.
            let fresh = AccessScope.system(try await PatientDirectoryContractTests.practice(store, "Hillside"))
            let all = try await records.importPatients(
                try Self.importPlan(Self.importRows, now: store.clock.clock.now()), scope: fresh,
                skipRefused: false, progress: nil)
            #expect(all.patientsCreated == 3 && all.ownersCreated == 2 && all.refused.isEmpty)
            #expect(all.recordNumbers?.first == "P-000001" && all.recordNumbers?.last == "P-000003")
            let audit = try await store.audit.auditEntries(
                scope: fresh, limit: 100, before: nil, resourceType: nil, resourceID: nil
            ).items
            #expect(
                audit.filter { $0.action == "patient.create" }.count == 3
                    && audit.filter { $0.action == "owner.create" }.count == 2)
            #expect(audit.first { $0.action == "patient.import" }?.detail == "owners=2 patients=3 refused=0")
            let imported = try await store.events.events(practiceID: fresh.practiceID, after: 0, limit: 100).events
                .filter { $0.kind == RecordEventKind.imported }
            #expect(imported.map(\.payload) == [["owners": "2", "patients": "3"]])
            #expect(try await store.audit.verifyAuditChain().isIntact)
        }
    }

    // MARK: - Purge

    @Test(
        """
        the purge removes patients archived past the retention period with their whole record, counted; others are \
        untouched
        """,
        arguments: Adapter.available)
    func purge(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let scope = fixture.scope
            let records = store.medicalRecords
            let oldID = fixture.patient
            let old = Identifier<Patient>(oldID)
            let kept = Identifier<Patient>(try await store.patient(scope: scope, name: "Kept"))
            // Old: a completed consultation with its visit, an open one years ahead, a note, a
            // vaccination, a document, and a create keyed for retries.
            let done = try await Self.arrivedAppointment(fixture, at: fixture.morning)
            let started = try await store.scheduling.saveAppointment(
                try done.value.decide(.start, at: store.clock.clock.now()), scope: scope,
                expectedVersion: done.version)
            store.clock.advance(900)
            _ = try await store.scheduling.saveAppointment(
                try started.value.decide(.complete(actualMinutes: 15), at: store.clock.clock.now()),
                scope: scope, expectedVersion: started.version)
            let now = store.clock.clock.now()
            _ = try await records.addVisit(
                Visit(
                    patientID: old, appointmentID: done.value.id.rawValue, occurredAt: now, chiefComplaint: "Cough",
                    diagnoses: [Diagnosis(name: "Examined")]),
                scope: scope)
            _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(9 * 365 * 86_400))
            for patient in [old, kept] {
                try await records.addRecordEntry(
                    .note(
                        ClinicalNote(
                            patientID: patient, author: Self.author, createdAt: now, subjective: "s",
                            objective: "o", assessment: "a", plan: "p")), patientID: patient, scope: scope)
                try await records.addRecordEntry(
                    .vaccination(Vaccination(patientID: patient, vaccine: "DHP", administeredDate: store.day(0))),
                    patientID: patient, scope: scope)
                _ = try await store.documents.addDocument(
                    patientID: patient, fileName: "x-ray.png", declaredType: "image/png",
                    data: DocumentContractTests.png(bytes: 3000), scope: scope)
            }
            // And a triage assessment from an intake, which put the patient on the board.
            let triageResult = TriageEngine(clock: store.clock.clock).evaluate(
                TriageCase(species: .dog, vitals: Vitals(spo2: 85)), arrival: now)
            _ = try await store.triage.recordAssessment(
                scope: scope, patientID: oldID, caseJSON: Data("{}".utf8), result: triageResult, arrival: now,
                admitToQueue: true, intakeRanking: IntakeRanking(appointmentTypeID: fixture.consult.id, ranked: []),
                idempotency: nil)
            let weightKey = IdempotencyKey(key: "weigh-old", fingerprint: "w")
            let weight = WeightMeasurement(patientID: old, value: 20, unit: .kg, measuredAt: now)
            try await records.addRecordEntry(.weight(weight), patientID: old, scope: scope, idempotencyKey: weightKey)

            var archived = try await store.records.patient(scope: scope, id: old).value
            archived.status = .archived
            _ = try await store.records.updatePatient(archived, scope: scope, expectedVersion: nil)
            // Not yet due: nothing goes, the run is audited all the same.
            let early = try await records.purgeArchivedPatients(scope: scope, retentionYears: 7)
            #expect(early.patients == 0 && early.documents == 0)
            // Changed while archived, four years on: retention still runs from the first archiving.
            store.clock.advance(4 * 365 * 86_400)
            var renamed = try await store.records.patient(scope: scope, id: old).value
            renamed.name = "Old Tom"
            _ = try await store.records.updatePatient(renamed, scope: scope, expectedVersion: nil)
            store.clock.advance(4 * 365 * 86_400)
            let keptRecord = try await records.medicalRecord(scope: scope, patientID: kept)

            await #expect(throws: ValidationError(field: "retentionYears", message: "must be between 1 and 100 years"))
            {
                _ = try await records.purgeArchivedPatients(scope: scope, retentionYears: 0)
            }
            let summary = try await records.purgeArchivedPatients(scope: scope, retentionYears: 7)
            var expected = PurgeSummary(retention: try RetentionPeriod(years: 7))
            expected.patients = 1
            expected.appointments = 2
            expected.futureAppointments = 1
            expected.assessments = 1
            expected.documents = 1
            #expect(summary == expected)

            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await store.records.patient(scope: scope, id: old)
            }
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await records.visits(scope: scope, patientID: old)
            }
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await store.documents.documents(patientID: old, scope: scope)
            }
            #expect(try await records.patientCount(scope: scope) == 1)
            #expect(try await records.medicalRecord(scope: scope, patientID: kept).0 == keptRecord.0)
            #expect(try await store.documents.documents(patientID: kept, scope: scope).count == 1)
            let year = TimeRange(
                start: fixture.morning.addingTimeInterval(-86_400),
                end: fixture.morning.addingTimeInterval(10 * 365 * 86_400))!
            #expect(
                try await store.scheduling.appointments(
                    scope: scope, overlapping: year, clinicianID: nil, orRoomType: nil
                ).isEmpty)
            #expect(try await PatientDirectoryContractTests.names(store, scope, nil) == ["Kept"])
            // Nothing of the patient is left in any table.
            if let postgres = store.postgres?.owner {
                for table in [
                    "weight", "vaccination", "clinical_note", "visit", "document", "appointment", "triage_assessment",
                    "triage_queue",
                    "triage_arrival", "intake_ranking",
                ] {
                    #expect(
                        try await countRows(
                            postgres, "SELECT count(*) FROM \(unescaped: table) WHERE patient_id = \(oldID)") == 0,
                        "\(table)")
                }
                #expect(try await countRows(postgres, "SELECT count(*) FROM document_chunk") == 1)
            }
            // A retried write keyed before the purge no longer answers with what was purged: registered
            // again, the patient takes the weight afresh under the same key.
            _ = try await store.records.createPatient(archived, scope: scope)
            try await records.addRecordEntry(.weight(weight), patientID: old, scope: scope, idempotencyKey: weightKey)
            #expect(try await records.medicalRecord(scope: scope, patientID: old).0.weights.measurements == [weight])

            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 500, before: nil, resourceType: nil, resourceID: nil
            ).items
            #expect(audit.filter { $0.action == "patient.purge" }.map(\.resourceID) == [old.description])
            #expect(
                audit.first { $0.action == "patient.purge" }?.detail
                    == "appointments=2 futureAppointments=1 assessments=1 documents=1")
            #expect(
                audit.filter { $0.action == "records.purge" }.map(\.detail) == [
                    "retentionYears=7 patients=1 appointments=2 futureAppointments=1 assessments=1 documents=1",
                    "retentionYears=7 patients=0 appointments=0 futureAppointments=0 assessments=0 documents=0",
                ])
            let purged = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 500).events
                .filter { $0.kind == RecordEventKind.patientPurged }
            #expect(purged.map(\.resourceID) == [old.description])
            #expect(try await store.triage.activeQueue(scope: scope).isEmpty)
            #expect(try await store.audit.verifyAuditChain().isIntact)
        }
    }
}

/// The calls of an import's progress handler.
final class ProgressLog: Sendable {
    private let calls = Mutex<[[Int]]>([])
    func record(_ done: Int, _ total: Int) { calls.withLock { $0.append([done, total]) } }
    var last: [Int]? { calls.withLock { $0.last } }
}

/// Corrections on either store: decided by the domain against the stored record, kept in
/// order, applied on every read, and refused alike.
@Suite("Storage contract: record corrections")
struct RecordCorrectionContractTests {
    @Test(
        "a weight in error leaves the record's figures; a stopped medicine is stopped; refusals change nothing",
        arguments: Adapter.available)
    func corrections(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Corrections")
            let scope = fixture.scope
            let patientID = Identifier<Patient>(fixture.patient)
            let now = store.clock.clock.now()
            let wrong = WeightMeasurement(
                patientID: patientID, value: 2, unit: .kg, measuredAt: now.addingTimeInterval(-60))
            let right = WeightMeasurement(
                patientID: patientID, value: 20, unit: .kg, measuredAt: now.addingTimeInterval(-3600))
            let medicine = Medication(
                patientID: patientID, drug: "Meloxicam", concentrationMgPerML: Decimal(string: "1.5")!,
                doseMgPerKg: Decimal(string: "0.1")!, route: .oral, frequency: "once daily",
                startDate: now.addingTimeInterval(-86_400 * 3))
            for entry: RecordEntry in [.weight(right), .weight(wrong), .medication(medicine)] {
                try await store.medicalRecords.addRecordEntry(entry, patientID: patientID, scope: scope)
            }
            _ = try await store.medicalRecords.correctRecordEntry(
                .enteredInError(reason: "typed 2 for 20"), entryKind: .weight,
                entryID: wrong.id.rawValue, patientID: patientID, scope: scope,
                idempotencyKey: nil)
            await #expect(throws: ValidationError.self) {
                _ = try await store.medicalRecords.correctRecordEntry(
                    .stopMedication(on: now, reason: " "), entryKind: .medication,
                    entryID: medicine.id.rawValue, patientID: patientID, scope: scope,
                    idempotencyKey: nil)
            }
            _ = try await store.medicalRecords.correctRecordEntry(
                .stopMedication(on: now, reason: "GI upset"), entryKind: .medication,
                entryID: medicine.id.rawValue, patientID: patientID, scope: scope,
                idempotencyKey: nil)
            await #expect(throws: DomainError.self) {
                _ = try await store.medicalRecords.correctRecordEntry(
                    .stopMedication(on: now, reason: "again"), entryKind: .medication,
                    entryID: medicine.id.rawValue, patientID: patientID, scope: scope,
                    idempotencyKey: nil)
            }
            let record = try await store.medicalRecords.medicalRecord(scope: scope, patientID: patientID).0
            #expect(record.weights.latest?.id == right.id)
            #expect(
                record.retractedEntries.weights.map(\.id) == [wrong.id]
                    && record.retracted[wrong.id.rawValue]?.reason == "typed 2 for 20")
            #expect(!record.isBeingGiven(try #require(record.medications.first), on: now))
            #expect(record.corrections.map(\.change.name) == ["entered_in_error", "stop"])
            // Another practice cannot correct it.
            let other = try await SchedulingFixture.make(store, name: "Elsewhere")
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await store.medicalRecords.correctRecordEntry(
                    .enteredInError(reason: "x"), entryKind: .medication,
                    entryID: medicine.id.rawValue, patientID: patientID, scope: other.scope,
                    idempotencyKey: nil)
            }
        }
    }
}
