import Foundation
import Logging
import PostgresNIO
import SharedKernel
import StoragePorts
import StoragePostgres
import Testing

/// What only the shared database shows of practice settings and analytics versions: two
/// instances changing the settings at once, and versions kept by the schema for any writer.
@Suite(
    "PostgreSQL: practice settings across instances, analytics versions in the schema",
    .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
struct PostgresPracticeTests {
    @Test(
        "two instances changing the settings from the same version at once: one change is stored, the other is refused")
    func concurrentSettings() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let fixture = try await SchedulingFixture.make(a)
            let start = try await storeA.versionedPractice(scope: fixture.scope).version
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                @Sendable func change(_ store: PostgresStore, _ phone: String) async -> Result<
                    PracticeChangeResult, any Error
                > {
                    do {
                        return .success(
                            try await store.updatePractice(
                                PracticeSettingsChange(phone: phone), scope: fixture.scope, expectedVersion: start))
                    } catch { return .failure(error) }
                }
                async let first = change(storeA, "A")
                async let second = change(storeB, "B")
                let results = await [first, second]
                let stored = results.compactMap { try? $0.get() }
                #expect(stored.count == 1)
                #expect(
                    results.contains {
                        if case .failure(DomainError.versionMismatch(current: start + 1)) = $0 { true } else { false }
                    })
                let now = try await storeB.versionedPractice(scope: fixture.scope)
                #expect(now.version == start + 1 && now.value.phone == stored.first?.practice.value.phone)
            }
        }
    }

    @Test(
        """
        any statement writing appointments moves the analytics version once per transaction and stamps the rows with it
        """
    )
    func versionForAnyWriter() async throws {
        try await withStore(.postgres) { store in
            let postgres = try #require(store.postgres).store
            let fixture = try await SchedulingFixture.make(store)
            _ = try await fixture.book(fixture.consult, at: fixture.morning)
            _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(3600))
            let before = try await postgres.analyticsDataVersion(scope: fixture.scope)
            let logger = Logger(label: "test")
            let stamps = try await postgres.client.withTransaction(logger: logger) { connection -> [Int64] in
                try await connection.query(
                    "SELECT set_config('vetnet.practice_id', \(fixture.scope.practiceID.description), true)",
                    logger: logger)
                try await connection.query("UPDATE appointment SET reason = 'edited by hand'", logger: logger)
                try await connection.query("UPDATE appointment SET staff_notes = 'twice'", logger: logger)
                var stamps: [Int64] = []
                for try await stamp in try await connection.query(
                    "SELECT analytics_stamp FROM appointment", logger: logger
                ).decode(Int64.self) {
                    stamps.append(stamp)
                }
                return stamps
            }
            let after = try await postgres.analyticsDataVersion(scope: fixture.scope)
            #expect(after.analytics == before.analytics + 1 && after.configuration == before.configuration)
            #expect(stamps == [after.analytics, after.analytics])
            let changes = try #require(
                try await postgres.practiceHistoryChanges(
                    scope: fixture.scope, window: AnalyticsHistoryContractTests.window(fixture),
                    since: before, limit: 100))
            #expect(changes.changes.appointments.count == 2 && changes.version == after)
        }
    }
}
