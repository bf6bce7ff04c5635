import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Testing

/// What practice analytics read — the history of a window, where the records stand, what
/// changed since — and the store's upkeep, held to every store adapter alike.
@Suite("Analytics history contract (every store adapter)")
struct AnalyticsHistoryContractTests {
    static let day = 86_400.0
    var day: Double { Self.day }

    /// A window from a day before the fixture's morning to two days after it.
    static func window(_ fixture: SchedulingFixture) -> HistoryWindow {
        let range = DateInterval(
            start: fixture.morning.addingTimeInterval(-30 * day), end: fixture.morning.addingTimeInterval(2 * day))
        return HistoryWindow(appointmentRanges: [range], arrivalRanges: [range], firstVisitCutoff: range.start)
    }

    /// Completed past visits of the fixture's patient, one a day at 09:00 UTC over the ten days before the clock's now.
    static func pastVisits(_ fixture: SchedulingFixture) -> [AppointmentRecord] {
        let now = fixture.store.clock.clock.now()
        let midnight = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / day).rounded(.down) * day)
        return (1...10).map { offset in
            let start = midnight.addingTimeInterval(-Double(offset) * day + 9 * 3600)
            let appointment = Appointment(
                practiceID: fixture.scope.practiceID, patientID: fixture.patient, clinicianID: fixture.vet.id.rawValue,
                appointmentTypeID: fixture.consult.id,
                time: TimeRange(start: start, end: start.addingTimeInterval(900))!,
                status: offset == 3 ? .noShow : .completed,
                completedAt: offset == 3 ? nil : start.addingTimeInterval(900),
                actualMinutes: offset == 3 ? nil : 15)
            return AppointmentRecord(appointment, bookedAt: start.addingTimeInterval(-7 * day))
        }
    }

    @Test(
        "the version moves with a booking (analytics) and with a configuration change (configuration), and only then",
        arguments: Adapter.available)
    func versions(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let source = store.analytics
            let scope = fixture.scope
            let start = try await source.analyticsDataVersion(scope: scope)
            #expect(try await source.analyticsDataVersion(scope: scope) == start)

            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0
            let afterBooking = try await source.analyticsDataVersion(scope: scope)
            #expect(afterBooking.analytics > start.analytics && afterBooking.configuration == start.configuration)

            let cancel = try booked.value.decide(.cancel(reason: "owner called"), at: store.clock.clock.now())
            _ = try await store.scheduling.saveAppointment(cancel, scope: scope, expectedVersion: booked.version)
            let afterCancel = try await source.analyticsDataVersion(scope: scope)
            #expect(afterCancel.analytics > afterBooking.analytics && afterCancel.configuration == start.configuration)

            _ = try await store.scheduling.createRoom(Room(name: "Consulting 2", type: .exam), scope: scope)
            let afterRoom = try await source.analyticsDataVersion(scope: scope)
            #expect(afterRoom.configuration > afterCancel.configuration && afterRoom.analytics == afterCancel.analytics)

            _ = try await store.practiceSettings.updatePractice(
                PracticeSettingsChange(slotGridMinutes: 15), scope: scope, expectedVersion: nil)
            let afterSettings = try await source.analyticsDataVersion(scope: scope)
            #expect(
                afterSettings.configuration > afterRoom.configuration && afterSettings.analytics == afterRoom.analytics)

            _ = try await store.scheduling.createClinician(
                Clinician(
                    displayName: "Dr New", credentials: "BVSc", expertise: [], species: [.cat],
                    maxAppointmentsPerDay: 20, complexityCeiling: 1), scope: scope)
            #expect(try await source.analyticsDataVersion(scope: scope).configuration > afterSettings.configuration)

            // Another practice's writes leave this one's version alone.
            let other = try await SchedulingFixture.make(store, name: "Other")
            let mine = try await source.analyticsDataVersion(scope: scope)
            _ = try await other.book(other.consult, at: other.morning)
            #expect(try await source.analyticsDataVersion(scope: scope) == mine)
        }
    }

    @Test(
        """
        the history of a window holds what was booked, with its statuses and the practice's configuration, and is \
        audited
        """,
        arguments: Adapter.available)
    func historyOfWindow(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let scope = fixture.scope
            var booked: [Versioned<Appointment>] = []
            for hour in 0..<3 {
                booked.append(
                    try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(Double(hour) * 3600))
                        .0)
            }
            _ = try await fixture.book(
                fixture.surgery, at: fixture.morning.addingTimeInterval(5 * 3600), clinician: fixture.otherVet)
            let cancel = try booked[1].value.decide(.cancel(reason: "owner called"), at: store.clock.clock.now())
            _ = try await store.scheduling.saveAppointment(cancel, scope: scope, expectedVersion: booked[1].version)
            // Outside the window: not read.
            _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(10 * day))

            let (history, version) = try await store.analytics.versionedPracticeHistory(
                scope: scope, window: Self.window(fixture),
                action: .analyticsReportRead, progress: nil)
            #expect(version == (try await store.analytics.analyticsDataVersion(scope: scope)))
            #expect(history.appointments.count == 4)
            let statuses = Dictionary(
                history.appointments.map { ($0.appointment.id, $0.appointment.status) },
                uniquingKeysWith: { first, _ in first })
            #expect(
                statuses[booked[0].value.id] == .booked && statuses[booked[1].value.id] == .cancelled
                    && statuses[booked[2].value.id] == .booked)
            #expect(history.appointments.filter { $0.appointment.status == .booked }.count == 3)
            #expect(history.appointments.allSatisfy { $0.species == .dog && $0.bookedAt != nil })
            #expect(history.appointments.first { $0.appointment.id == booked[1].value.id }?.cancelledAt != nil)
            #expect(
                history.appointments.map(\.appointment.time.start)
                    == history.appointments.map(\.appointment.time.start).sorted())
            #expect(
                history.practice.id == scope.practiceID && history.clinicians.count == 2
                    && history.appointmentTypes.count == 2)
            #expect(history.rooms.map(\.id) == [fixture.theatre.id] && history.triageArrivals.isEmpty)

            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: ResourceKind.practice.rawValue, resourceID: nil)
            #expect(audit.items.contains { $0.action == AuditAction.analyticsReportRead.name })
        }
    }

    @Test(
        "a loaded past is read back by the history, counted as activity, and books only active patients",
        arguments: Adapter.available)
    func bulkLoad(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let scope = fixture.scope
            let past = Self.pastVisits(fixture)
            let now = store.clock.clock.now()
            let lastMonth = DateInterval(start: now.addingTimeInterval(-30 * day), end: now)
            #expect(try await !store.analytics.hasActivity(scope: scope, in: lastMonth))
            let before = try await store.analytics.analyticsDataVersion(scope: scope)

            // A weighing loaded with the past is in the patient's record, as one entered by hand.
            let weighing = WeightMeasurement(
                patientID: Identifier(fixture.patient), value: Decimal(string: "24.6")!, unit: .kg,
                measuredAt: now.addingTimeInterval(-3 * day))
            let summary = try await store.analytics.bulkLoadHistory(
                appointments: past, arrivals: [], weights: [weighing], scope: scope, progress: nil)
            #expect(summary == HistoryLoadSummary(appointments: 10, arrivals: 0, weights: 1))
            let recordPort: (any MedicalRecordRepository)? = store.sqlite ?? store.postgres?.store
            let record = try await #require(recordPort).medicalRecord(
                scope: scope, patientID: Identifier(fixture.patient))
            #expect(record.0.weights.measurements.map(\.value) == [Decimal(string: "24.6")!])
            #expect(try await store.analytics.hasActivity(scope: scope, in: lastMonth))
            #expect(
                try await !store.analytics.hasActivity(
                    scope: scope, in: DateInterval(start: now.addingTimeInterval(-400 * day), duration: day)))
            #expect(try await store.analytics.analyticsDataVersion(scope: scope).analytics > before.analytics)

            let history = try await store.analytics.practiceHistory(
                scope: scope, window: HistoryWindow(appointmentRanges: [lastMonth], firstVisitCutoff: lastMonth.start),
                action: .analyticsReportRead)
            #expect(Set(history.appointments.map(\.appointment.id)) == Set(past.map(\.appointment.id)))
            #expect(history.appointments.filter { $0.appointment.status == .completed }.count == 9)
            #expect(
                history.appointments.allSatisfy {
                    $0.appointment.actualMinutes == ($0.appointment.status == .completed ? 15 : nil)
                })
            #expect(history.firstVisits[fixture.patient] == past.map(\.appointment.time.start).min())

            // A load naming another practice's clinician writes nothing.
            var stray = Self.pastVisits(fixture)[0].appointment
            stray = Appointment(
                practiceID: scope.practiceID, patientID: fixture.patient, clinicianID: UUID(),
                appointmentTypeID: fixture.consult.id,
                time: TimeRange(
                    start: stray.time.start.addingTimeInterval(-40 * day),
                    end: stray.time.start.addingTimeInterval(-40 * day + 900))!,
                status: .completed)
            await #expect(throws: DomainError.notFound(resource: "clinician")) {
                _ = try await store.analytics.bulkLoadHistory(
                    appointments: [AppointmentRecord(stray)], arrivals: [], weights: [], scope: scope, progress: nil)
            }
            // An overlap with the loaded past is refused as a double booking.
            var overlap = past[0].appointment
            overlap.id = Identifier()
            await #expect(throws: BookingConflict.self) {
                _ = try await store.analytics.bulkLoadHistory(
                    appointments: [AppointmentRecord(overlap)], arrivals: [], weights: [], scope: scope, progress: nil)
            }
            #expect(
                try await store.analytics.practiceHistory(
                    scope: scope, window: HistoryWindow(appointmentRanges: [lastMonth]),
                    action: .analyticsReportRead
                ).appointments.count == 10)

            let bookable = try await store.analytics.bookablePatients(scope: scope)
            #expect(bookable.map(\.id) == [fixture.patient] && bookable.first?.species == .dog)
        }
    }

    @Test(
        """
        what changed since a read, when the store can tell, brings an indexed history to a fresh read's figures; a \
        configuration change cannot be told
        """,
        arguments: Adapter.available)
    func changesSince(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let scope = fixture.scope
            let window = Self.window(fixture)
            _ = try await store.analytics.bulkLoadHistory(
                appointments: Self.pastVisits(fixture), arrivals: [], weights: [], scope: scope, progress: nil)
            let zone = TimeZone(identifier: "Europe/London")!
            let period = AnalyticsPeriod(
                interval: DateInterval(
                    start: window.appointmentRanges[0].start.addingTimeInterval(day),
                    end: window.appointmentRanges[0].end), timeZone: zone)
            let asOf = store.clock.clock.now()
            let (first, readAt) = try await store.analytics.versionedPracticeHistory(
                scope: scope, window: window, action: .analyticsReportRead,
                progress: nil)
            var analytics = PracticeAnalytics(history: first)
            var version = readAt
            let unchanged = try await store.analytics.practiceHistoryChanges(
                scope: scope, window: window, since: version, limit: 1000)
            #expect(unchanged.map { $0.changes.isEmpty && $0.version == version } ?? true)

            // A booking, its cancellation, and a corrected species of the patient: each told, and
            // the indexed history brought up to date with it has a fresh read's figures.
            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0
            let cancel = try booked.value.decide(.cancel(reason: "owner called"), at: store.clock.clock.now())
            for step in 0..<3 {
                if step == 1 {
                    _ = try await store.scheduling.saveAppointment(
                        cancel, scope: scope, expectedVersion: booked.version)
                }
                if step == 2 {
                    var patient = try await store.records.patient(scope: scope, id: Identifier(fixture.patient))
                    patient.value.species = .cat
                    _ = try await store.records.updatePatient(
                        patient.value, scope: scope, expectedVersion: patient.version)
                }
                let changed = try #require(
                    try await store.analytics.practiceHistoryChanges(
                        scope: scope, window: window, since: version, limit: 1000),
                    "step \(step)")
                let fresh = try await store.analytics.versionedPracticeHistory(
                    scope: scope, window: window, action: .analyticsReportRead,
                    progress: nil)
                let expected = PracticeAnalytics(history: fresh.history)
                #expect(
                    changed.version == fresh.version && changed.version.analytics > version.analytics, "step \(step)")
                #expect(changed.changes.patientsConcerned == [fixture.patient], "step \(step)")
                let updated = try #require(analytics.applying(changed.changes), "step \(step)")
                #expect(updated.appointmentCount == fresh.history.appointments.count, "step \(step)")
                #expect(
                    updated.dashboard(period: period, asOf: asOf) == expected.dashboard(period: period, asOf: asOf),
                    "step \(step)")
                if step == 2 {
                    #expect(
                        changed.changes.appointments.count == 11
                            && changed.changes.appointments.allSatisfy { $0.species == .cat })
                } else {
                    #expect(changed.changes.appointments.map(\.appointment.id) == [booked.value.id], "step \(step)")
                }
                analytics = updated
                version = changed.version
            }
            #expect(analytics.appointmentCount == 11)

            // More rows changed than the caller would take: read afresh.
            _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(3600))
            #expect(
                try await store.analytics.practiceHistoryChanges(scope: scope, window: window, since: version, limit: 0)
                    == nil)
            #expect(
                try await store.analytics.practiceHistoryChanges(
                    scope: scope, window: window, since: version, limit: 1000) != nil)

            // The configuration changed: the picture must be read afresh.
            _ = try await store.scheduling.createRoom(Room(name: "Consulting 2", type: .exam), scope: scope)
            #expect(
                try await store.analytics.practiceHistoryChanges(
                    scope: scope, window: window, since: version, limit: 1000) == nil)
        }
    }

    @Test(
        "the store answers when ready, verifies the audit trail a practice sees, and forgets old idempotency keys",
        arguments: Adapter.available)
    func maintenance(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            #expect(await store.maintenance.isReady())
            let fixture = try await SchedulingFixture.make(store)
            let other = try await SchedulingFixture.make(store, name: "Other")
            _ = try await fixture.book(
                fixture.consult, at: fixture.morning, key: IdempotencyKey(key: "k1", fingerprint: "f"))
            _ = try await other.book(other.consult, at: other.morning)
            let seen = try await store.maintenance.verifyAuditChain(visibleTo: fixture.scope)
            let own = try await store.audit.auditEntries(
                scope: fixture.scope, limit: 1000, before: nil, resourceType: nil, resourceID: nil
            ).items
            #expect(seen.isIntact && seen.checked == own.count && seen.headSequence == own.first?.sequence)
            #expect(seen.headHash == own.first?.hash)
            #expect(try await store.maintenance.pruneIdempotencyKeys(olderThan: 3600) == 0)
            store.clock.advance(7200)
            #expect(try await store.maintenance.pruneIdempotencyKeys(olderThan: 3600) == 1)
        }
    }
}
