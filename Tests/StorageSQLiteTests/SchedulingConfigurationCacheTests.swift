import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSQLite
import Testing

@Suite("Scheduling configuration is cached but never stale")
struct SchedulingConfigurationCacheTests {
    private let day = TimeRange(
        start: Date(timeIntervalSince1970: 1_795_000_000), end: Date(timeIntervalSince1970: 1_795_086_400))!

    @Test("changes made through the store or by any SQL statement are seen by the next read")
    func followsEveryWrite() async throws {
        let fixture = try await TwoPractices.make()
        let store = fixture.store
        let scope = fixture.scope(fixture.adminA)
        let clinician = try await store.createClinician(
            Clinician(
                displayName: "Dr Ada Byrne", credentials: "BVSc",
                expertise: [Expertise(specialty: .cardiology, proficiency: 4, years: 6)],
                species: [.dog], maxAppointmentsPerDay: 12, complexityCeiling: 0.8), scope: scope)
        let exam = try await store.createRoom(Room(name: "Exam 1", type: .exam), scope: scope)
        let consult = try await store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 15, requiredRoomType: .exam,
                fee: Money(minorUnits: 4500, currency: "GBP")), scope: scope)

        var data = try await store.schedulingData(scope: scope, range: day)
        #expect(
            data.clinicians.map(\.id) == [clinician.id] && data.rooms.map(\.id) == [exam.id]
                && data.types.map(\.id) == [consult.id])
        #expect(data.practice.timeZone == "Europe/London")

        // Through the store: a second room.
        _ = try await store.createRoom(Room(name: "Exam 2", type: .exam), scope: scope)
        data = try await store.schedulingData(scope: scope, range: day)
        #expect(data.rooms.count == 2)

        // By raw SQL, bypassing every repository: each part of the configuration.
        let statements: [(String, (SchedulingData) -> Bool)] = [
            (
                "UPDATE practice SET time_zone = 'Europe/Dublin' WHERE id = '\(fixture.a.id)'",
                { $0.practice.timeZone == "Europe/Dublin" }
            ),
            (
                "UPDATE clinician SET max_appointments_per_day = 3 WHERE id = '\(clinician.id)'",
                { $0.clinicians.first?.maxAppointmentsPerDay == 3 }
            ),
            (
                "UPDATE clinician_expertise SET proficiency = 2 WHERE clinician_id = '\(clinician.id)'",
                { $0.clinicians.first?.expertise.first?.proficiency == 2 }
            ),
            (
                "UPDATE room SET active = 0 WHERE id = '\(exam.id)'",
                { $0.rooms.first { $0.id == exam.id }?.isActive == false }
            ),
            ("DELETE FROM appointment_type WHERE id = '\(consult.id)'", { $0.types.isEmpty }),
            ("UPDATE clinician SET active = 0 WHERE id = '\(clinician.id)'", { $0.clinicians.isEmpty }),
        ]
        for (sql, check) in statements {
            try await store.writer.write { db in try db.execute(sql: sql) }
            let fresh = try await store.schedulingData(scope: scope, range: day)
            #expect(check(fresh), "not seen after: \(sql)")
        }

        // The other practice's configuration is its own.
        let other = try await store.schedulingData(scope: fixture.scope(fixture.adminB), range: day)
        #expect(other.clinicians.isEmpty && other.rooms.isEmpty && other.practice.timeZone == "America/New_York")
    }
}
