import Foundation
import Scheduling
import SharedKernel
import StoragePorts
import StoragePostgres
import Synchronization
import Testing

/// Booking across server instances: what the exclusion constraints promise when nothing else
/// orders the writers.
@Suite(
    "PostgreSQL: bookings raced across two instances",
    .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
struct PostgresBookingRaceTests {
    enum Outcome: Sendable {
        case booked(Appointment)
        case conflict(BookingConflict)
        case failed(String)
    }

    @Test(
        """
        64 clients on two instances race for 4 slots: exactly one booking per slot, every other one a \
        BookingConflict; chains intact
        """
    )
    func sixtyFourClientRace() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let fixture = try await SchedulingFixture.make(a, name: "Race")
            // Slots 0 and 1 are the vet's (clinician contention); slots 2 and 3 are surgeries of
            // alternating clinicians in the one theatre (room contention).
            let slots = (0..<4).map { fixture.morning.addingTimeInterval(Double($0) * 3 * 3600) }
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                let outcomes = try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
                    for client in 0..<64 {
                        let slot = client % 4
                        let repository: any SchedulingRepository = client.isMultiple(of: 2) ? storeA : storeB
                        let isSurgery = slot >= 2
                        let clinician = isSurgery && (client / 4).isMultiple(of: 2) ? fixture.otherVet : fixture.vet
                        group.addTask {
                            do {
                                let booked = try await fixture.book(
                                    isSurgery ? fixture.surgery : fixture.consult, at: slots[slot],
                                    clinician: clinician, through: repository)
                                return (slot, .booked(booked.0.value))
                            } catch let conflict as BookingConflict {
                                return (slot, .conflict(conflict))
                            } catch {
                                return (slot, .failed(String(reflecting: error)))
                            }
                        }
                    }
                    var all: [(Int, Outcome)] = []
                    for try await outcome in group { all.append(outcome) }
                    return all
                }
                let failures = outcomes.compactMap { if case .failed(let reason) = $0.1 { reason } else { nil } }
                #expect(failures.isEmpty, "\(failures.prefix(3))")
                for slot in 0..<4 {
                    let here = outcomes.filter { $0.0 == slot }.map(\.1)
                    let winners = here.compactMap { if case .booked(let appointment) = $0 { appointment } else { nil } }
                    let conflicts = here.compactMap { if case .conflict(let conflict) = $0 { conflict } else { nil } }
                    #expect(winners.count == 1, "slot \(slot): \(winners.count) bookings")
                    #expect(conflicts.count == 15, "slot \(slot): \(conflicts.count) conflicts")
                    // The time in the way is the winner's (a surgery of the other clinician meets the room).
                    #expect(conflicts.allSatisfy { $0.conflictingTime == winners.first?.time })
                    if slot < 2 { #expect(conflicts.allSatisfy { $0.resource == "clinician" }) }
                }
                let day = TimeRange(start: fixture.morning, end: fixture.morning.addingTimeInterval(86_400))!
                let stored = try await storeB.appointments(
                    scope: fixture.scope, overlapping: day, clinicianID: nil, orRoomType: nil)
                #expect(stored.count == 4)
                let verification = try await storeA.verifyAuditChain()
                #expect(verification.isIntact)
                let booked = try await storeB.auditEntries(
                    scope: fixture.scope, limit: 200, before: nil, resourceType: ResourceKind.appointment.rawValue,
                    resourceID: nil)
                #expect(booked.items.filter { $0.action == "appointment.book" }.count == 4)
                let events = try await storeA.events(practiceID: fixture.scope.practiceID, after: 0, limit: 500).events
                #expect(events.map(\.sequence) == (0..<Int64(events.count)).map { $0 + 1 })
                #expect(
                    Set(events.filter { $0.kind == "appointment.booked" }.compactMap(\.resourceID))
                        == Set(stored.map(\.value.id.description)))
            }
        }
    }

    @Test("the same idempotency key sent to both instances at once books once; both get the first appointment")
    func idempotencyAcrossInstances() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let fixture = try await SchedulingFixture.make(a, name: "Retry")
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                let key = IdempotencyKey(key: "same-request", fingerprint: "body")
                let results = try await withThrowingTaskGroup(of: (Versioned<Appointment>, replayed: Bool).self) {
                    group in
                    for client in 0..<8 {
                        let repository: any SchedulingRepository = client.isMultiple(of: 2) ? storeA : storeB
                        group.addTask {
                            try await fixture.book(fixture.consult, at: fixture.morning, key: key, through: repository)
                        }
                    }
                    var all: [(Versioned<Appointment>, replayed: Bool)] = []
                    for try await result in group { all.append(result) }
                    return all
                }
                #expect(Set(results.map(\.0.value.id)).count == 1)
                #expect(results.filter { !$0.replayed }.count == 1)
            }
        }
    }
}
