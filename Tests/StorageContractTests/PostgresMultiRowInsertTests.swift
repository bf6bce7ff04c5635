import Foundation
import Logging
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import Testing

@testable import StoragePostgres

/// Rows of one description go into PostgreSQL many to a statement (a bulk load or a restore
/// writes thousands): split where one statement's parameters run out, and a row of another
/// shape in a statement of its own, in order.
@Suite("PostgreSQL: rows inserted many at once")
struct PostgresMultiRowInsertTests {
    @Test(
        "6,000 owners go in over two statements and read back; a row of another shape goes in on its own, in order",
        .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
    func manyRows() async throws {
        try await withStore(.postgres) { store in
            let owner = try #require(store.postgres?.owner)
            let scope = try await PopulationLoaderContractTests.emptyPractice("Many", in: store)
            let seal = FieldSeal(cipher: testCipher, practiceID: scope.practiceID)
            let now = store.clock.clock.now()
            let owners = (0..<6_000).map { Owner(firstName: "Owner\($0)", lastName: "Many", email: "o\($0)@x.example") }
            let rows = try owners.map { try StoredOwnerColumns.insert($0, seal: seal, now: now) }
            // Eleven columns: 5,957 rows fill one statement's 65,535 parameters.
            #expect(Int(UInt16.max) / rows[0].columns.count < rows.count)
            let logger = Logger(label: "vetnet.contract.sql")
            try await asInstallation(owner) { try await $0.insert(rows, logger: logger) }
            #expect(try await store.medicalRecords.ownerCount(scope: scope) == 6_000)
            #expect(try await store.records.owner(scope: scope, id: owners[5_999].id).value == owners[5_999])

            // A run of another description goes in a statement of its own, in order.
            let late = (0..<3).map { Owner(firstName: "Late\($0)", lastName: "Many") }
            var mixed = try late.map { try StoredOwnerColumns.insert($0, seal: seal, now: now) }
            mixed[1] = mixed[1].setting("version", .integer(4))
            try await asInstallation(owner) { try await $0.insert(mixed, logger: logger) }
            #expect(try await store.medicalRecords.ownerCount(scope: scope) == 6_003)
            #expect(try await store.records.owner(scope: scope, id: late[1].id).version == 4)
            #expect(try await store.records.owner(scope: scope, id: late[2].id).value == late[2])
        }
    }
}
