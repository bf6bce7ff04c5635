import Analytics
import Foundation
import SharedKernel
import Testing
import Triage

/// Compliance that measures care, not clocks: red's "immediately" has a stated tolerance, and a
/// patient who left without being seen stops waiting when they left.
@Suite("VTL compliance: the red tolerance and patients who left unseen")
struct VTLToleranceAndDepartureTests {
    static let morning = Fixture.local("2026-05-05 09:00")

    static func compliance(_ arrivals: [TriageArrival], asOf: Date) -> VTLCompliance {
        var history = WeekFixture.history
        history.triageArrivals = arrivals
        return PracticeAnalytics(history: history).metrics(for: WeekFixture.period, asOf: asOf).vtl
    }

    static func arrival(
        _ n: Int, _ level: TriageLevel, seenAfterSeconds: Double? = nil, leftAfterMinutes: Double? = nil
    ) -> TriageArrival {
        TriageArrival(
            patientID: Fixture.uuid(n), level: level, arrival: morning,
            firstSeenAt: seenAfterSeconds.map { morning.addingTimeInterval($0) },
            leftAt: leftAfterMinutes.map { morning.addingTimeInterval($0 * 60) })
    }

    @Test(
        """
        a red patient started 2 s after triage is compliant; one started 61 s after is not; one stamped 30 s early \
        waited nothing
        """
    )
    func redTolerance() {
        let vtl = Self.compliance(
            [
                Self.arrival(1, .red, seenAfterSeconds: 2), Self.arrival(2, .red, seenAfterSeconds: 61),
                Self.arrival(3, .red, seenAfterSeconds: -30),
            ], asOf: Self.morning.addingTimeInterval(3600))
        #expect(VTLCompliance.toleranceSeconds == 60)
        #expect(vtl.level(.red)?.withinTarget == Rate(count: 2, total: 3))
        #expect(vtl.breaches.map(\.patientID) == [Fixture.uuid(2)])
    }

    @Test(
        """
        a patient who left unseen has a fixed wait, whenever the analysis runs, and counts in the \
        left-without-being-seen rate
        """
    )
    func leftUnseen() {
        // Yellow (60 min) who left after 90 minutes: a breach of 90 minutes, read at 5 h and at 5 h 9 min alike.
        let arrivals = [
            Self.arrival(1, .yellow, leftAfterMinutes: 90), Self.arrival(2, .yellow, leftAfterMinutes: 20),
            Self.arrival(3, .yellow, seenAfterSeconds: 600), Self.arrival(4, .green, seenAfterSeconds: 60),
        ]
        for asOf in [Self.morning.addingTimeInterval(302 * 60), Self.morning.addingTimeInterval(311 * 60)] {
            let vtl = Self.compliance(arrivals, asOf: asOf)
            let breach = vtl.breaches.first { $0.patientID == Fixture.uuid(1) }
            #expect(breach?.waitMinutes == 90)
            #expect(breach?.leftAt == Self.morning.addingTimeInterval(90 * 60))
            #expect(breach?.firstSeenAt == nil)
            // Left within the target: nobody failed to see them in time, so not judged.
            #expect(!vtl.breaches.contains { $0.patientID == Fixture.uuid(2) })
            #expect(vtl.level(.yellow)?.withinTarget == Rate(count: 1, total: 2))
            #expect(vtl.level(.yellow)?.leftWithoutBeingSeen == Rate(count: 2, total: 3))
            #expect(vtl.leftWithoutBeingSeen == Rate(count: 2, total: 4))
            #expect(vtl.level(.yellow)?.pending == 0)
        }
    }

    @Test("a departure recorded after the time of the analysis is still waiting at that time")
    func departureAfterAnalysis() {
        let vtl = Self.compliance(
            [Self.arrival(1, .green, leftAfterMinutes: 200)], asOf: Self.morning.addingTimeInterval(30 * 60))
        #expect(vtl.level(.green)?.pending == 1)
        #expect(vtl.leftWithoutBeingSeen == Rate(count: 0, total: 1))
    }

    @Test(
        "the board's departures become the arrival record's: waiting → left stops the wait; treatment ending does not")
    func arrivalUpdates() {
        let patient = UUID()
        let arrival = Self.morning
        let waiting = QueueEntry(
            assessmentID: Identifier(), patientID: patient, level: .yellow, arrival: arrival, assessedAt: arrival,
            status: .waiting, statusChangedAt: arrival)
        var left = waiting
        left.status = .leftWithoutBeingSeen
        left.statusChangedAt = arrival.addingTimeInterval(3000)
        #expect(
            TriageArrivalUpdate(.statusChanged(previous: waiting, current: left))
                == .left(patientID: patient, arrival: arrival, at: arrival.addingTimeInterval(3000)))
        var treated = waiting
        treated.status = .inTreatment
        var done = treated
        done.status = .done
        #expect(TriageArrivalUpdate(.statusChanged(previous: treated, current: done)) == nil)
        #expect(TriageArrivalUpdate(.announced(.overdue, current: waiting)) == nil)
    }
}

@Suite("Override rates")
struct TriageOverrideRateTests {
    @Test("raised and lowered among the assessments, and per staff member")
    func rates() throws {
        func override(_ from: TriageLevel, _ to: TriageLevel, by: String) -> TriageOverride {
            TriageOverride(
                id: Identifier(), assessmentID: Identifier(), computedLevel: from, previousLevel: from, level: to,
                reason: "r",
                overriddenBy: by, overriddenAt: Date(), lowersRedFinding: false)
        }
        let rates = TriageOverrideRates(
            assessors: ["nurse", "nurse", "nurse", "nurse", "vet", nil],
            overrides: [
                override(.green, .orange, by: "nurse"), override(.yellow, .green, by: "vet"),
                override(.blue, .yellow, by: "nurse"),
            ])
        #expect(rates.assessments == 6)
        #expect(rates.raised == Rate(count: 2, total: 6))
        #expect(rates.lowered == Rate(count: 1, total: 6))
        #expect(rates.staff.map(\.userID) == ["nurse", "vet"])
        #expect(rates.staff[0].raisedRate == Rate(count: 2, total: 4))
        #expect(rates.staff[1].lowered == 1)
        #expect(rates.staff[1].assessments == 1)
    }
}
