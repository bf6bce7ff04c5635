import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts
import Testing

@testable import StoragePostgres

/// What reaches a log when PostgreSQL refuses a statement or a cell cannot be read: the
/// SQLSTATE, the server's message and the column, never a value the statement bound or the
/// row held (the driver's full description prints both).
@Suite(
    "PostgreSQL: failures as logged",
    .enabled(
        if: Adapter.available.contains(.postgres), "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
struct PostgresErrorLogTests {
    /// A value the log must never hold: an owner's e-mail address.
    static let secret = "jo.bloggs.private@example.org"

    @Test("a refused statement is logged with its SQLSTATE, message and constraint, without the server's detail")
    func refusedStatement() async throws {
        try await withStore(.postgres) { stores in
            guard let (store, _, _) = stores.postgres else { return }
            let error = await #expect(throws: PSQLError.self) {
                try await store.transaction(.practice(PracticeID())) { connection in
                    // A unique violation, whose detail names the value twice written.
                    try await connection.query(
                        "CREATE TEMPORARY TABLE contact (email text CONSTRAINT contact_email UNIQUE)",
                        logger: store.logger)
                    for _ in 0..<2 {
                        try await connection.query(
                            "INSERT INTO contact (email) VALUES (\(Self.secret))", logger: store.logger)
                    }
                }
            }
            let failure = try #require(error)
            // The hazard is real: the driver's full description holds the value.
            #expect(String(reflecting: failure).contains(Self.secret))
            let logged = ErrorLogText.describe(failure)
            #expect(!logged.contains(Self.secret), "\(logged)")
            #expect(logged.contains("SQLSTATE 23505"), "\(logged)")
            #expect(logged.contains("constraint contact_email"), "\(logged)")
        }
    }

    @Test("a cell that cannot be read is a StoreCorruption naming its column, without the cell's value")
    func unreadableCell() async throws {
        try await withStore(.postgres) { stores in
            guard let (store, _, _) = stores.postgres else { return }
            let error = await #expect(throws: StoreCorruption.self) {
                try await store.transaction(.practice(PracticeID())) { connection in
                    for try await number in try await connection.query(
                        "SELECT \(Self.secret)::text AS email", logger: store.logger
                    ).decode(Int64.self) { _ = number }
                }
            }
            let corruption = try #require(error)
            #expect(corruption.column == "email")
            #expect(!ErrorLogText.describe(corruption).contains(Self.secret))
            #expect(!String(reflecting: corruption).contains(Self.secret))
        }
    }
}
