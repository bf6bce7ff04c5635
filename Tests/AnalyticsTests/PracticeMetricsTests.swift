import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing
import Triage

@Suite("Practice metrics over a hand-computed week")
struct PracticeMetricsTests {
    let metrics = WeekFixture.analytics.metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)

    private func clinician(_ c: Clinician) -> SegmentMetrics {
        metrics.metrics(for: Segment(dimension: .clinician, id: UUIDText.lowercase(c.id.rawValue), name: ""))!
    }

    private func type(_ t: AppointmentType) -> SegmentMetrics {
        metrics.metrics(for: Segment(dimension: .appointmentType, id: UUIDText.lowercase(t.id.rawValue), name: ""))!
    }

    @Test("appointments by status: the eight of the week, not the one the Monday after nor April's")
    func statuses() {
        let counts = metrics.practice.appointments
        #expect(counts.total == 8)
        #expect(counts.completed == 4)
        #expect(counts.noShow == 1)
        #expect(counts.cancelled == 2)
        #expect(counts.booked == 1)
        #expect(clinician(WeekFixture.hart).appointments.total == 5)
        #expect(clinician(WeekFixture.okafor).appointments.completed == 2)
        #expect(type(Fixture.cardio).appointments.booked == 1)
    }

    @Test("utilization: booked 160 of 3,060 available minutes; Dr Okafor's day off is not available time")
    func utilization() {
        // Booked (time-holding): 20 + 20 (consults 1, 2) + 40 + 40 + 40 (cardiology 6, 7, 8) = 160.
        // Available: Dr Hart 5 × 420 = 2,100; Dr Okafor 4 × 240 = 960 (Wednesday off).
        #expect(metrics.practice.utilization == Utilization(bookedMinutes: 160, availableMinutes: 3060))
        #expect(clinician(WeekFixture.hart).utilization == Utilization(bookedMinutes: 40, availableMinutes: 2100))
        #expect(clinician(WeekFixture.okafor).utilization?.ratio == 0.125)
        // Cardiology: the cardiology consults against Dr Okafor's time; general practice
        // (consultations need no specialty) against everyone's.
        let cardiology = metrics.metrics(for: .specialty(.cardiology))!
        #expect(cardiology.utilization == Utilization(bookedMinutes: 120, availableMinutes: 960))
        let general = metrics.metrics(for: .specialty(.generalPractice))!
        #expect(general.utilization == Utilization(bookedMinutes: 40, availableMinutes: 3060))
        // Types and species own no time.
        #expect(type(Fixture.consult).utilization == nil)
        #expect(type(Fixture.consult).bookedMinutes == 40)
    }

    @Test("a day the practice is closed is no one's available time: closing Friday takes 420 + 240 minutes away")
    func closureIsNotCapacity() {
        var history = WeekFixture.history
        history.practice.closures = [PracticeClosure(firstDay: Fixture.date("2026-05-08"), reason: "Staff training")]
        let closed = PracticeAnalytics(history: history).metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
        #expect(closed.practice.utilization == Utilization(bookedMinutes: 160, availableMinutes: 3060 - 420 - 240))
        let hart = closed.metrics(
            for: Segment(dimension: .clinician, id: UUIDText.lowercase(WeekFixture.hart.id.rawValue), name: ""))!
        #expect(hart.utilization == Utilization(bookedMinutes: 40, availableMinutes: 2100 - 420))
    }

    @Test("room utilization: Consult 1 held 80 of its 3,360 open minutes; the out-of-service room offers none")
    func rooms() {
        let one = metrics.metrics(
            for: Segment(dimension: .room, id: UUIDText.lowercase(Fixture.roomOne.id.rawValue), name: ""))!
        #expect(one.utilization == Utilization(bookedMinutes: 80, availableMinutes: 7 * 480))
        let two = metrics.metrics(
            for: Segment(dimension: .room, id: UUIDText.lowercase(Fixture.roomTwo.id.rawValue), name: ""))!
        #expect(two.utilization?.ratio == nil)
        #expect(two.appointments.total == 0)
        #expect(metrics.roomUtilization == Utilization(bookedMinutes: 80, availableMinutes: 3360))
    }

    @Test("no-show rate 1 of 5 decided; late cancellations 1 of 8 (3 h notice is late, 48 h is not)")
    func attendance() {
        #expect(metrics.practice.noShows == Rate(count: 1, total: 5))
        #expect(metrics.practice.noShows.value == 0.2)
        #expect(metrics.practice.lateCancellations == Rate(count: 1, total: 8))
        #expect(metrics.practice.cancellationsWithoutTime == 0)
        let dogs = metrics.metrics(for: .species(.dog))!
        #expect(dogs.noShows == Rate(count: 1, total: 3))
    }

    @Test("a longer notice period makes the two-day cancellation late too")
    func configurableNotice() {
        let analytics = PracticeAnalytics(
            history: WeekFixture.history, options: AnalyticsOptions(lateCancellationNotice: 72 * 3600))
        let metrics = analytics.metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
        #expect(metrics.practice.lateCancellations == Rate(count: 2, total: 8))
    }

    @Test("actual against booked: mean +3.5 min, mean absolute 6 min; the duration model's MAE is 4 min")
    func durations() {
        let duration = metrics.practice.duration
        // Completed: (booked, actual) = (20, 25), (20, 24), (40, 50), (40, 35).
        #expect(duration.count == 4)
        #expect(duration.meanPlannedMinutes == 30)
        #expect(duration.meanActualMinutes == 33.5)
        #expect(duration.meanDifferenceMinutes == 3.5)
        #expect(duration.meanAbsoluteDifferenceMinutes == 6)
        // The model learnt from April's five 25-minute dog consultations with Dr Hart:
        // type (125 + 5·20)/10 = 22.5; dog (125 + 5·22.5)/10 = 23.75; Dr Hart's pace
        // (5·25/23.75 + 5)/10 ≈ 1.0263 → dog 24.4 and cat 23.1, both booked as 25. Cardiology
        // has no history: its default, 40. Errors 0, 1, 10, 5 → 4.
        #expect(duration.modelCount == 4)
        #expect(duration.modelMAE == 4)
        #expect(type(Fixture.cardio).duration.meanDifferenceMinutes == 2.5)
    }

    @Test("a supplied duration model is the one judged")
    func suppliedModel() {
        let model = DurationPredictor(history: [], gridMinutes: 5)
        let metrics = PracticeAnalytics(history: WeekFixture.history, durationPredictor: model)
            .metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
        // Defaults only: 20, 20, 40, 40 against 25, 24, 50, 35 → (5 + 4 + 10 + 5) / 4.
        #expect(metrics.practice.duration.modelMAE == 6)
    }

    @Test("lead time: six bookings with a known time, mean 72.17 h, median (nearest rank) 24 h")
    func leadTime() {
        // 168, 2, 120, 96, 24, 23 hours; sorted 2, 23, 24, 96, 120, 168 → rank ⌈0.5·6⌉ = 3 → 24.
        let lead = metrics.practice.leadTime
        #expect(lead.count == 6)
        #expect(close(lead.meanHours, 433.0 / 6))
        #expect(lead.medianHours == 24)
    }

    @Test("new and returning patients: one of each and one without a first-visit date")
    func patients() {
        #expect(metrics.practice.patients == PatientMix(new: 1, returning: 1, unknown: 1))
        #expect(clinician(WeekFixture.hart).patients == PatientMix(new: 1, returning: 1, unknown: 0))
        #expect(clinician(WeekFixture.okafor).patients == PatientMix(new: 0, returning: 1, unknown: 1))
    }

    @Test("revenue from the fees of completed appointments only, exact to the penny")
    func revenue() {
        #expect(metrics.practice.revenue == [CurrencyAmount(currency: "GBP", amount: Decimal(text: "331.00"))])
        #expect(clinician(WeekFixture.hart).revenue(in: "GBP") == Decimal(text: "90"))
        #expect(clinician(WeekFixture.okafor).revenue(in: "GBP") == Decimal(text: "241"))
        #expect(type(Fixture.cardio).revenue(in: "GBP") == Decimal(text: "241.00"))
        #expect(metrics.metrics(for: .species(.cat))!.revenue(in: "GBP") == Decimal(text: "165.50"))
    }

    @Test("VTL compliance per level, with nearest-rank waits and every breach")
    func vtl() {
        let vtl = metrics.vtl
        let orange = vtl.level(.orange)!
        // Waits 10, 25, 25, 5 → two within 15 min; sorted 5, 10, 25, 25: median rank 2 → 10, p90 rank 4 → 25.
        #expect(orange.arrivals == 4)
        #expect(orange.withinTarget == Rate(count: 2, total: 4))
        #expect(orange.medianWaitMinutes == 10)
        #expect(orange.p90WaitMinutes == 25)
        #expect(vtl.level(.red)!.withinTarget == Rate(count: 1, total: 1))
        // Yellow: unseen 90 min after arrival at the time of the analysis — judged, a breach, no wait percentiles.
        #expect(vtl.level(.yellow)!.withinTarget == Rate(count: 0, total: 1))
        #expect(vtl.level(.yellow)!.medianWaitMinutes == nil)
        // Green: unseen for 30 of its 120 minutes — pending, not judged.
        #expect(vtl.level(.green)!.pending == 1)
        #expect(vtl.level(.green)!.compliance == nil)
        #expect(vtl.level(.blue)!.arrivals == 0)
        #expect(vtl.overall == Rate(count: 3, total: 6))
        #expect(vtl.breaches.map(\.patientID) == [Fixture.uuid(202), Fixture.uuid(203), Fixture.uuid(206)])
        #expect(vtl.breaches.map(\.overByMinutes) == [10, 10, 30])
        #expect(vtl.breaches[2].firstSeenAt == nil)
    }

    @Test("efficiency score: the documented formula over its five parts")
    func efficiency() {
        let score = metrics.efficiency
        #expect(close(score.part(.utilization)?.value, 160.0 / 3060))
        #expect(close(score.part(.attendance)?.value, 0.8))
        #expect(close(score.part(.slotRetention)?.value, 0.875))
        #expect(close(score.part(.durationFit)?.value, 0.8)) // 1 − 6 / 30
        #expect(close(score.part(.triageCompliance)?.value, 0.5))
        let expected = 100 * (0.30 * 160.0 / 3060 + 0.20 * 0.8 + 0.15 * 0.875 + 0.15 * 0.8 + 0.20 * 0.5)
        #expect(close(score.value, expected))
        #expect(close(score.parts.reduce(0) { $0 + $1.points }, expected))
    }

    @Test("efficiency without triage data re-weights the other parts rather than scoring triage as zero")
    func efficiencyWithoutTriage() {
        var history = WeekFixture.history
        history.triageArrivals = []
        let score = PracticeAnalytics(history: history).metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
            .efficiency
        #expect(score.part(.triageCompliance)?.value == nil)
        #expect(score.part(.triageCompliance)?.points == 0)
        let expected = 100 * (0.30 * 160.0 / 3060 + 0.20 * 0.8 + 0.15 * 0.875 + 0.15 * 0.8) / 0.80
        #expect(close(score.value, expected))
    }

    @Test("breakdowns list every clinician, type and room of the practice and only the species seen")
    func breakdowns() {
        #expect(metrics.clinicians.map(\.segment.name) == ["Dr Amelia Hart", "Dr Ben Okafor"])
        #expect(metrics.appointmentTypes.map(\.segment.name) == ["Cardiology consult", "Consultation"])
        #expect(metrics.rooms.map(\.segment.name) == ["Consult 1", "Consult 2"])
        #expect(metrics.species.map(\.segment.id) == ["dog", "cat"])
        #expect(
            Set(metrics.specialties.map(\.segment.id)) == ["cardiology", "general_practice", "emergency_critical_care"])
        #expect(metrics.dataQuality.isClean)
    }
}
