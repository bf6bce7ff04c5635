import Analytics
import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSQLite
import Testing
import Triage

/// The adapter side of practice analytics: the facts the lifecycle overwrites (when an
/// appointment was cancelled, when a triaged patient was first seen) are kept by the write
/// paths themselves, and the history read returns them for the window asked, of the
/// practice asked, and nothing else.
@Suite("Analytics store")
struct AnalyticsStoreTests {
    /// A practice with a clinician, a type, a room and two patients.
    struct Setup {
        let practices: TwoPractices
        let scope: AccessScope
        let clinician: Clinician
        let type: AppointmentType
        let room: Room
        let rex: Patient
        let tom: Patient

        static func make() async throws -> Setup {
            let practices = try await TwoPractices.make()
            let scope = practices.scope(practices.adminA)
            let store = practices.store
            let clinician = try await store.createClinician(
                Clinician(
                    displayName: "Dr Hart", credentials: "MRCVS", expertise: [],
                    species: [.dog, .cat], maxAppointmentsPerDay: 20, complexityCeiling: 1),
                scope: scope)
            let type = try await store.createAppointmentType(
                AppointmentType(
                    name: "Consultation", defaultDurationMinutes: 20,
                    fee: Money(minorUnits: 4500, currency: "GBP")), scope: scope)
            let room = try await store.createRoom(Room(name: "Consult 1", type: .exam), scope: scope)
            let owner = try await store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
            let rex = try await store.createPatient(
                Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
            let tom = try await store.createPatient(
                Patient(name: "Tom", species: .cat, ownerID: owner.id), scope: scope)
            return Setup(
                practices: practices, scope: scope, clinician: clinician, type: type, room: room, rex: rex, tom: tom)
        }

        var store: VetNetStore { practices.store }
        var now: Date { practices.clock.clock.now() }

        func appointment(_ patient: Patient, at start: Date, minutes: Int = 20, status: AppointmentStatus = .booked)
            -> Appointment
        {
            Appointment(
                practiceID: practices.a.id, patientID: patient.id.rawValue, clinicianID: clinician.id.rawValue,
                appointmentTypeID: type.id, roomType: .exam, roomID: room.id,
                time: TimeRange(start: start, end: start.addingTimeInterval(Double(minutes) * 60))!, status: status)
        }

        func history(_ from: Date, _ to: Date) async throws -> PracticeHistory {
            try await store.practiceHistory(
                scope: scope,
                window: HistoryWindow(
                    appointmentRanges: [DateInterval(start: from, end: to)],
                    arrivalRanges: [DateInterval(start: from, end: to)],
                    firstVisitCutoff: from),
                action: .analyticsReportRead)
        }
    }

    // MARK: - Cancellation times

    @Test("cancelling writes the moment of the cancellation with the change; other transitions leave it empty")
    func cancelledAt() async throws {
        let setup = try await Setup.make()
        let start = setup.now.addingTimeInterval(2 * 86_400)
        let cancelled = setup.appointment(setup.rex, at: start)
        let kept = setup.appointment(setup.tom, at: start.addingTimeInterval(3600))
        try await setup.store.bulkLoadHistory(
            appointments: [
                AppointmentRecord(cancelled, bookedAt: setup.now),
                AppointmentRecord(kept, bookedAt: setup.now),
            ],
            arrivals: [], weights: [], scope: setup.scope)
        setup.practices.clock.advance(3600)
        let moment = setup.now
        let moved = TimeRange(
            start: kept.time.start.addingTimeInterval(1800), end: kept.time.end.addingTimeInterval(1800))!
        _ = try await setup.store.saveAppointment(
            try kept.decide(.reschedule(to: moved, clinicianID: nil), at: moment),
            scope: setup.scope, expectedVersion: 1)
        _ = try await setup.store.saveAppointment(
            try cancelled.decide(.cancel(reason: "owner rang"), at: moment),
            scope: setup.scope, expectedVersion: 1)
        setup.practices.clock.advance(600)

        let history = try await setup.history(start.addingTimeInterval(-86_400), start.addingTimeInterval(86_400))
        let byID = Dictionary(uniqueKeysWithValues: history.appointments.map { ($0.appointment.id, $0) })
        #expect(byID[cancelled.id]?.appointment.status == .cancelled)
        #expect(byID[cancelled.id]?.cancelledAt == moment)
        #expect(byID[kept.id]?.cancelledAt == nil)
        #expect(byID[kept.id]?.appointment.time == moved)
        #expect(byID[cancelled.id]?.bookedAt == setup.practices.clock.clock.now().addingTimeInterval(-4200))
        // The row and its event agree on the moment.
        let events = try await setup.store.events(practiceID: setup.practices.a.id, after: 0, limit: 100).events
        #expect(events.first { $0.kind == AppointmentEventKind.cancelled }?.occurredAt == moment)
    }

