import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import Testing
import Triage

extension StoreUnderTest {
    /// The store's transfer port.
    var transfer: any PracticeTransfer {
        if let postgres { return postgres.store }
        return sqlite!
    }
}

/// Moving a practice between the stores: `vetnet export` from SQLite, `vetnet import
/// practice` into PostgreSQL, and back, with records, schedule, documents and audit trail.
@Suite(
    "Moving a practice between SQLite and PostgreSQL",
    .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
struct PracticeTransferTests {
    /// A practice with something of everything an export carries.
    static func populate(_ store: StoreUnderTest) async throws -> SchedulingFixture {
        let fixture = try await SchedulingFixture.make(store, name: "Moving")
        let scope = fixture.scope
        let patientID = Identifier<Patient>(fixture.patient)
        let now = store.clock.clock.now()
        let author = NoteAuthor(id: try #require(scope.actorID), displayName: "Admin")
        let note = ClinicalNote(
            patientID: patientID, author: author, createdAt: now.addingTimeInterval(-60),
            subjective: "Limping since Tuesday",
            objective: "T 38.6", assessment: "soft tissue injury", plan: "rest")
        for entry: RecordEntry in [
            .weight(
                WeightMeasurement(
                    patientID: patientID, value: Decimal(string: "23.45")!, unit: .kg,
                    measuredAt: now.addingTimeInterval(-3600))),
            .problem(Problem(patientID: patientID, name: "Lameness")),
            .allergy(Allergy(patientID: patientID, substance: "penicillin", reaction: "hives", severity: .moderate)),
            .vaccination(
                Vaccination(
                    patientID: patientID, vaccine: "DHP", administeredDate: now.addingTimeInterval(-86_400 * 30),
                    batchNumber: "B-77", nextDueDate: now.addingTimeInterval(86_400 * 300))),
            .note(note),
            .addendum(Addendum(noteID: note.id, author: author, createdAt: now, text: "Owner reports improvement")),
        ] { try await store.medicalRecords.addRecordEntry(entry, patientID: patientID, scope: scope) }
        // Corrections travel with the record: the allergy refuted, the problem resolved.
        let written = try await store.medicalRecords.medicalRecord(scope: scope, patientID: patientID).0
        _ = try await store.medicalRecords.correctRecordEntry(
            .refuteAllergy(reason: "tolerated a course"), entryKind: .allergy,
            entryID: try #require(written.allergies.first).id.rawValue, patientID: patientID,
            scope: scope, idempotencyKey: nil)
        _ = try await store.medicalRecords.correctRecordEntry(
            .resolveProblem(on: now, note: "sound"), entryKind: .problem,
            entryID: try #require(written.problems.first).id.rawValue, patientID: patientID,
            scope: scope, idempotencyKey: nil)
        let engine = TriageEngine(clock: store.clock.clock)
        let (assessed, _) = try await store.triage.recordAssessment(
            scope: scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
            result: engine.evaluate(TriageCase(species: .dog, vitals: Vitals(spo2: 85)), arrival: now), arrival: now)
        // Judgement raised it, and the patient left unseen: both travel with the practice.
        let nurse = AccessScope(practiceID: scope.practiceID, actorID: UserID(), role: .technician, requestID: nil)
        _ = try await store.triage.overrideAssessment(
            scope: nurse, assessmentID: assessed.id,
            request: OverrideRequest(level: .red, reason: "grey gums on arrival"))
        store.clock.advance(60)
        _ = try await store.triage.moveQueueEntry(scope: scope, patientID: fixture.patient, to: .leftWithoutBeingSeen)
        let pdf = Data("%PDF-1.4\nlab results\n%%EOF".utf8)
        _ = try await store.documents.addDocument(
            patientID: patientID, fileName: "labs.pdf", declaredType: "application/pdf", data: pdf, scope: scope)
        _ = try await fixture.book(fixture.surgery, at: fixture.morning.addingTimeInterval(7200))
        let later = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(86_400)).0
        let cancel = try later.value.decide(.cancel(reason: "owner away"), at: store.clock.clock.now())
        _ = try await store.scheduling.saveAppointment(cancel, scope: scope, expectedVersion: later.version)
        let arrived = try await MedicalRecordContractTests.arrivedAppointment(fixture, at: fixture.morning).value
        _ = try await store.appointmentNotes.addAppointmentNote(
            try AppointmentNote.write(
                "Owner rang: bring the X-rays", on: arrived.id, authorID: scope.actorID?.description,
                authorName: "Grace",
                at: store.clock.clock.now()), scope: scope, idempotencyKey: nil)
        _ = try await store.medicalRecords.addVisit(
            Visit(
                patientID: patientID, appointmentID: arrived.id.rawValue, occurredAt: store.clock.clock.now(),
                chiefComplaint: "Lame left hind", diagnoses: [Diagnosis(name: "Examined")]), scope: scope)
        return fixture
    }

    /// What an audit entry says, apart from its place in a chain.
    static func content(_ entry: AuditEntry) -> [String?] {
        [
            entry.id.uuidString, entry.occurredAt, entry.practiceID, entry.actorID, entry.action, entry.resourceType,
            entry.resourceID,
            entry.outcome.rawValue, entry.requestID, entry.detail,
        ]
    }

    /// `moved` is `original` restored elsewhere: the same document once the time of the export
    /// and the restore's own audit entries (after the carried trail) are set aside.
    static func expectSame(_ moved: PracticeExport, _ original: PracticeExport) {
        var moved = moved
        moved.exportedAt = original.exportedAt
        let carried = Array((moved.audit ?? []).prefix(original.audit?.count ?? 0))
        #expect(carried.map(content) == (original.audit ?? []).map(content))
        #expect(moved.audit?.dropFirst(carried.count).contains { $0.action == "practice.restore" } == true)
        moved.audit = original.audit
        #expect(moved.patients == original.patients)
        #expect(moved.schedule == original.schedule)
        #expect(moved.documents == original.documents)
        #expect(moved == original)
    }

    @Test("SQLite → PostgreSQL → SQLite: the same practice each time, documents readable, every chain intact")
    func roundTrip() async throws {
        try await withStore(.sqlite) { sqlite in
            let fixture = try await Self.populate(sqlite)
            let practiceID = fixture.scope.practiceID
            let first = try PracticeExport.decode(
                try await sqlite.transfer.exportPractice(scope: fixture.scope, documentContent: true).jsonData())
            #expect(first.documents.first?.content != nil && (first.audit?.count ?? 0) > 20)
            #expect(first.schedule?.appointments.count == 3 && first.triageAssessments.count == 1)
            #expect(first.triageAssessments.first?.overrides?.map(\.reason) == ["grey gums on arrival"])
            #expect(first.patients.first?.corrections?.map(\.change.name) == ["refute", "resolve"])
            #expect(first.triageArrivals?.first?.leftAt != nil)
            #expect(
                first.schedule?.appointments.compactMap(\.notes).flatMap { $0 }.map(\.text) == [
                    "Owner rang: bring the X-rays"
                ])

            try await withStore(.postgres) { postgres in
                // A hand-made file whose appointment note names another appointment is refused whole.
                var misfiled = first
                let index = try #require(misfiled.schedule?.appointments.firstIndex { $0.notes != nil })
                let note = try #require(misfiled.schedule?.appointments[index].notes?.first)
                misfiled.schedule?.appointments[index].notes = [
                    AppointmentNote(
                        id: note.id, appointmentID: Identifier(), authorID: note.authorID, authorName: note.authorName,
                        text: note.text, createdAt: note.createdAt)
                ]
                await #expect(throws: ValidationError.self) {
                    _ = try await postgres.transfer.restorePractice(misfiled, requestID: nil, progress: nil)
                }
                let summary = try await postgres.transfer.restorePractice(first, requestID: "move", progress: nil)
                #expect(
                    summary.patients == 1 && summary.recordEntries == 6 && summary.documents == 1
                        && summary.auditEntries == first.audit?.count)
                let second = try PracticeExport.decode(
                    try await postgres.transfer.exportPractice(scope: .system(practiceID), documentContent: true)
                        .jsonData())
                Self.expectSame(second, first)
                // What staff read there is what they read before.
                let record = try await postgres.medicalRecords.medicalRecord(
                    scope: .system(practiceID), patientID: Identifier(fixture.patient)
                ).0
                #expect(record.notes.notes.map(\.subjective) == ["Limping since Tuesday"])
                let noted = try #require(first.schedule?.appointments.first { $0.notes != nil }?.appointment.id)
                #expect(
                    try await postgres.appointmentNotes.appointmentNotes(
                        scope: .system(practiceID), appointmentID: noted
                    ).map(\.text)
                        == ["Owner rang: bring the X-rays"])
                let document = try #require(first.documents.first)
                let (_, content) = try await postgres.documents.document(
                    id: try #require(UUID(uuidString: document.id)),
                    patientID: Identifier(fixture.patient), scope: .system(practiceID))
                #expect(content.base64EncodedString() == document.content)
                #expect(try await postgres.audit.verifyAuditChain().isIntact)
                // Restoring it again is refused whole: a restore never merges.
                await #expect(throws: RestoreError.storeNotEmpty) {
                    _ = try await postgres.transfer.restorePractice(first, requestID: nil, progress: nil)
                }

                // And back into an empty embedded store.
                try await withStore(.sqlite) { back in
                    _ = try await back.transfer.restorePractice(second, requestID: "move-back", progress: nil)
                    let third = try await back.transfer.exportPractice(
                        scope: .system(practiceID), documentContent: true)
                    Self.expectSame(third, second)
                    #expect(try await back.audit.verifyAuditChain().isIntact)
                }
            }
        }
    }
}
