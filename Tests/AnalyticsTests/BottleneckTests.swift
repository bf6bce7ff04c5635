import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing

/// The week from Monday 4 May 2026, seen at 10:00 on the Monday.
///
/// Dr Okafor (cardiology) works Mon–Fri 09:00–13:00 but takes at most 180 booked minutes a
/// day: 900 bookable minutes. She has a 170-minute list every weekday (850 min) and 400 more
/// minutes of cardiology are waiting to be booked. Dr Hart (general practice) works
/// Mon–Fri 09:00–17:00 with lunch (2,100 min) and has three 20-minute consultations.
@Suite("Bottlenecks over the coming days")
struct BottleneckTests {
    static let hart = WeekFixture.hart
    static let okafor = WeekFixture.okafor
    static let locum = Fixture.clinician(3, "Dr Locum", [.dermatology])
    static let asOf = Fixture.local("2026-05-04 10:00")

    static var history: PracticeHistory {
        let l = Fixture.local
        var appointments = (4...8).map { day in
            Fixture.visit(
                okafor, Fixture.cardio, l("2026-05-0\(day) 09:00"), minutes: 170, patient: day, status: .booked)
        }
        appointments += [
            // Earlier on the Monday: part of the day's load though already past.
            Fixture.visit(hart, Fixture.consult, l("2026-05-04 09:00"), minutes: 20, patient: 20, status: .completed),
            Fixture.visit(hart, Fixture.consult, l("2026-05-05 09:00"), minutes: 20, patient: 21, status: .booked),
            Fixture.visit(hart, Fixture.consult, l("2026-05-10 09:00"), minutes: 20, patient: 22, status: .booked),
            // Released time and time outside the window do not count.
            Fixture.visit(hart, Fixture.consult, l("2026-05-06 09:00"), minutes: 20, patient: 23, status: .cancelled),
            Fixture.visit(okafor, Fixture.cardio, l("2026-05-11 09:00"), minutes: 170, patient: 24, status: .booked),
            Fixture.visit(okafor, Fixture.cardio, l("2026-05-03 09:00"), minutes: 170, patient: 25, status: .completed),
            // A clinician the practice does not know, with a booking.
            AppointmentRecord(
                Appointment(
                    practiceID: Fixture.practiceID, patientID: Fixture.uuid(26), clinicianID: Fixture.uuid(77),
                    appointmentTypeID: Fixture.consult.id,
                    time: TimeRange(start: l("2026-05-05 14:00"), end: l("2026-05-05 14:30"))!)),
        ]
        return PracticeHistory(
            practice: Fixture.practice, appointmentTypes: [Fixture.consult, Fixture.cardio],
            clinicians: [hart, okafor, locum],
            availabilities: [
                Fixture.availability(hart, from: (9, 0), to: (17, 0), lunch: ((12, 30), (13, 30))),
                Fixture.availability(okafor, from: (9, 0), to: (13, 0), cap: 180),
            ],
            appointments: appointments,
            openRequests: [
                OpenRequest(specialty: .cardiology, minutes: 250), OpenRequest(specialty: .cardiology, minutes: 150),
                OpenRequest(specialty: nil, minutes: 30), OpenRequest(specialty: .dermatology, minutes: 60),
                OpenRequest(specialty: .oncology, minutes: -40),
            ])
    }

    let report = PracticeAnalytics(history: history).bottlenecks(asOf: asOf, days: 7)

    @Test("the window is the seven local days from the day of the analysis")
    func window() {
        #expect(report.firstDay == Fixture.date("2026-05-04"))
        #expect(report.days == 7)
    }

    @Test("cardiology: 850 booked + 400 requested against 900 bookable minutes (the daily cap, not the 1,200 worked)")
    func cardiology() throws {
        let cardiology = try #require(report.specialties.first { $0.specialty == .cardiology })
        #expect(cardiology.bookedMinutes == 850)
        #expect(cardiology.requestedMinutes == 400)
        #expect(cardiology.capacityMinutes == 900)
        #expect(cardiology.shortfallMinutes == 350)
        #expect(close(cardiology.ratio, 1250.0 / 900))
        #expect(cardiology.isBottleneck)
    }

    @Test("general practice fits: 60 booked + 30 requested against everyone's 3,000 minutes")
    func generalPractice() throws {
        let general = try #require(report.specialties.first { $0.specialty == .generalPractice })
        // Consultations on Mon, Tue, Sun (not the cancelled one, not next week) plus the unknown clinician's 30 min.
        #expect(general.bookedMinutes == 90)
        #expect(general.requestedMinutes == 30)
        #expect(general.capacityMinutes == 2100 + 900)
        #expect(!general.isBottleneck)
    }

    @Test("demand nobody can serve is the worst bottleneck; invalid requests are ignored")
    func ordering() {
        #expect(report.bottlenecks.map(\.specialty) == [.dermatology, .cardiology])
        #expect(report.specialties.first?.capacityMinutes == 0)
        #expect(!report.specialties.contains { $0.specialty == .oncology })
    }

    @Test(
        """
        clinicians against the 60–90 % band: Dr Okafor above, Dr Hart below, the unknown booking above, the locum off \
        the rota
        """
    )
    func loads() {
        #expect(report.overloaded.map(\.clinician.name) == ["Unknown clinician", "Dr Ben Okafor"])
        #expect(report.underloaded.map(\.clinician.name) == ["Dr Amelia Hart"])
        let okafor = report.clinicians.first { $0.clinician.name == "Dr Ben Okafor" }
        #expect(close(okafor?.load, 850.0 / 900))
        let hart = report.clinicians.first { $0.clinician.name == "Dr Amelia Hart" }
        #expect(hart?.bookedMinutes == 60)
        #expect(hart?.capacityMinutes == 2100)
        #expect(!report.clinicians.contains { $0.clinician.name == "Dr Locum" })
    }

    @Test("a wider band puts Dr Okafor within it")
    func band() {
        let report = PracticeAnalytics(history: Self.history, options: AnalyticsOptions(targetLoad: 0.5...0.95))
            .bottlenecks(asOf: Self.asOf, days: 7)
        #expect(report.clinicians.first { $0.clinician.name == "Dr Ben Okafor" }?.band == .within)
    }
}