    @Test("a late cancellation made through the store counts as late in the metrics")
    func lateCancellationCounted() async throws {
        let setup = try await Setup.make()
        let start = setup.now.addingTimeInterval(5 * 3600) // five hours' notice
        let appointment = setup.appointment(setup.rex, at: start)
        try await setup.store.bulkLoadHistory(
            appointments: [AppointmentRecord(appointment, bookedAt: setup.now.addingTimeInterval(-86_400 * 3))],
            arrivals: [], weights: [], scope: setup.scope)
        _ = try await setup.store.saveAppointment(
            try appointment.decide(.cancel(reason: "ill"), at: setup.now), scope: setup.scope, expectedVersion: 1)
        let history = try await setup.history(start.addingTimeInterval(-86_400), start.addingTimeInterval(86_400))
        let analytics = PracticeAnalytics(history: history)
        let figures = analytics.metrics(
            for: analytics.period(DateInterval(start: start.addingTimeInterval(-3600), duration: 7200)), asOf: start)
        #expect(figures.practice.lateCancellations.count == 1)
        #expect(figures.practice.cancellationsWithoutTime == 0)
    }

    // MARK: - Triage arrivals

    @Test(
        """
        the ER board's transitions keep each visit: level until first seen, first-seen time, a second visit beside \
        the first
        """
    )
    func arrivals() async throws {
        let setup = try await Setup.make()
        let engine = TriageEngine(clock: setup.practices.clock.clock)
        let arrival = setup.now.addingTimeInterval(-600)
        let orange = engine.evaluate(TriageCase(species: .dog, vitals: Vitals(spo2: 85)), arrival: arrival)
        #expect(orange.level == .orange)
        _ = try await setup.store.recordAssessment(
            scope: setup.scope, patientID: setup.rex.id.rawValue, caseJSON: Data("{}".utf8),
            result: orange, arrival: arrival)
        setup.practices.clock.advance(120)
        let yellow = engine.evaluate(TriageCase(species: .dog, vitals: Vitals(spo2: 92)), arrival: arrival)
        #expect(yellow.level == .yellow)
        _ = try await setup.store.recordAssessment(
            scope: setup.scope, patientID: setup.rex.id.rawValue, caseJSON: Data("{}".utf8),
            result: yellow, arrival: arrival)
        setup.practices.clock.advance(300)
        let seen = setup.now
        _ = try await setup.store.moveQueueEntry(scope: setup.scope, patientID: setup.rex.id.rawValue, to: .inTreatment)
        // Re-triage after first contact, and the end of treatment, change neither the level counted nor the first-seen
        // time.
        setup.practices.clock.advance(60)
        let worse = engine.evaluate(TriageCase(species: .dog, vitals: Vitals(spo2: 85)), arrival: arrival)
        _ = try await setup.store.recordAssessment(
            scope: setup.scope, patientID: setup.rex.id.rawValue, caseJSON: Data("{}".utf8),
            result: worse, arrival: arrival)
        setup.practices.clock.advance(1200)
        _ = try await setup.store.moveQueueEntry(scope: setup.scope, patientID: setup.rex.id.rawValue, to: .done)

        // A second visit a day later, who leaves unseen.
        setup.practices.clock.advance(86_400)
        let secondArrival = setup.now
        let blue = engine.evaluate(TriageCase(species: .dog), arrival: secondArrival)
        _ = try await setup.store.recordAssessment(
            scope: setup.scope, patientID: setup.rex.id.rawValue, caseJSON: Data("{}".utf8),
            result: blue, arrival: secondArrival)
        setup.practices.clock.advance(60)
        _ = try await setup.store.moveQueueEntry(
            scope: setup.scope, patientID: setup.rex.id.rawValue, to: .leftWithoutBeingSeen)

        let history = try await setup.history(arrival.addingTimeInterval(-3600), setup.now.addingTimeInterval(3600))
        #expect(history.triageArrivals.count == 2)
        let first = try #require(history.triageArrivals.first)
        #expect(first.arrival == arrival)
        #expect(first.level == .yellow)
        #expect(first.firstSeenAt == seen)
        #expect(first.species == .dog)
        let second = try #require(history.triageArrivals.last)
        #expect(second.arrival == secondArrival)
        #expect(second.level == blue.level)
        #expect(second.firstSeenAt == nil)
    }

