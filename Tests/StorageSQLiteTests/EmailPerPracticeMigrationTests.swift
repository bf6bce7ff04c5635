import Foundation
import GRDB
import SharedKernel
import Testing

@testable import StorageSQLite

@Suite("Staff email unique per practice (migration)")
struct EmailPerPracticeMigrationTests {
    @Test(
        """
        a store made before the change keeps its accounts and sessions, and then allows an address in a second practice
        """
    )
    func upgradeKeepsAccounts() async throws {
        let queue = try DatabaseQueue(
            configuration: {
                var c = Configuration()
                c.foreignKeysEnabled = true
                return c
            }())
        try Migrations.migrator.migrate(queue, upTo: "2026-11-24 event log")
        try await queue.write { db in
            for (practice, name) in [
                ("11111111-1111-4111-8111-111111111111", "Alpha"), ("22222222-2222-4222-8222-222222222222", "Beta"),
            ] {
                try db.execute(
                    sql:
                        """
                        INSERT INTO practice (id, name, time_zone, opening_hours, created_at) VALUES (?, ?, \
                        'Europe/London', '[]', '2026-01-01T00:00:00Z')
                        """,
                    arguments: [practice, name])
            }
            try db.execute(
                sql: """
                    INSERT INTO staff_user (id, practice_id, email, display_name, role, password_hash, created_at)
                    VALUES ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111', \
                    'vet@example.org', 'Vet', 'veterinarian', 'h', '2026-01-01T00:00:00Z')
                    """)
            try db.execute(
                sql: """
                    INSERT INTO session (token_hash, user_id, practice_id, created_at_ms, last_seen_at_ms, \
                    expires_at_ms)
                    VALUES ('t', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111', 0, \
                    0, 1)
                    """)
            // Before the change the address could not be used twice, whatever the practice.
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: """
                        INSERT INTO staff_user (id, practice_id, email, display_name, role, password_hash, created_at)
                        VALUES ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', '22222222-2222-4222-8222-222222222222', \
                        'VET@example.org', 'Vet B', 'veterinarian', 'h', '2026-01-01T00:00:00Z')
                        """)
            }
        }
        try Migrations.migrator.migrate(queue)
        try await queue.write { db in
            #expect(
                try String.fetchOne(db, sql: "SELECT user_id FROM session WHERE token_hash = 't'")
                    == "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")
            try db.execute(
                sql: """
                    INSERT INTO staff_user (id, practice_id, email, display_name, role, password_hash, created_at)
                    VALUES ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', '22222222-2222-4222-8222-222222222222', \
                    'VET@example.org', 'Vet B', 'veterinarian', 'h', '2026-01-01T00:00:00Z')
                    """)
            // Within a practice, still one account per address (case-insensitive).
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: """
                        INSERT INTO staff_user (id, practice_id, email, display_name, role, password_hash, created_at)
                        VALUES ('cccccccc-cccc-4ccc-8ccc-cccccccccccc', '11111111-1111-4111-8111-111111111111', \
                        'Vet@Example.org', 'Vet C', 'veterinarian', 'h', '2026-01-01T00:00:00Z')
                        """)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM staff_user") == 2)
        }
    }
}
