import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// `vetnet seed --history`: a reproducible past built from the practice's own set-up.
@Suite("Seeded history")
struct PracticeHistorySeedTests {
    static let now = Timestamp.date("2026-06-17T15:30:00Z")!

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    /// The same small practice, ids and all, in a fresh store.
    static func practice() async throws -> (VetNetStore, AccessScope) {
        let store = try VetNetStore.inMemory(clock: .fixed(now))
        let profile = PracticeProfile(
            id: PracticeID(id(1)), name: "Seed Vets", timeZone: "Europe/London",
            openingHours: (1...6).map { OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: 19 * 60) })
        try await store.createPractice(profile)
        let scope = AccessScope.system(profile.id)
        let people: [(Int, String, [Specialty], [Species])] = [
            (10, "Dr General", [.generalPractice], [.dog, .cat, .rabbit]),
            (11, "Dr Heart", [.cardiology, .internalMedicine], [.dog, .cat]),
            (12, "Dr Night", [.emergencyCriticalCare], [.dog, .cat, .rabbit]),
        ]
        for (n, name, specialties, species) in people {
            let clinician = try await store.createClinician(
                Clinician(
                    id: Identifier(id(n)), displayName: name, credentials: "MRCVS",
                    expertise: specialties.map { Expertise(specialty: $0, proficiency: 4, years: 6) },
                    species: Set(species),
                    maxAppointmentsPerDay: 30, complexityCeiling: 1), scope: scope)
            let startMinute: Int = n == 12 ? 660 : 480
            let endMinute: Int = n == 12 ? 1140 : 1020
            let weekdays = Array(1...5)
            let weekly: [WeeklyInterval] = weekdays.map {
                WeeklyInterval(weekday: $0, startMinute: startMinute, endMinute: endMinute)
            }
            let breaks: [WeeklyInterval] = weekdays.map {
                WeeklyInterval(weekday: $0, startMinute: 780, endMinute: 810)
            }
            let availability = ClinicianAvailability(clinicianID: clinician.id, weekly: weekly, breaks: breaks)
            _ = try await store.setAvailability(availability, scope: scope, expectedVersion: nil)
        }
        for (n, name, type) in [(20, "Consult 1", RoomType.exam), (21, "Consult 2", .exam), (22, "Imaging", .imaging)] {
            _ = try await store.createRoom(Room(id: Identifier(id(n)), name: name, type: type), scope: scope)
        }
        let types = [
            AppointmentType(
                id: Identifier(id(30)), name: "Consultation", defaultDurationMinutes: 15, bufferAfterMinutes: 5,
                requiredRoomType: .exam, fee: Money(minorUnits: 5500, currency: "GBP")),
            AppointmentType(
                id: Identifier(id(31)), name: "Vaccination", defaultDurationMinutes: 10, bufferAfterMinutes: 5,
                requiredRoomType: .exam, fee: Money(minorUnits: 6200, currency: "GBP")),
            AppointmentType(
                id: Identifier(id(32)), name: "Cardiology work-up", defaultDurationMinutes: 45, bufferAfterMinutes: 10,
                requiredSpecialty: .cardiology, requiredRoomType: .imaging,
                fee: Money(minorUnits: 18000, currency: "GBP")),
            AppointmentType(
                id: Identifier(id(33)), name: "Emergency assessment", defaultDurationMinutes: 30,
                bufferAfterMinutes: 10,
                requiredSpecialty: .emergencyCriticalCare, requiredRoomType: .exam,
                fee: Money(minorUnits: 15000, currency: "GBP")),
        ]
        for type in types { _ = try await store.createAppointmentType(type, scope: scope) }
        let owner = try await store.createOwner(
            Owner(id: Identifier(id(40)), firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let species: [Species] = [.dog, .cat, .dog, .rabbit, .cat]
        for n in 0..<30 {
            // Patient 0 is born ten days before "now": never booked before that.
            let birth =
                n == 0 ? now.addingTimeInterval(-10 * 86_400) : now.addingTimeInterval(-Double(400 + n * 30) * 86_400)
            _ = try await store.createPatient(
                Patient(
                    id: Identifier(id(100 + n)), name: "Pet \(n)", species: species[n % species.count],
                    birthDate: birth, ownerID: owner.id), scope: scope)
        }
        return (store, scope)
    }

    static func everything(_ store: VetNetStore, _ scope: AccessScope) async throws -> PracticeHistory {
        let all = DateInterval(start: now.addingTimeInterval(-400 * 86_400), end: now.addingTimeInterval(60 * 86_400))
        return try await store.practiceHistory(
            scope: scope, window: HistoryWindow(appointmentRanges: [all], arrivalRanges: [all]),
            action: .analyticsReportRead)
    }

    @Test("the same practice, now and seed give the same history, ids included; another seed another one")
    func reproducible() async throws {
        let (first, firstScope) = try await Self.practice()
        let (second, secondScope) = try await Self.practice()
        let (third, thirdScope) = try await Self.practice()
        let one = try await PracticeHistorySeed.seed(
            store: first, scope: firstScope, days: 28, aheadDays: 7, seed: 42, now: Self.now)
        let two = try await PracticeHistorySeed.seed(
            store: second, scope: secondScope, days: 28, aheadDays: 7, seed: 42, now: Self.now)
        _ = try await PracticeHistorySeed.seed(
            store: third, scope: thirdScope, days: 28, aheadDays: 7, seed: 43, now: Self.now)
        #expect(one.summary == two.summary)
        #expect(one.summary.appointments > 300)
        #expect(one.summary.arrivals > 20)
        #expect(one.summary.weights > 100)
        let a = try await Self.everything(first, firstScope)
        let b = try await Self.everything(second, secondScope)
        let c = try await Self.everything(third, thirdScope)
        #expect(a.appointments == b.appointments)
        #expect(a.triageArrivals == b.triageArrivals)
        #expect(a.appointments != c.appointments)
        #expect(a.appointments.count == one.summary.appointments)
        let weights = try await first.medicalRecord(scope: firstScope, patientID: Identifier(Self.id(101))).0.weights
            .measurements
        let sameWeights = try await second.medicalRecord(scope: secondScope, patientID: Identifier(Self.id(101))).0
            .weights.measurements
        #expect(weights == sameWeights)
    }

    @Test(
        "the history looks like a practice's: outcomes before now, bookings after, late and early cancellations, waits")
    func realistic() async throws {
        let (store, scope) = try await Self.practice()
        _ = try await PracticeHistorySeed.seed(
            store: store, scope: scope, days: 56, aheadDays: 14, seed: 7, now: Self.now)
        let history = try await Self.everything(store, scope)
        let past = history.appointments.filter { $0.appointment.time.end <= Self.now.addingTimeInterval(-4 * 3600) }
        let future = history.appointments.filter { $0.appointment.time.start > Self.now }
        #expect(past.allSatisfy { [.completed, .cancelled, .noShow].contains($0.appointment.status) })
        #expect(future.allSatisfy { $0.appointment.status == .booked || $0.appointment.status == .cancelled })
        #expect(!future.isEmpty)
        let completed = past.filter { $0.appointment.status == .completed }
        #expect(completed.allSatisfy { ($0.appointment.actualMinutes ?? 0) > 0 && $0.appointment.completedAt != nil })
        #expect(Double(completed.count) > 0.8 * Double(past.count))
        #expect(past.contains { $0.appointment.status == .noShow })
        let cancelled = history.appointments.filter { $0.appointment.status == .cancelled }
        #expect(
            cancelled.allSatisfy { record in
                guard let at = record.cancelledAt, let booked = record.bookedAt else { return false }
                return at >= booked && at <= Self.now
            })
        let notice = cancelled.compactMap { record in
            record.cancelledAt.map { record.appointment.time.start.timeIntervalSince($0) }
        }
        #expect(notice.contains { $0 < 86_400 })
        #expect(notice.contains { $0 >= 86_400 })
        #expect(
            history.appointments.allSatisfy {
                ($0.bookedAt ?? .distantFuture) <= min($0.appointment.time.start, Self.now)
            })
        // The duration model has something to learn: exotics and overrunning consultations differ from the booked
        // length.
        #expect(completed.contains { $0.appointment.actualMinutes != $0.appointment.durationMinutes })
        // Nobody is booked before they were born.
        #expect(
            !history.appointments.contains {
                $0.appointment.patientID == Self.id(100)
                    && $0.appointment.time.start < Self.now.addingTimeInterval(-9 * 86_400)
            })
        #expect(
            history.triageArrivals.allSatisfy { arrival in
                arrival.arrival < Self.now && (arrival.firstSeenAt.map { $0 >= arrival.arrival } ?? true)
            })
        #expect(history.triageArrivals.contains { $0.firstSeenAt != nil })
        // The figures over the seeded weeks are the generator's rates, not zeros.
        let analytics = PracticeAnalytics(history: history)
        let period = analytics.period(DateInterval(start: Self.now.addingTimeInterval(-56 * 86_400), end: Self.now))
        let figures = analytics.metrics(for: period, asOf: Self.now)
        #expect((figures.practice.noShows.value ?? 0) > 0.01 && (figures.practice.noShows.value ?? 1) < 0.2)
        #expect((figures.practice.utilization?.ratio ?? 0) > 0.3)
        #expect(figures.practice.cancellationsWithoutTime == 0)
        #expect(figures.vtl.overall.total > 0)
    }

    @Test("a practice that already has a past in those days is refused, and nothing is written")
    func refusesTwice() async throws {
        let (store, scope) = try await Self.practice()
        let first = try await PracticeHistorySeed.seed(
            store: store, scope: scope, days: 14, aheadDays: 0, seed: 1, now: Self.now)
        await #expect(throws: PracticeHistorySeed.Refusal.self) {
            _ = try await PracticeHistorySeed.seed(
                store: store, scope: scope, days: 14, aheadDays: 0, seed: 2, now: Self.now)
        }
        #expect(try await Self.everything(store, scope).appointments.count == first.summary.appointments)
    }
}