    // MARK: - Reading

    @Test(
        "the history read returns the window's records of the caller's practice only, with first visits, and is audited"
    )
    func historyRead() async throws {
        let setup = try await Setup.make()
        let day = 86_400.0
        let t0 = setup.now.addingTimeInterval(-30 * day)
        var rexEarly = setup.appointment(setup.rex, at: t0, status: .completed)
        rexEarly.actualMinutes = 25
        rexEarly.completedAt = t0.addingTimeInterval(25 * 60)
        var rexLate = setup.appointment(setup.rex, at: t0.addingTimeInterval(10 * day), status: .completed)
        rexLate.actualMinutes = 20
        rexLate.completedAt = t0.addingTimeInterval(10 * day + 20 * 60)
        let tomNoShow = setup.appointment(setup.tom, at: t0.addingTimeInterval(10 * day + 3600), status: .noShow)
        let outside = setup.appointment(setup.tom, at: t0.addingTimeInterval(20 * day))
        try await setup.store.bulkLoadHistory(
            appointments: [rexEarly, rexLate, tomNoShow, outside].map {
                AppointmentRecord($0, bookedAt: t0.addingTimeInterval(-day))
            },
            arrivals: [
                TriageArrival(
                    patientID: setup.tom.id.rawValue, level: .green, arrival: t0.addingTimeInterval(10 * day),
                    firstSeenAt: t0.addingTimeInterval(10 * day + 1800))
            ],
            weights: [], scope: setup.scope)

        // The other practice, on the same days.
        let b = setup.practices.scope(setup.practices.adminB)
        let otherClinician = try await setup.store.createClinician(
            Clinician(
                displayName: "Dr Other", credentials: "DVM", expertise: [],
                species: [.dog], maxAppointmentsPerDay: 20, complexityCeiling: 1), scope: b)
        let otherType = try await setup.store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 20,
                fee: Money(minorUnits: 100, currency: "USD")), scope: b)
        let otherOwner = try await setup.store.createOwner(Owner(firstName: "Al", lastName: "Other"), scope: b)
        let otherPatient = try await setup.store.createPatient(
            Patient(name: "Fido", species: .dog, ownerID: otherOwner.id), scope: b)
        let theirs = Appointment(
            practiceID: setup.practices.b.id, patientID: otherPatient.id.rawValue,
            clinicianID: otherClinician.id.rawValue,
            appointmentTypeID: otherType.id, time: TimeRange(start: rexLate.time.start, end: rexLate.time.end)!)
        try await setup.store.bulkLoadHistory(
            appointments: [AppointmentRecord(theirs, bookedAt: t0)], arrivals: [], weights: [], scope: b)
        // Practice A cannot load practice B's rows, nor name B's patient.
        await #expect(throws: DomainError.self) {
            try await setup.store.bulkLoadHistory(
                appointments: [AppointmentRecord(theirs, bookedAt: t0)], arrivals: [], weights: [], scope: setup.scope)
        }

        let from = t0.addingTimeInterval(5 * day)
        let to = t0.addingTimeInterval(15 * day)
        let history = try await setup.history(from, to)
        #expect(Set(history.appointments.map(\.appointment.id)) == [rexLate.id, tomNoShow.id])
        #expect(history.appointments.allSatisfy { $0.appointment.practiceID == setup.practices.a.id })
        #expect(history.appointments.first { $0.appointment.id == rexLate.id }?.species == .dog)
        #expect(history.triageArrivals.count == 1)
        #expect(history.clinicians.map(\.id) == [setup.clinician.id])
        // Rex came before the window (his first visit is the early one); Tom never came.
        #expect(history.firstVisits[setup.rex.id.rawValue] == rexEarly.time.start)
        #expect(history.firstVisits[setup.tom.id.rawValue] == nil)

        let audit = try await setup.store.auditEntries(scope: setup.scope, limit: 5, before: nil).items
        #expect(audit.first?.action == AuditAction.analyticsReportRead.name)
        #expect(audit.first?.detail == "from=\(Timestamp.string(from)) to=\(Timestamp.string(to))")
    }

    @Test("the training stretch brings only completed appointments, and nothing twice where stretches meet")
    func trainingStretch() async throws {
        let setup = try await Setup.make()
        let day = 86_400.0
        let t0 = setup.now.addingTimeInterval(-60 * day)
        var done = setup.appointment(setup.rex, at: t0, status: .completed)
        done.actualMinutes = 22
        done.completedAt = t0.addingTimeInterval(1320)
        let missed = setup.appointment(setup.tom, at: t0.addingTimeInterval(3600), status: .noShow)
        let inPeriod = setup.appointment(setup.tom, at: t0.addingTimeInterval(40 * day))
        try await setup.store.bulkLoadHistory(
            appointments: [done, missed, inPeriod].map { AppointmentRecord($0, bookedAt: t0.addingTimeInterval(-day)) },
            arrivals: [], weights: [], scope: setup.scope)
        let period = DateInterval(start: t0.addingTimeInterval(39 * day), end: t0.addingTimeInterval(41 * day))
        let window = HistoryWindow(
            appointmentRanges: [period],
            trainingRange: DateInterval(start: t0.addingTimeInterval(-day), end: period.end),
            arrivalRanges: [period])
        let history = try await setup.store.practiceHistory(
            scope: setup.scope, window: window, action: .analyticsReportRead)
        #expect(history.appointments.map(\.appointment.id) == [done.id, inPeriod.id])
    }

    @Test(
        """
        every write to appointments or arrivals moves the practice's version; a corrected species follows onto its \
        appointments
        """
    )
    func versions() async throws {
        let setup = try await Setup.make()
        let start = setup.now.addingTimeInterval(86_400)
        let before = try await setup.store.analyticsDataVersion(scope: setup.scope)
        let appointment = setup.appointment(setup.rex, at: start)
        try await setup.store.bulkLoadHistory(
            appointments: [AppointmentRecord(appointment, bookedAt: setup.now)], arrivals: [], weights: [],
            scope: setup.scope)
        let loaded = try await setup.store.analyticsDataVersion(scope: setup.scope)
        #expect(loaded.analytics > before.analytics)
        _ = try await setup.store.saveAppointment(
            try appointment.decide(.cancel(reason: "x"), at: setup.now), scope: setup.scope, expectedVersion: 1)
        let cancelled = try await setup.store.analyticsDataVersion(scope: setup.scope)
        #expect(cancelled.analytics > loaded.analytics)
        // Another practice's writes leave this one's version alone.
        let other = try await setup.store.analyticsDataVersion(scope: setup.practices.scope(setup.practices.adminB))
        #expect(other.analytics == 0)

        var corrected = try await setup.store.patient(scope: setup.scope, id: setup.rex.id).value
        corrected.species = .cat
        _ = try await setup.store.updatePatient(corrected, scope: setup.scope, expectedVersion: nil)
        #expect(try await setup.store.analyticsDataVersion(scope: setup.scope).analytics > cancelled.analytics)
        let history = try await setup.history(start.addingTimeInterval(-3600), start.addingTimeInterval(3600))
        #expect(history.appointments.map(\.species) == [.cat])
        // The configuration has its own version.
        _ = try await setup.store.createRoom(Room(name: "Consult 2", type: .exam), scope: setup.scope)
        #expect(try await setup.store.analyticsDataVersion(scope: setup.scope).configuration > cancelled.configuration)
    }

    @Test(
        """
        the schema refuses an update made outside VetNet that moves a booking onto another; a note or cancellation \
        passes
        """
    )
    func overlappingUpdateRefusedBySchema() async throws {
        let setup = try await Setup.make()
        let start = setup.now.addingTimeInterval(86_400)
        var second = setup.appointment(setup.tom, at: start.addingTimeInterval(3_600))
        second.roomID = nil
        try await setup.store.bulkLoadHistory(
            appointments: [setup.appointment(setup.rex, at: start), second].map {
                AppointmentRecord($0, bookedAt: setup.now)
            },
            arrivals: [], weights: [], scope: setup.scope)
        let id = second.id.description
        let startMs = Timestamp.milliseconds(start.addingTimeInterval(300))
        await #expect(throws: (any Error).self) {
            try await setup.store.writer.write { db in
                try db.execute(
                    sql:
                        """
                        UPDATE appointment SET start_ms = ?, end_ms = ? + 1200000, occupied_end_ms = ? + 1200000 \
                        WHERE id = ?
                        """,
                    arguments: [startMs, startMs, startMs, id])
            }
        }
        try await setup.store.writer.write { db in
            try db.execute(sql: "UPDATE appointment SET staff_notes = 'call owner' WHERE id = ?", arguments: [id])
            try db.execute(
                sql: "UPDATE appointment SET status = 'cancelled', holds_time = 0 WHERE id = ?", arguments: [id])
            // Cancelled, it no longer holds time: moving it onto the other booking is allowed.
            try db.execute(
                sql:
                    """
                    UPDATE appointment SET start_ms = ?, end_ms = ? + 1200000, occupied_end_ms = ? + 1200000 WHERE id \
                    = ?
                    """,
                arguments: [startMs, startMs, startMs, id])
        }
        // Holding time again where it now lies would double-book: refused.
        await #expect(throws: (any Error).self) {
            try await setup.store.writer.write { db in
                try db.execute(
                    sql: "UPDATE appointment SET status = 'booked', holds_time = 1 WHERE id = ?", arguments: [id])
            }
        }
    }

    @Test("a generated history that would double-book a clinician is refused whole")
    func overlapRefused() async throws {
        let setup = try await Setup.make()
        let start = setup.now.addingTimeInterval(86_400)
        let first = setup.appointment(setup.rex, at: start)
        var second = setup.appointment(setup.tom, at: start.addingTimeInterval(600))
        second.roomID = nil
        await #expect(throws: BookingConflict.self) {
            try await setup.store.bulkLoadHistory(
                appointments: [first, second].map { AppointmentRecord($0, bookedAt: setup.now) },
                arrivals: [], weights: [], scope: setup.scope)
        }
        let history = try await setup.history(start.addingTimeInterval(-86_400), start.addingTimeInterval(86_400))
        #expect(history.appointments.isEmpty)
    }
}
