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

/// An indexed history brought up to date with the rows changed since it was read gives
/// exactly the figures of a fresh read of the whole window, whatever the change: a booking,
/// a status change, a move (inside the window or out of it), a cancellation, a corrected
/// species, a removed row or a purged patient, and a triage arrival until it is seen.
@Suite("Analytics history brought up to date")
struct AnalyticsChangesTests {
    typealias Setup = AnalyticsStoreTests.Setup
    static let day = 86_400.0
    static let trend: [MetricKind] = [
        .appointments, .completedAppointments, .noShowRate, .lateCancellationRate, .utilization,
        .triageArrivals, .vtlCompliance(nil), .efficiencyScore, .revenue, .newPatients,
    ]

    /// A dashboard's window over the setup's practice, the index read for it, and the version it stands at.
    struct Tracker {
        let setup: Setup
        let period: AnalyticsPeriod
        let asOf: Date
        let window: HistoryWindow
        var analytics: PracticeAnalytics
        var version: AnalyticsDataVersion
        var updates = 0

        static func make(_ setup: Setup) async throws -> Tracker {
            let zone = TimeZone(identifier: setup.practices.a.timeZone)!
            let asOf = setup.now
            let today = try #require(
                AnalyticsPeriod(interval: DateInterval(start: asOf, duration: 1), timeZone: zone).days.first?.label)
            let period = try #require(
                AnalyticsPeriod(from: today.adding(days: -30), through: today.adding(days: 6), timeZone: zone))
            let window = HistoryWindow(period: period, bottlenecks: (asOf, 14), forecast: (today, 8), timeZone: zone)
            let (history, version) = try await setup.store.versionedPracticeHistory(
                scope: setup.scope, window: window, action: .analyticsReportRead)
            return Tracker(
                setup: setup, period: period, asOf: asOf, window: window,
                analytics: PracticeAnalytics(history: history), version: version)
        }

        /// Brings the index up to date and compares every figure with a fresh read.
        mutating func check(_ change: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let changed = try #require(
                try await setup.store.practiceHistoryChanges(scope: setup.scope, window: window, since: version),
                change, sourceLocation: sourceLocation)
            #expect(changed.version.analytics > version.analytics, change, sourceLocation: sourceLocation)
            let updated = try #require(analytics.applying(changed.changes), change, sourceLocation: sourceLocation)
            let (history, freshVersion) = try await setup.store.versionedPracticeHistory(
                scope: setup.scope, window: window, action: .analyticsReportRead)
            #expect(freshVersion == changed.version, change, sourceLocation: sourceLocation)
            let fresh = PracticeAnalytics(history: history)
            #expect(updated.appointmentCount == history.appointments.count, change, sourceLocation: sourceLocation)
            #expect(updated.arrivalCount == history.triageArrivals.count, change, sourceLocation: sourceLocation)
            #expect(
                updated.dashboard(period: period, asOf: asOf) == fresh.dashboard(period: period, asOf: asOf), change,
                sourceLocation: sourceLocation)
            #expect(
                updated.timeSeries(AnalyticsChangesTests.trend, over: period, by: .day, asOf: asOf)
                    == fresh.timeSeries(AnalyticsChangesTests.trend, over: period, by: .day, asOf: asOf), change,
                sourceLocation: sourceLocation)
            for kind in [ReportKind.segments, .vtl, .breaches] {
                let request = ReportRequest(kind: kind, period: period, asOf: asOf, includeRevenue: true)
                #expect(
                    updated.report(request).csv() == fresh.report(request).csv(), change, sourceLocation: sourceLocation
                )
            }
            analytics = updated
            version = changed.version
            updates += 1
        }
    }

    /// A past of completed appointments (the duration model's training, returning patients),
    /// some no-shows and cancellations in the period, bookings over the coming days, and
    /// triage arrivals; `bella` has no visit yet.
    static func history(_ setup: Setup) async throws -> (bella: Patient, booked: [Appointment]) {
        let owner = try await setup.store.createOwner(Owner(firstName: "Ann", lastName: "Other"), scope: setup.scope)
        let bella = try await setup.store.createPatient(
            Patient(name: "Bella", species: .rabbit, ownerID: owner.id), scope: setup.scope)
        let midnight = Date(timeIntervalSince1970: (setup.now.timeIntervalSince1970 / day).rounded(.down) * day)
        var records: [AppointmentRecord] = []
        var booked: [Appointment] = []
        for offset in -70...12 {
            for (slot, patient) in [
                (9.0, setup.rex), (10.0, setup.tom), (11.5, offset.isMultiple(of: 2) ? setup.rex : setup.tom),
            ] {
                let start = midnight.addingTimeInterval(Double(offset) * day + slot * 3600)
                let bookedAt = start.addingTimeInterval(-Double(3 + (offset & 7)) * day)
                if offset >= 1 {
                    let appointment = setup.appointment(patient, at: start)
                    booked.append(appointment)
                    records.append(AppointmentRecord(appointment, bookedAt: bookedAt))
                    continue
                }
                switch (offset + Int(slot)) % 7 {
                case 0:
                    records.append(
                        AppointmentRecord(setup.appointment(patient, at: start, status: .noShow), bookedAt: bookedAt))
                case 1:
                    records.append(
                        AppointmentRecord(
                            setup.appointment(patient, at: start, status: .cancelled), bookedAt: bookedAt,
                            cancelledAt: start.addingTimeInterval(-Double(offset & 3) * 7200)))
                default:
                    var done = setup.appointment(patient, at: start, status: .completed)
                    done.actualMinutes = 15 + (offset & 15)
                    done.completedAt = start.addingTimeInterval(Double(done.actualMinutes!) * 60)
                    records.append(AppointmentRecord(done, bookedAt: bookedAt))
                }
            }
        }
        var arrivals: [TriageArrival] = []
        for offset in stride(from: -40, through: -1, by: 3) {
            let arrival = midnight.addingTimeInterval(Double(offset) * day + 20 * 3600)
            arrivals.append(
                TriageArrival(
                    patientID: (offset & 1 == 0 ? setup.rex : setup.tom).id.rawValue,
                    level: [TriageLevel.red, .orange, .yellow, .green, .blue][(-offset) % 5], arrival: arrival,
                    firstSeenAt: arrival.addingTimeInterval(Double((-offset) % 9) * 600)))
        }
        try await setup.store.bulkLoadHistory(
            appointments: records, arrivals: arrivals, weights: [], scope: setup.scope)
        return (bella, booked)
    }

    func book(_ setup: Setup, _ appointment: Appointment) async throws -> Appointment {
        try await setup.store.bookAppointment(
            scope: setup.scope, patientID: appointment.patientID, clinicianID: appointment.clinicianID,
            appointmentTypeID: appointment.appointmentTypeID, reason: nil, idempotencyKey: nil,
            reads: { _, _ in BookingReads(clinicianPeriod: appointment.time, roomWindow: appointment.occupiedTime) },
            decide: { _ in appointment }
        ).0.value
    }

    @Test(
        """
        booking, status changes, moves, a cancellation, a corrected species, removals, a purge and a triage arrival \
        until seen
        """
    )
    func everyChange() async throws {
        let setup = try await Setup.make()
        let (bella, booked) = try await Self.history(setup)
        var tracker = try await Tracker.make(setup)
        let store = setup.store
        let scope = setup.scope

        // A booking: Bella's first appointment, the day after tomorrow.
        let slot = booked[3].time.start.addingTimeInterval(3 * 3600)
        var bellas = try await book(setup, setup.appointment(bella, at: slot))
        try await tracker.check("booking")

        // Status changes: she comes (her first visit), is seen and leaves.
        bellas = try await store.saveAppointment(
            try bellas.decide(.checkIn, at: slot.addingTimeInterval(-300)), scope: scope, expectedVersion: nil
        ).value
        try await tracker.check("check-in (a new patient's first visit)")
        bellas = try await store.saveAppointment(
            try bellas.decide(.start, at: slot), scope: scope, expectedVersion: nil
        ).value
        bellas = try await store.saveAppointment(
            try bellas.decide(.complete(actualMinutes: 31), at: slot.addingTimeInterval(1860)),
            scope: scope, expectedVersion: nil
        ).value
        try await tracker.check("start and completion")

        // Moves: a booking to another day of the window, another far beyond it, and one back into it.
        func move(_ appointment: Appointment, by seconds: Double) async throws -> Appointment {
            let to = TimeRange(
                start: appointment.time.start.addingTimeInterval(seconds),
                end: appointment.time.end.addingTimeInterval(seconds))!
            return try await store.saveAppointment(
                try appointment.decide(.reschedule(to: to, clinicianID: nil), at: setup.now),
                scope: scope, expectedVersion: nil
            ).value
        }
        _ = try await move(booked[0], by: 2 * Self.day + 4 * 3600)
        try await tracker.check("move inside the window")
        let away = try await move(booked[1], by: 90 * Self.day)
        try await tracker.check("move out of the window")
        _ = try await move(away, by: -90 * Self.day + 5 * 3600)
        try await tracker.check("move back into the window")

        // A late cancellation and an early one.
        _ = try await store.saveAppointment(
            try booked[2].decide(.cancel(reason: "owner rang"), at: setup.now), scope: scope, expectedVersion: nil)
        _ = try await store.saveAppointment(
            try booked[20].decide(.cancel(reason: "moving away"), at: setup.now), scope: scope, expectedVersion: nil)
        try await tracker.check("cancellations")

        // A triage arrival, re-triaged, then seen.
        let engine = TriageEngine(clock: setup.practices.clock.clock)
        let arrival = setup.now.addingTimeInterval(-900)
        _ = try await store.recordAssessment(
            scope: scope, patientID: setup.tom.id.rawValue, caseJSON: Data("{}".utf8),
            result: engine.evaluate(TriageCase(species: .cat, vitals: Vitals(spo2: 85)), arrival: arrival),
            arrival: arrival)
        try await tracker.check("triage arrival")
        setup.practices.clock.advance(120)
        _ = try await store.recordAssessment(
            scope: scope, patientID: setup.tom.id.rawValue, caseJSON: Data("{}".utf8),
            result: engine.evaluate(TriageCase(species: .cat, vitals: Vitals(spo2: 92)), arrival: arrival),
            arrival: arrival)
        try await tracker.check("re-triage")
        setup.practices.clock.advance(600)
        _ = try await store.moveQueueEntry(scope: scope, patientID: setup.tom.id.rawValue, to: .inTreatment)
        try await tracker.check("triage arrival seen")

        // A corrected species: on the patient's appointments and arrivals alike.
        var rex = try await store.patient(scope: scope, id: setup.rex.id).value
        rex.species = .ferret
        _ = try await store.updatePatient(rex, scope: scope, expectedVersion: nil)
        try await tracker.check("species correction")

        // Several changes at once, then rows removed by any path.
        _ = try await store.saveAppointment(
            try booked[5].decide(.cancel(reason: "ill"), at: setup.now), scope: scope, expectedVersion: nil)
        _ = try await book(setup, setup.appointment(setup.tom, at: booked[5].time.start))
        try await store.writer.write { db in
            try db.execute(sql: "DELETE FROM appointment WHERE id = ?", arguments: [booked[7].id.description])
            try db.execute(
                sql: "DELETE FROM triage_arrival WHERE practice_id = ? AND patient_id = ? AND arrival_at_ms = ?",
                arguments: [
                    setup.practices.a.id.description, setup.tom.id.description, Timestamp.milliseconds(arrival),
                ])
        }
        try await tracker.check("several changes and removed rows")
        let given = bellas.id.description
        try await store.writer.write { db in
            // A row given to another patient: the first one's first visit moves too.
            try db.execute(
                sql: "UPDATE appointment SET patient_id = ? WHERE id = ?", arguments: [setup.tom.id.description, given])
        }
        try await tracker.check("appointment given to another patient")

        // A purge: Bella archived long ago, her appointments and arrivals go with her.
        _ = try await book(setup, setup.appointment(bella, at: booked[9].time.start.addingTimeInterval(3 * 3600)))
        try await store.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level, first_seen_at_ms) \
                    VALUES (?, ?, ?, 2, ?)
                    """,
                arguments: [
                    setup.practices.a.id.description, bella.id.description,
                    Timestamp.milliseconds(setup.now.addingTimeInterval(-3 * Self.day)),
                    Timestamp.milliseconds(setup.now.addingTimeInterval(-3 * Self.day + 300)),
                ])
        }
        try await tracker.check("booking and arrival before the purge")
        var archived = try await store.patient(scope: scope, id: bella.id).value
        archived.status = .archived
        _ = try await store.updatePatient(archived, scope: scope, expectedVersion: nil)
        setup.practices.clock.advance(8 * 365 * Self.day)
        #expect(try await store.purgeArchivedPatients(scope: scope, retentionYears: 7).appointments == 1)
        try await tracker.check("purge")
        #expect(tracker.updates == 15)
    }

    @Test("an unchanged practice has nothing to apply; a change of configuration or too many writes mean a fresh read")
    func limits() async throws {
        let setup = try await Setup.make()
        let (_, booked) = try await Self.history(setup)
        let tracker = try await Tracker.make(setup)
        let unchanged = try #require(
            try await setup.store.practiceHistoryChanges(
                scope: setup.scope, window: tracker.window, since: tracker.version))
        #expect(unchanged.version == tracker.version)
        #expect(unchanged.changes.isEmpty)

        _ = try await setup.store.saveAppointment(
            try booked[0].decide(.cancel(reason: "x"), at: setup.now), scope: setup.scope, expectedVersion: nil)
        #expect(
            try await setup.store.practiceHistoryChanges(
                scope: setup.scope, window: tracker.window, since: tracker.version, limit: 0) == nil)
        #expect(
            try await setup.store.practiceHistoryChanges(
                scope: setup.scope, window: tracker.window, since: tracker.version) != nil)
        _ = try await setup.store.createRoom(Room(name: "Consult 2", type: .exam), scope: setup.scope)
        #expect(
            try await setup.store.practiceHistoryChanges(
                scope: setup.scope, window: tracker.window, since: tracker.version) == nil)
    }
}
