import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Triage

/// One ordinary British-summer week, Monday 4 to Sunday 10 May 2026, small enough to work
/// out every figure by hand (the working is in the tests).
///
/// - Dr Hart (general practice, emergency): Mon–Fri 09:00–17:00, lunch 12:30–13:30 → 420 min a day.
/// - Dr Okafor (cardiology): Mon–Fri 09:00–13:00 → 240 min a day, on leave Wednesday 6 May.
/// - Consultation: 20 min, no specialty (general practice), £45.00. Cardiology consult: 40 min, £120.50.
/// - Consult 1 is in use; Consult 2 is out of service.
/// - Five consultations by Dr Hart in April (dogs, 25 min each) teach the duration model.
enum WeekFixture {
    static let hart = Fixture.clinician(1, "Dr Amelia Hart", [.generalPractice, .emergencyCriticalCare])
    static let okafor = Fixture.clinician(2, "Dr Ben Okafor", [.cardiology])

    static let period = AnalyticsPeriod(
        from: Fixture.date("2026-05-04"), through: Fixture.date("2026-05-10"), timeZone: Fixture.london)!
    /// Wednesday 12:30.
    static let asOf = Fixture.local("2026-05-06 12:30")

    static var history: PracticeHistory {
        let l = Fixture.local
        var appointments: [AppointmentRecord] = [
            // 1. Mon 09:00 consult, 25 min actual, returning patient 1, booked a week ahead.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-04 09:00"), minutes: 20, patient: 1, actual: 25,
                bookedAt: l("2026-04-27 09:00")),
            // 2. Mon 10:00 consult, 24 min actual, new patient 2 (a cat), booked two hours ahead.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-04 10:00"), minutes: 20, patient: 2, actual: 24, species: .cat,
                bookedAt: l("2026-05-04 08:00")),
            // 3. Tue 09:00 no-show.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-05 09:00"), minutes: 20, patient: 3, status: .noShow,
                bookedAt: l("2026-04-30 09:00")),
            // 4. Tue 11:00 cancelled at 08:00 the same morning: late.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-05 11:00"), minutes: 20, patient: 4, status: .cancelled,
                bookedAt: l("2026-05-01 11:00"), cancelledAt: l("2026-05-05 08:00")),
            // 5. Wed 09:00 cancelled two days ahead: not late. No booking time known.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-06 09:00"), minutes: 20, patient: 5, status: .cancelled,
                species: .cat,
                cancelledAt: l("2026-05-04 09:00")),
            // 6. Mon 09:00 cardiology, 50 min actual, patient 1 again, in Consult 1.
            Fixture.visit(
                okafor, Fixture.cardio, l("2026-05-04 09:00"), minutes: 40, patient: 1, actual: 50,
                room: Fixture.roomOne,
                bookedAt: l("2026-05-03 09:00")),
            // 7. Tue 10:00 cardiology, 35 min actual, patient 6 (no first-visit date known), in Consult 1.
            Fixture.visit(
                okafor, Fixture.cardio, l("2026-05-05 10:00"), minutes: 40, patient: 6, actual: 35, species: .cat,
                room: Fixture.roomOne),
            // 8. Thu 09:00 cardiology, still booked.
            Fixture.visit(
                okafor, Fixture.cardio, l("2026-05-07 09:00"), minutes: 40, patient: 7, status: .booked,
                bookedAt: l("2026-05-06 10:00")),
            // The Monday after: outside the period.
            Fixture.visit(
                hart, Fixture.consult, l("2026-05-11 09:00"), minutes: 20, patient: 1, actual: 20,
                bookedAt: l("2026-05-01 09:00")),
        ]
        // April history for the duration model: five dogs, 25 minutes each, with Dr Hart.
        for day in 0..<5 {
            appointments.append(
                Fixture.visit(
                    hart, Fixture.consult, l("2026-04-1\(day) 14:00"), minutes: 20, patient: 100 + day, actual: 25))
        }
        let arrivals: [TriageArrival] = [
            Fixture.arrival(201, .orange, l("2026-05-04 17:10"), seenAfter: 10),
            Fixture.arrival(202, .orange, l("2026-05-04 17:30"), seenAfter: 25),
            Fixture.arrival(203, .orange, l("2026-05-05 18:05"), seenAfter: 25),
            Fixture.arrival(204, .orange, l("2026-05-06 10:00"), seenAfter: 5),
            Fixture.arrival(205, .red, l("2026-05-05 09:00"), seenAfter: 0),
            // Still waiting at 12:30 after 90 minutes: a yellow breach, unseen.
            Fixture.arrival(206, .yellow, l("2026-05-06 11:00"), seenAfter: nil),
            // Still waiting for 30 minutes, inside green's 120: pending.
            Fixture.arrival(207, .green, l("2026-05-06 12:00"), seenAfter: nil),
            // The week before: outside the period.
            Fixture.arrival(208, .orange, l("2026-05-01 12:00"), seenAfter: 60),
        ]
        return PracticeHistory(
            practice: Fixture.practice,
            appointmentTypes: [Fixture.consult, Fixture.cardio],
            clinicians: [hart, okafor],
            availabilities: [
                Fixture.availability(hart, from: (9, 0), to: (17, 0), lunch: ((12, 30), (13, 30))),
                Fixture.availability(
                    okafor, from: (9, 0), to: (13, 0),
                    timeOff: [TimeOff(firstDay: Fixture.date("2026-05-06"), lastDay: Fixture.date("2026-05-06"))]),
            ],
            rooms: [Fixture.roomOne, Fixture.roomTwo],
            appointments: appointments,
            triageArrivals: arrivals,
            firstVisits: [
                Fixture.uuid(1): Fixture.local("2025-01-10 10:00"),
                Fixture.uuid(2): Fixture.local("2026-05-04 10:00"),
            ])
    }

    static var analytics: PracticeAnalytics { PracticeAnalytics(history: history) }
}
