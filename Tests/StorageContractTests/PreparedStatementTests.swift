import Foundation
import Logging
import PostgresNIO
import StoragePostgres
import Testing

/// The statements a booking runs under its locks are prepared once per connection; their
/// parameters keep the types their values carry, as an ordinary query's do.
@Suite(
    "PostgreSQL: prepared statements",
    .enabled(
        if: Adapter.available.contains(.postgres), "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
struct PreparedStatementTests {
    @Test("a statement is prepared once and run again; a NULL and a value, and a 64-bit value, keep their types")
    func preparedOnceTypesKept() async throws {
        try await PostgresTestServer.withDatabase { configuration in
            let logger = Logger(label: "test")
            let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
            let running = Task { await client.run() }
            defer { running.cancel() }
            try await client.withConnection { connection in
                var answers: [Bool] = []
                for value in [nil, "x", nil, "y"] as [String?] {
                    for try await isNull in try await connection.prepared(
                        "SELECT \(value)::text IS NULL", logger: logger
                    ).decode(Bool.self) { answers.append(isNull) }
                }
                #expect(answers == [true, false, true, false])
                // Beside an integer literal the server would take an undeclared parameter for a
                // 32-bit one; declared, a 64-bit value goes through whole.
                let large: Int64 = 100_000_000_000
                var differences: [Int64] = []
                for _ in 0..<3 {
                    for try await difference in try await connection.prepared(
                        "SELECT \(large) - 86400000", logger: logger
                    ).decode(Int64.self) { differences.append(difference) }
                }
                #expect(differences == Array(repeating: large - 86_400_000, count: 3))
                // One statement for the NULL, one for the text, one for the subtraction.
                var prepared = 0
                for try await count in try await connection.query(
                    "SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'vetnet_%'", logger: logger
                ).decode(Int64.self) { prepared = Int(count) }
                #expect(prepared == 3)
            }
        }
    }
}
