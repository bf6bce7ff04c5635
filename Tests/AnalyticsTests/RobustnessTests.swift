import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing
import Triage

@Suite("Empty periods and malformed input")
struct RobustnessTests {
    static let everyMetric: [MetricKind] = [
        .appointments, .completedAppointments, .cancellations, .noShows, .noShowRate, .lateCancellationRate,
        .utilization,
        .roomUtilization, .bookedMinutes, .meanDurationDifference, .durationModelError, .meanLeadTime, .newPatients,
        .returningPatients, .revenue, .triageArrivals, .vtlCompliance(nil), .vtlCompliance(.red), .vtlBreaches(nil),
        .medianWait(.orange), .p90Wait(.blue), .efficiencyScore,
    ]

    /// JSON refuses NaN and infinity, so encoding proves none slipped into a figure.
    private func encodes<T: Encodable>(_ value: T) -> Bool { (try? JSONEncoder().encode(value)) != nil }

    @Test("a practice with no history: zeros and nils, no NaN, no insights")
    func emptyHistory() {
        let analytics = PracticeAnalytics(history: PracticeHistory(practice: Fixture.practice))
        let dashboard = analytics.dashboard(period: WeekFixture.period, asOf: WeekFixture.asOf)
        let practice = dashboard.metrics.practice
        #expect(practice.appointments.total == 0)
        #expect(practice.noShows == Rate(count: 0, total: 0))
        #expect(practice.noShows.value == nil)
        #expect(practice.utilization == Utilization(bookedMinutes: 0, availableMinutes: 0))
        #expect(practice.utilization?.ratio == nil)
        #expect(practice.duration.meanDifferenceMinutes == nil)
        #expect(practice.leadTime == LeadTime(count: 0, meanHours: nil, medianHours: nil))
        #expect(practice.patients.total == 0)
        #expect(practice.revenue.isEmpty)
        #expect(dashboard.metrics.vtl.overall.value == nil)
        #expect(dashboard.metrics.vtl.levels.allSatisfy { $0.arrivals == 0 && $0.medianWaitMinutes == nil })
        #expect(dashboard.metrics.efficiency.value == nil)
        #expect(dashboard.metrics.efficiency.parts.allSatisfy { $0.points == 0 })
        #expect(dashboard.metrics.clinicians.isEmpty)
        #expect(dashboard.arrivals.triage.total == 0)
        #expect(dashboard.bottlenecks.specialties.isEmpty)
        #expect(dashboard.forecast.specialties.isEmpty)
        #expect(dashboard.insights.isEmpty)
        #expect(encodes(dashboard))
    }

