import Analytics
import Foundation
import Scheduling
import SharedKernel
import StoragePorts
import Testing
import Triage

extension StoreUnderTest {
    /// The store's triage port.
    var triage: any TriageRepository {
        if let postgres { return postgres.store }
        return sqlite!
    }
}

/// Triage on either store: assessments kept with their results, the ER board following the
/// latest one by the domain's rules, and intake bookings recording the assessment they came from.
@Suite("Storage contract: triage")
struct TriageContractTests {
    static func result(_ engine: TriageEngine, spo2: Double, arrival: Date) -> TriageResult {
        engine.evaluate(TriageCase(species: .dog, vitals: Vitals(spo2: spo2)), arrival: arrival)
    }

    @Test(
        """
        an assessment admits the patient to the board; a re-triage moves them; the board shows name, record number, \
        species and alerts
        """,
        arguments: Adapter.available)
    func boardFollowsAssessments(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Triage")
            let engine = TriageEngine(clock: store.clock.clock)
            let arrival = store.clock.clock.now().addingTimeInterval(-300)
            let orange = Self.result(engine, spo2: 85, arrival: arrival)
            let (first, admitted) = try await store.triage.recordAssessment(
                scope: fixture.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                result: orange, arrival: arrival)
            #expect(first.level == .orange && admitted?.entry.status == .waiting)
            var board = try await store.triage.activeQueue(scope: fixture.scope)
            #expect(board.map(\.name) == ["Rex"] && board.first?.entry.level == .orange)
            #expect(board.first?.medicalRecordNumber.hasPrefix("P-") == true && board.first?.species == "dog")

            store.clock.advance(60)
            let yellow = Self.result(engine, spo2: 92, arrival: arrival)
            _ = try await store.triage.recordAssessment(
                scope: fixture.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                result: yellow, arrival: arrival)
            board = try await store.triage.activeQueue(scope: fixture.scope)
            #expect(board.count == 1 && board.first?.entry.level == yellow.level)

            let moved = try await store.triage.moveQueueEntry(
                scope: fixture.scope, patientID: fixture.patient, to: .inTreatment)
            #expect(moved.entry.status == .inTreatment)
            _ = try await store.triage.moveQueueEntry(scope: fixture.scope, patientID: fixture.patient, to: .done)
            #expect(try await store.triage.activeQueue(scope: fixture.scope).isEmpty)
            // A finished visit cannot go back to waiting: the domain's rule, on either store.
            await #expect(throws: (any Error).self) {
                _ = try await store.triage.moveQueueEntry(
                    scope: fixture.scope, patientID: fixture.patient, to: .waiting)
            }
            // The history keeps both assessments, newest first, page by page.
            let page = try await store.triage.assessments(
                scope: fixture.scope, patientID: fixture.patient, limit: 1, before: nil)
            #expect(page.items.map(\.level) == [yellow.level])
            let cursor = try #require(page.nextCursor.flatMap { Int64($0) })
            let rest = try await store.triage.assessments(
                scope: fixture.scope, patientID: fixture.patient, limit: 5, before: cursor)
            #expect(rest.items.map(\.id) == [first.id] && rest.nextCursor == nil)
            let reads = try await store.audit.auditEntries(
                scope: fixture.scope, limit: 50, before: nil, resourceType: nil, resourceID: nil
            ).items
            #expect(
                reads.contains { $0.action == "triage.history.read" } && reads.contains { $0.action == "triage.assess" }
            )
        }
    }

    @Test(
        """
        an assessment sent twice with one Idempotency-Key (a device replaying its outbox) is recorded once; the key \
        on another request is refused
        """,
        arguments: Adapter.available)
    func assessmentReplay(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Replay")
            let engine = TriageEngine(clock: store.clock.clock)
            let now = store.clock.clock.now()
            let key = IdempotencyKey(key: "outbox-1", fingerprint: "case-a")
            func send(_ key: IdempotencyKey, spo2: Double) async throws -> (StoredAssessment, QueueChange?) {
                try await store.triage.recordAssessment(
                    scope: fixture.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                    result: Self.result(engine, spo2: spo2, arrival: now), arrival: now,
                    admitToQueue: true, intakeRanking: nil, idempotency: key)
            }
            let (first, admitted) = try await send(key, spo2: 85)
            #expect(admitted?.entry.status == .waiting)
            store.clock.advance(30)
            let (again, change) = try await send(key, spo2: 85)
            #expect(again.id == first.id && again.level == first.level && change == nil)
            let history = try await store.triage.assessments(
                scope: fixture.scope, patientID: fixture.patient, limit: 10, before: nil)
            #expect(history.items.map(\.id) == [first.id])
            await #expect(throws: DomainError.self) {
                _ = try await send(IdempotencyKey(key: "outbox-1", fingerprint: "case-b"), spo2: 92)
            }
            #expect(
                try await store.triage.assessments(
                    scope: fixture.scope, patientID: fixture.patient, limit: 10, before: nil
                ).items.count == 1)
        }
    }

    @Test(
        "another practice's patient cannot be assessed or read, and a non-urgent intake can be kept off the board",
        arguments: Adapter.available)
    func isolationAndIntake(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Triage")
            let other = try await SchedulingFixture.make(store, name: "Elsewhere")
            let engine = TriageEngine(clock: store.clock.clock)
            let now = store.clock.clock.now()
            await #expect(throws: DomainError.self) {
                _ = try await store.triage.recordAssessment(
                    scope: other.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                    result: Self.result(engine, spo2: 98, arrival: now), arrival: now)
            }
            await #expect(throws: DomainError.self) {
                _ = try await store.triage.assessments(
                    scope: other.scope, patientID: fixture.patient, limit: 5, before: nil)
            }
            let (kept, change) = try await store.triage.recordAssessment(
                scope: fixture.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                result: Self.result(engine, spo2: 98, arrival: now),
                arrival: now, admitToQueue: false,
                intakeRanking: IntakeRanking(appointmentTypeID: fixture.consult.id, ranked: []), idempotency: nil)
            #expect(change == nil)
            #expect(try await store.triage.activeQueue(scope: fixture.scope).isEmpty)

            // Booking from the intake: the assessment must be this patient's.
            func book(assessment: UUID, at start: Date) async throws -> Versioned<Appointment> {
                let (practiceID, patientID, clinicianID) = (
                    fixture.scope.practiceID, fixture.patient, fixture.vet.id.rawValue
                )
                return try await store.scheduling.bookAppointment(
                    scope: fixture.scope, patientID: patientID, clinicianID: clinicianID,
                    appointmentTypeID: fixture.consult.id, reason: nil,
                    staffNotes: nil, assessmentID: assessment, idempotencyKey: nil,
                    reads: { _, _ in
                        BookingReads(
                            clinicianPeriod: TimeRange(
                                start: start.addingTimeInterval(-3600), end: start.addingTimeInterval(3600))!,
                            roomWindow: TimeRange(start: start, end: start.addingTimeInterval(900))!)
                    },
                    decide: { data in
                        guard let type = data.types.first else {
                            throw DomainError.notFound(resource: "appointment type")
                        }
                        return try Appointment.book(
                            practiceID: practiceID, patientID: patientID, clinicianID: clinicianID, type: type,
                            start: start,
                            roomID: nil, now: now
                        ).current
                    }
                ).0
            }
            let stranger = try await store.patient(scope: fixture.scope, name: "Kit")
            let (strangers, _) = try await store.triage.recordAssessment(
                scope: fixture.scope, patientID: stranger, caseJSON: Data("{}".utf8),
                result: Self.result(engine, spo2: 98, arrival: now), arrival: now,
                admitToQueue: false, intakeRanking: nil, idempotency: nil)
            do {
                _ = try await book(assessment: strangers.id.rawValue, at: fixture.morning)
                Issue.record("a booking on another patient's assessment was accepted")
            } catch let error as ValidationError {
                #expect(error.errors.map(\.field) == ["assessmentId"])
            }
            let booked = try await book(assessment: kept.id.rawValue, at: fixture.morning)
            #expect(booked.value.patientID == fixture.patient)
        }
    }

    @Test(
        """
        the board's transitions keep each visit for VTL compliance: level until first seen, the first-seen time, a \
        second visit beside it
        """,
        arguments: Adapter.available)
    func arrivalsKept(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Arrivals")
            let engine = TriageEngine(clock: store.clock.clock)
            let clock = store.clock
            let arrival = clock.clock.now().addingTimeInterval(-600)
            func assess(_ spo2: Double?, at arrival: Date) async throws -> TriageResult {
                let result = engine.evaluate(
                    TriageCase(species: .dog, vitals: spo2.map { Vitals(spo2: $0) } ?? Vitals()), arrival: arrival)
                _ = try await store.triage.recordAssessment(
                    scope: fixture.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                    result: result, arrival: arrival)
                return result
            }
            _ = try await assess(85, at: arrival)
            clock.advance(120)
            let yellow = try await assess(92, at: arrival)
            clock.advance(300)
            let seen = clock.clock.now()
            _ = try await store.triage.moveQueueEntry(
                scope: fixture.scope, patientID: fixture.patient, to: .inTreatment)
            // A re-triage after first contact, and the end of treatment, change neither the level counted nor the
            // first-seen time.
            clock.advance(60)
            _ = try await assess(85, at: arrival)
            clock.advance(1200)
            _ = try await store.triage.moveQueueEntry(scope: fixture.scope, patientID: fixture.patient, to: .done)
            // A second visit a day later, who leaves unseen.
            clock.advance(86_400)
            let secondArrival = clock.clock.now()
            let blue = try await assess(nil, at: secondArrival)
            clock.advance(60)
            _ = try await store.triage.moveQueueEntry(
                scope: fixture.scope, patientID: fixture.patient, to: .leftWithoutBeingSeen)

            let range = DateInterval(
                start: arrival.addingTimeInterval(-3600), end: clock.clock.now().addingTimeInterval(3600))
            let history = try await store.analytics.practiceHistory(
                scope: fixture.scope, window: HistoryWindow(appointmentRanges: [], arrivalRanges: [range]),
                action: .analyticsReportRead)
            #expect(history.triageArrivals.map(\.arrival) == [arrival, secondArrival])
            #expect(
                history.triageArrivals.first?.level == yellow.level && history.triageArrivals.first?.firstSeenAt == seen
            )
            #expect(history.triageArrivals.last?.level == blue.level && history.triageArrivals.last?.firstSeenAt == nil)
            #expect(
                history.triageArrivals.last?.leftAt == secondArrival.addingTimeInterval(60),
                "the wait stops when they left")
        }
    }
}

