import Foundation
import Logging
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import Testing

@testable import StoragePostgres

/// Rows of one description go into PostgreSQL many to a statement (a bulk load writes
/// thousands): split where one statement's parameters run out, and refused whole when a row
/// has another shape.
@Suite("PostgreSQL: rows inserted many at once")
struct PostgresMultiRowInsertTests {
    @Test(
        "6,000 owners go in over two statements and read back; a row of another shape refuses them all",
        .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
    func manyRows() async throws {
        try await withStore(.postgres) { store in
            let owner = try #require(store.postgres?.owner)
            let profile = PracticeProfile(id: PracticeID(), name: "Many", timeZone: "Europe/London", openingHours: [])
            try await store.population.createPractice(profile, requestID: nil)
            let seal = FieldSeal(cipher: testCipher, practiceID: profile.id)
            let now = store.clock.clock.now()
            let owners = (0..<6_000).map { Owner(firstName: "Owner\($0)", lastName: "Many", email: "o\($0)@x.example") }
            let rows = try owners.map { try StoredOwnerColumns.insert($0, seal: seal, now: now) }
            // Eleven columns: 5,957 rows fill one statement's 65,535 parameters.
            #expect(Int(UInt16.max) / rows[0].columns.count < rows.count)
            let logger = Logger(label: "vetnet.contract.sql")
            try await asInstallation(owner) { try await $0.insert(rows, logger: logger) }
            let scope = AccessScope.system(profile.id)
            #expect(try await store.medicalRecords.ownerCount(scope: scope) == 6_000)
            #expect(try await store.records.owner(scope: scope, id: owners[5_999].id).value == owners[5_999])

            let more = (0..<3).map { Owner(firstName: "Late\($0)", lastName: "Many") }
            var mixed = try more.map { try StoredOwnerColumns.insert($0, seal: seal, now: now) }
            mixed[2] = mixed[2].setting("version", .integer(1))
            let refused = await #expect(throws: PostgresTransactionError.self) {
                try await asInstallation(owner) { try await $0.insert(mixed, logger: logger) }
            }
            #expect(refused?.closureError is MixedInsertRows)
            #expect(try await store.medicalRecords.ownerCount(scope: scope) == 6_000)
        }
    }
}