    @Test("every metric over an empty stretch of a busy practice: zero counts, nil shares", arguments: everyMetric)
    func emptyBuckets(metric: MetricKind) throws {
        let period = try #require(
            WeekFixture.analytics.period(from: Fixture.date("2030-01-07"), through: Fixture.date("2030-01-20")))
        let series = WeekFixture.analytics.timeSeries(metric, over: period, by: .week, asOf: WeekFixture.asOf)
        #expect(series.points.count == 2)
        for point in series.points {
            switch point.value {
            case .count(let n)?: #expect(n == 0)
            case .minutes(let m)?: #expect(m == 0)
            case .money(let amounts)?: #expect(amounts.isEmpty)
            case .score(let score)?:
                // Only utilization has data, and it is 0.
                #expect(metric == .efficiencyScore)
                #expect(score == 0)
            case .ratio(let r)?:
                // Working time exists in 2030, nothing is booked: a true 0, not a missing value.
                #expect(metric == .utilization || metric == .roomUtilization)
                #expect(r == 0)
            case nil: break
            default: Issue.record("unexpected \(String(describing: point.value)) for \(metric)")
            }
        }
        #expect(encodes(series))
    }

    @Test("a period of no length measures nothing")
    func zeroLength() {
        let metrics = WeekFixture.analytics.metrics(
            for: WeekFixture.analytics.period(DateInterval(start: WeekFixture.asOf, duration: 0)),
            asOf: WeekFixture.asOf)
        #expect(metrics.practice.appointments.total == 0)
        #expect(metrics.practice.utilization?.availableMinutes == 0)
        #expect(metrics.vtl.overall.total == 0)
        #expect(encodes(metrics))
    }

    @Test("impossible records are counted in data quality, never trusted, never a crash")
    func malformed() throws {
        let l = Fixture.local
        let hart = WeekFixture.hart
        // A time range decoded from a store that let end precede start.
        let backwards = try JSONDecoder().decode(
            TimeRange.self, from: Data(#"{"start": 800000000, "end": 799990000}"#.utf8))
        var broken = Appointment(
            practiceID: Fixture.practiceID, patientID: Fixture.uuid(1), clinicianID: hart.id.rawValue,
            appointmentTypeID: Fixture.consult.id, time: backwards, status: .completed, actualMinutes: 20)
        broken.time = try JSONDecoder().decode(
            TimeRange.self,
            from: Data(
                #"""
                {"start": \#(l("2026-05-04 15:00").timeIntervalSinceReferenceDate), "end": \#
                \#(l("2026-05-04 14:00").timeIntervalSinceReferenceDate)}
                """#
                .utf8))
        let rich = AppointmentType(
            id: Identifier(Fixture.uuid(9100)), name: "Referral", defaultDurationMinutes: 30,
            fee: Money(minorUnits: Int.max, currency: "GBP"))
        let appointments: [AppointmentRecord] = [
            AppointmentRecord(broken, species: .dog),
            // Negative and absurd recorded durations.
            Fixture.visit(hart, Fixture.consult, l("2026-05-04 09:00"), minutes: 20, patient: 2, actual: -5),
            Fixture.visit(hart, Fixture.consult, l("2026-05-04 10:00"), minutes: 20, patient: 3, actual: 1_000_000_000),
            // Unknown type, unknown clinician, unknown room, unknown species.
            AppointmentRecord(
                Appointment(
                    practiceID: Fixture.practiceID, patientID: Fixture.uuid(4), clinicianID: Fixture.uuid(404),
                    appointmentTypeID: Identifier(Fixture.uuid(405)), roomID: Identifier(Fixture.uuid(406)),
                    time: TimeRange(start: l("2026-05-05 09:00"), end: l("2026-05-05 09:30"))!, status: .completed,
                    actualMinutes: 30)),
            // Booked after it started; cancelled with no time recorded.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-05 11:00"), minutes: 20, patient: 5, bookedAt: l("2026-05-05 11:05")),
            Fixture.visit(hart, Fixture.consult, l("2026-05-05 12:00"), minutes: 20, patient: 6, status: .cancelled),
            // A fee that overflows 64 bits when added twice.
            Fixture.visit(hart, rich, l("2026-05-06 09:00"), minutes: 30, patient: 7),
            Fixture.visit(hart, rich, l("2026-05-06 10:00"), minutes: 30, patient: 8),
            // A start that is no instant at all, and dates from the far past and future.
            AppointmentRecord(
                Appointment(
                    practiceID: Fixture.practiceID, patientID: Fixture.uuid(9), clinicianID: hart.id.rawValue,
                    appointmentTypeID: Fixture.consult.id,
                    time: try JSONDecoder().decode(TimeRange.self, from: Data(#"{"start": -1e308, "end": 1e308}"#.utf8))
                )),
            Fixture.visit(
                hart, Fixture.consult, Date.distantFuture, minutes: 20, patient: 10,
                bookedAt: Date(timeIntervalSince1970: .nan)),
        ]
        let arrivals = [
            TriageArrival(
                patientID: Fixture.uuid(11), level: .orange, arrival: l("2026-05-04 12:00"),
                firstSeenAt: l("2026-05-04 11:00")),
            TriageArrival(
                patientID: Fixture.uuid(12), level: .red, arrival: Date(timeIntervalSince1970: .infinity),
                firstSeenAt: nil),
        ]
        var practice = Fixture.practice
        practice.openingHours.append(OpeningHours(weekday: 9, opensMinute: 2000, closesMinute: -3))
        let history = PracticeHistory(
            practice: practice, appointmentTypes: [Fixture.consult, Fixture.cardio, rich],
            clinicians: [hart], availabilities: [Fixture.availability(hart, from: (9, 0), to: (17, 0))],
            appointments: appointments, triageArrivals: arrivals,
            openRequests: [
                OpenRequest(specialty: .cardiology, minutes: Int.max), OpenRequest(specialty: nil, minutes: -1),
            ])
        let analytics = PracticeAnalytics(history: history)
        let dashboard = analytics.dashboard(period: WeekFixture.period, asOf: WeekFixture.asOf)
        let metrics = dashboard.metrics
        let quality = metrics.dataQuality

        #expect(quality.invalidTime == 1)
        #expect(quality.completedWithoutDuration == 2)
        #expect(quality.unknownAppointmentType == 1)
        #expect(quality.unknownClinician == 1)
        #expect(quality.unknownRoom == 1)
        #expect(quality.unknownSpecies == 1)
        #expect(quality.bookedAfterStart == 1)
        #expect(quality.seenBeforeArrival == 1)
        #expect(!quality.isClean)
        #expect(metrics.practice.appointments.total == 8)
        // Timed: the completions with a valid time and a plausible length (the unknown type's, the
        // late booking's and the two referrals), not the backwards one nor the -5 and 10⁹ minutes.
        #expect(metrics.practice.duration.count == 4)
        #expect(metrics.practice.cancellationsWithoutTime == 1)
        #expect(metrics.practice.leadTime.medianHours == 0)
        // Int.max pence twice, exactly, though no 64-bit integer holds the sum; plus four completed
        // consultations at £45 (a completion is paid for even when its times are wrong).
        let expected = Decimal(Int.max) * 2 / 100
        #expect(metrics.practice.revenue(in: "GBP") == expected + 180)
        #expect(metrics.clinicians.contains { $0.segment.name == "Unknown clinician" })
        #expect(metrics.appointmentTypes.contains { $0.segment.name == "Unknown appointment type" })
        #expect(dashboard.bottlenecks.specialties.first?.specialty == .cardiology)
        #expect(encodes(dashboard))

        // Periods at the edges of time.
        let ancient = analytics.period(
            DateInterval(start: .distantPast, end: Date(timeIntervalSince1970: -62_000_000_000)))
        #expect(analytics.metrics(for: ancient, asOf: .distantFuture).practice.appointments.total == 0)
        _ = analytics.bottlenecks(asOf: .distantFuture, days: -5)
        _ = analytics.bottlenecks(asOf: Date(timeIntervalSince1970: .nan), days: 1_000)
        _ = analytics.forecast(weekStarting: LocalDate(year: 1_000_000, month: 1, day: 1)!, historyWeeks: 0)
        _ = analytics.timeSeries(
            .appointments, over: analytics.period(DateInterval(start: .distantPast, end: .distantFuture)),
            by: .month, asOf: WeekFixture.asOf)
    }

    @Test("a practice profile with no valid zone is read in UTC rather than refused")
    func invalidZone() {
        var practice = Fixture.practice
        practice.timeZone = "Mars/Olympus_Mons"
        let analytics = PracticeAnalytics(history: PracticeHistory(practice: practice))
        #expect(analytics.timeZone.identifier == "UTC" || analytics.timeZone.secondsFromGMT() == 0)
    }
}

/// VTL compliance measures care, not clocks: "immediately" has a stated tolerance.
@Suite("VTL compliance tolerance")
struct VTLToleranceTests {
    static func compliance(_ arrivals: [TriageArrival]) -> (VTLCompliance, DataQuality) {
        var history = WeekFixture.history
        history.triageArrivals = arrivals
        let metrics = PracticeAnalytics(history: history).dashboard(period: WeekFixture.period, asOf: WeekFixture.asOf)
            .metrics
        return (metrics.vtl, metrics.dataQuality)
    }

    @Test(
        "a red patient started 2 s after triage is seen within target; one started after the tolerance is a breach",
        arguments: [(2.0, true), (59.0, true), (61.0, false), (300.0, false)])
    func redTolerance(seconds: Double, within: Bool) {
        let arrived = Fixture.local("2026-05-05 10:00")
        let (vtl, _) = Self.compliance([Fixture.arrival(1, .red, arrived, seenAfter: seconds / 60)])
        #expect(
            vtl.level(.red)?.withinTarget == Rate(count: within ? 1 : 0, total: 1), "seen \(seconds) s after triage")
        #expect(vtl.breaches.isEmpty == within)
    }

    @Test(
        """
        an arrival stamped a few seconds after its first-seen time is clock skew, seen at once; an hour is a data error
        """
    )
    func clockSkew() {
        let arrived = Fixture.local("2026-05-05 10:00")
        let (skewed, quality) = Self.compliance([Fixture.arrival(1, .red, arrived, seenAfter: -3.0 / 60)])
        #expect(skewed.level(.red)?.withinTarget == Rate(count: 1, total: 1))
        #expect(skewed.level(.red)?.medianWaitMinutes == 0)
        #expect(quality.seenBeforeArrival == 0)
        let (_, wrong) = Self.compliance([Fixture.arrival(1, .red, arrived, seenAfter: -60)])
        #expect(wrong.seenBeforeArrival == 1)
    }
}