/// Clinical judgement and the board's deadlines on either store: the decisions are the
/// domain's, the stores keep them, and an announcement is made once however often it is asked for.
@Suite("Storage contract: clinical judgement and board deadlines")
struct TriageJudgementContractTests {
    @Test(
        """
        an override is kept beside the computed level, moves the board, is audited and published; a lowering by a \
        technician changes nothing
        """,
        arguments: Adapter.available)
    func overrideKept(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Judgement")
            let engine = TriageEngine(clock: store.clock.clock)
            let now = store.clock.clock.now()
            let red = engine.evaluate(TriageCase(species: .dog, findings: [.seizingNow]), arrival: now)
            #expect(red.level == .red)
            let (assessed, _) = try await store.triage.recordAssessment(
                scope: fixture.scope, patientID: fixture.patient,
                caseJSON: Data("{}".utf8), result: red, arrival: now)
            let technician = AccessScope(
                practiceID: fixture.scope.practiceID, actorID: UserID(), role: .technician, requestID: nil)
            let vet = AccessScope(
                practiceID: fixture.scope.practiceID, actorID: UserID(), role: .veterinarian, requestID: nil)
            await #expect(throws: DomainError.self) {
                _ = try await store.triage.overrideAssessment(
                    scope: technician, assessmentID: assessed.id,
                    request: OverrideRequest(level: .orange, reason: "pinking up"))
            }
            await #expect(throws: ValidationError.self) {
                _ = try await store.triage.overrideAssessment(
                    scope: vet, assessmentID: assessed.id,
                    request: OverrideRequest(level: .orange, reason: "pinking up"))
            }
            #expect(try await store.triage.activeQueue(scope: fixture.scope).first?.entry.level == .red)
            store.clock.advance(30)
            let (stored, change) = try await store.triage.overrideAssessment(
                scope: vet, assessmentID: assessed.id,
                request: OverrideRequest(level: .orange, reason: "pinking up on oxygen", confirmLoweringRed: true))
            #expect(stored.level == .red && stored.currentLevel == .orange)
            #expect(stored.overrides.map(\.overriddenBy) == [vet.actorID!.description])
            #expect(change?.entry.level == .orange)
            let entry = try #require(try await store.triage.activeQueue(scope: fixture.scope).first?.entry)
            #expect(
                entry.level == .orange && entry.isLoweredRedAwaitingCare
                    && entry.override?.reason == "pinking up on oxygen")
            let history = try await store.triage.assessments(
                scope: fixture.scope, patientID: fixture.patient, limit: 5, before: nil)
            #expect(history.items.first?.overrides.count == 1)
            // Another practice's scope cannot reach it.
            let other = try await SchedulingFixture.make(store, name: "Elsewhere")
            await #expect(throws: DomainError.notFound(resource: "assessment")) {
                _ = try await store.triage.overrideAssessment(
                    scope: AccessScope(
                        practiceID: other.scope.practiceID, actorID: UserID(), role: .veterinarian, requestID: nil),
                    assessmentID: assessed.id, request: OverrideRequest(level: .red, reason: "x"))
            }
            let audit = try await store.audit.auditEntries(
                scope: fixture.scope, limit: 50, before: nil, resourceType: nil, resourceID: nil
            ).items
            #expect(audit.filter { $0.action == "triage.override" }.count == 1)
            let judgement = try await store.triage.triageJudgement(
                scope: fixture.scope, from: now.addingTimeInterval(-60),
                to: store.clock.clock.now().addingTimeInterval(60))
            #expect(judgement.assessments.count == 1 && judgement.overrides.map(\.direction) == [.lowered])
        }
    }

    @Test(
        "deadlines are announced once each, on the event stream, however often the store is asked",
        arguments: Adapter.available)
    func announcedOnce(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Deadlines")
            let engine = TriageEngine(clock: store.clock.clock)
            let now = store.clock.clock.now()
            let orange = engine.evaluate(TriageCase(species: .dog, vitals: Vitals(spo2: 85)), arrival: now)
            _ = try await store.triage.recordAssessment(
                scope: fixture.scope, patientID: fixture.patient, caseJSON: Data("{}".utf8),
                result: orange, arrival: now)
            #expect(try await store.triage.announceBoardDeadlines() == 0)
            store.clock.advance(16 * 60)
            #expect(try await store.triage.announceBoardDeadlines() == 2)
            #expect(try await store.triage.announceBoardDeadlines() == 0)
            let events = try await store.events.events(practiceID: fixture.scope.practiceID, after: 0, limit: 100)
                .events
            #expect(events.filter { $0.kind == TriageEventKind.patientOverdue }.count == 1)
            #expect(events.filter { $0.kind == TriageEventKind.reassessmentDue }.count == 1)
            // Seen: nothing more to announce for this visit.
            _ = try await store.triage.moveQueueEntry(
                scope: fixture.scope, patientID: fixture.patient, to: .inTreatment)
            store.clock.advance(3600)
            #expect(try await store.triage.announceBoardDeadlines() == 0)
        }
    }
}
