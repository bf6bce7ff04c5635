import Foundation
import Scheduling
import SharedKernel
import StoragePorts
import Testing

/// A practice's settings — versioned changes, closures, the installation's list of
/// practices — held to every store adapter alike.
@Suite("Practice settings contract (every store adapter)")
struct PracticeSettingsContractTests {
    /// The local day of `instant` in London (the fixture practice's zone).
    static func londonDay(_ instant: Date) throws -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London")!
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return try #require(LocalDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0))
    }

    @Test(
        """
        a change is stored under a new version, audited and published; a stale version is refused; bad input names \
        its field
        """,
        arguments: Adapter.available)
    func updateSettings(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let settings = store.practiceSettings
            let scope = fixture.scope
            let before = try await settings.versionedPractice(scope: scope)
            let changed = try await settings.updatePractice(
                PracticeSettingsChange(phone: "01234 567890", slotGridMinutes: 10), scope: scope,
                expectedVersion: before.version)
            #expect(changed.practice.version == before.version + 1 && changed.appointmentsToReplan.isEmpty)
            let read = try await settings.versionedPractice(scope: scope)
            #expect(
                read.version == before.version + 1 && read.value.phone == "01234 567890"
                    && read.value.slotGridMinutes == 10)
            #expect(try await settings.practice(scope: scope) == read.value)

            await #expect(throws: DomainError.versionMismatch(current: read.version)) {
                _ = try await settings.updatePractice(
                    PracticeSettingsChange(phone: "0"), scope: scope, expectedVersion: before.version)
            }
            do {
                _ = try await settings.updatePractice(
                    PracticeSettingsChange(name: ""), scope: scope, expectedVersion: nil)
                Issue.record("an empty name was accepted")
            } catch let error as ValidationError {
                #expect(error.errors.map(\.field) == ["name"])
            }
            let unchanged = try await settings.versionedPractice(scope: scope)
            #expect(unchanged.version == read.version && unchanged.value == read.value)

            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 50, before: nil, resourceType: ResourceKind.practice.rawValue, resourceID: nil)
            #expect(audit.items.filter { $0.action == "practice.update" }.count == 1)
            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events
            #expect(events.filter { $0.kind == PracticeEventKind.settingsChanged }.count == 1)
        }
    }

    @Test(
        """
        hours that leave a booking outside them report it for re-planning; a zone change is refused while bookings \
        are to come
        """,
        arguments: Adapter.available)
    func strandedBooking(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0
            // The booking is at noon; the practice now opens for the first hour of each day only.
            let hours = (1...7).map { OpeningHours(weekday: $0, opensMinute: 0, closesMinute: 60) }
            let result = try await store.practiceSettings.updatePractice(
                PracticeSettingsChange(openingHours: hours), scope: fixture.scope,
                expectedVersion: nil)
            #expect(result.appointmentsToReplan.map(\.value.id) == [booked.value.id])
            #expect(result.practice.value.openingHours == hours)
            // Hours that keep it inside strand nothing.
            let all = (1...7).map { OpeningHours(weekday: $0, opensMinute: 0, closesMinute: 1440) }
            let open = try await store.practiceSettings.updatePractice(
                PracticeSettingsChange(openingHours: all), scope: fixture.scope,
                expectedVersion: result.practice.version)
            #expect(open.appointmentsToReplan.isEmpty)

            await #expect(throws: (any Error).self) {
                _ = try await store.practiceSettings.updatePractice(
                    PracticeSettingsChange(timeZone: "America/New_York"), scope: fixture.scope,
                    expectedVersion: nil)
            }
            #expect(try await store.practiceSettings.practice(scope: fixture.scope).timeZone == "Europe/London")
        }
    }

    @Test(
        "a closure is added once however often its request is retried, reports the bookings it covers, and is removed",
        arguments: Adapter.available)
    func closures(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let settings = store.practiceSettings
            let scope = fixture.scope
            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0
            let day = try Self.londonDay(fixture.morning)
            let closure = PracticeClosure(firstDay: day, reason: "Staff training")
            let key = IdempotencyKey(key: "closure-1", fingerprint: "f1")
            let start = try await settings.versionedPractice(scope: scope).version

            let added = try await settings.addClosure(
                closure, scope: scope, expectedVersion: start, idempotencyKey: key)
            #expect(added.closure.id == closure.id && added.practice.version == start + 1)
            #expect(added.appointmentsToReplan.map(\.value.id) == [booked.value.id])
            let replay = try await settings.addClosure(
                closure, scope: scope, expectedVersion: start, idempotencyKey: key)
            #expect(replay.closure.id == closure.id && replay.practice.version == start + 1)
            #expect(try await settings.practice(scope: scope).closures.map(\.id) == [closure.id])
            // A stale version without a key is refused.
            await #expect(throws: DomainError.versionMismatch(current: start + 1)) {
                _ = try await settings.addClosure(
                    PracticeClosure(firstDay: day.adding(days: 7), reason: "Late"), scope: scope, expectedVersion: start
                )
            }

            let removed = try await settings.removeClosure(closure.id, scope: scope, expectedVersion: start + 1)
            #expect(removed.version == start + 2 && removed.value.closures.isEmpty)
            let stored = try await settings.versionedPractice(scope: scope)
            #expect(stored.version == removed.version && stored.value == removed.value)
            await #expect(throws: DomainError.self) {
                _ = try await settings.removeClosure(closure.id, scope: scope, expectedVersion: nil)
            }
            let kinds = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events.map(
                \.kind)
            #expect(kinds.filter { $0 == PracticeEventKind.closureAdded }.count == 1)
            #expect(kinds.filter { $0 == PracticeEventKind.closureRemoved }.count == 1)
        }
    }

    @Test(
        "the installation lists its practices by name and is empty only before the first", arguments: Adapter.available)
    func allPractices(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            #expect(try await store.practiceSettings.isEmpty())
            #expect(try await store.practiceSettings.allPractices().isEmpty)
            for name in ["Westside", "Eastgate"] {
                _ = try await store.accounts.createPractice(
                    AccountContractTests.practice(name),
                    administrator: FirstAdministrator(
                        email: "admin@\(name.lowercased()).example", displayName: "Admin", passwordHash: "h"),
                    requestID: nil)
            }
            #expect(try await !store.practiceSettings.isEmpty())
            #expect(try await store.practiceSettings.allPractices().map(\.name) == ["Eastgate", "Westside"])
        }
    }

    @Test(
        "a practice's settings are its own: another practice's scope does not see or change them",
        arguments: Adapter.available)
    func practicesApart(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let first = try await SchedulingFixture.make(store, name: "First")
            let second = try await SchedulingFixture.make(store, name: "Second")
            _ = try await store.practiceSettings.updatePractice(
                PracticeSettingsChange(phone: "111"), scope: first.scope, expectedVersion: nil)
            #expect(try await store.practiceSettings.practice(scope: second.scope).phone == nil)
            let closure = try await store.practiceSettings.addClosure(
                PracticeClosure(firstDay: try Self.londonDay(first.morning), reason: "Holiday"), scope: first.scope,
                expectedVersion: nil)
            await #expect(throws: DomainError.self) {
                _ = try await store.practiceSettings.removeClosure(
                    closure.closure.id, scope: second.scope, expectedVersion: nil)
            }
            #expect(try await store.practiceSettings.practice(scope: first.scope).closures.count == 1)
        }
    }
}
