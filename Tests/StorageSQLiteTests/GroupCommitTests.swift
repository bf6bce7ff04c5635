import Foundation
import GRDB
import Testing

@testable import StorageSQLite

@Suite("Group commit of concurrent writes")
struct GroupCommitTests {
    struct Refused: Error, Equatable { let number: Int }

    private func pool() throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-group-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE item (number INTEGER PRIMARY KEY, note TEXT)") }
        return (pool, directory)
    }

    @Test(
        """
        300 concurrent writes: each one that throws or breaks a constraint changes nothing; every other one is kept \
        and answered
        """
    )
    func isolation() async throws {
        let (pool, directory) = try pool()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await pool.write { db in try db.execute(sql: "INSERT INTO item (number, note) VALUES (5000, 'kept before')")
        }
        let commits = GroupCommit(writer: pool)
        let outcomes = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
            for number in 0..<300 {
                group.addTask {
                    do {
                        let value = try await commits.write { db -> Int in
                            // Every 7th writes a second row, then refuses: both rows must go.
                            try db.execute(sql: "INSERT INTO item (number) VALUES (?)", arguments: [number])
                            if number % 7 == 0 {
                                try db.execute(
                                    sql: "INSERT INTO item (number) VALUES (?)", arguments: [10_000 + number])
                                throw Refused(number: number)
                            }
                            // Every 11th collides with a row that was there before.
                            if number % 11 == 0 { try db.execute(sql: "INSERT INTO item (number) VALUES (5000)") }
                            return number * 2
                        }
                        return (number, .success(value))
                    } catch {
                        return (number, .failure(error))
                    }
                }
            }
            var all: [Int: Result<Int, any Error>] = [:]
            for await (number, result) in group { all[number] = result }
            return all
        }
        let stored = try await pool.read { db in
            try Set(Int.fetchAll(db, sql: "SELECT number FROM item WHERE number <> 5000"))
        }
        for number in 0..<300 {
            switch outcomes[number]! {
            case .success(let value):
                #expect(value == number * 2)
                #expect(stored.contains(number), "acknowledged write \(number) is missing")
            case .failure(let error):
                #expect(!stored.contains(number), "refused write \(number) left its row")
                if number % 7 == 0 {
                    #expect(error as? Refused == Refused(number: number))
                } else {
                    #expect(number % 11 == 0)
                }
            }
        }
        #expect(stored.allSatisfy { $0 < 10_000 }, "a refused write's second row survived")
        #expect(outcomes.values.filter { if case .success = $0 { true } else { false } }.count == stored.count)
    }

    @Test("a write is answered only when its whole group is durable, seen from another connection")
    func answeredAfterCommit() async throws {
        let (pool, directory) = try pool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let commits = GroupCommit(writer: pool)
        // Hold the writer until both writes below are waiting, so they form one group.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let gate = Task {
            try await pool.write { _ in
                entered.signal()
                release.wait()
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                entered.wait()
                continuation.resume()
            }
        }
        let first = Task {
            try await commits.write { db in try db.execute(sql: "INSERT INTO item (number, note) VALUES (1, 'first')") }
        }
        let second = Task {
            try await commits.write { db in
                try db.execute(sql: "INSERT INTO item (number, note) VALUES (2, 'second')")
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        for _ in 0..<500 where commits.waiting < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(commits.waiting == 2)
        release.signal()
        try await first.value
        // Had `first` been answered before the group's commit, neither row would be visible yet.
        let observer = try DatabaseQueue(path: directory.appendingPathComponent("db.sqlite").path)
        let visible = try await observer.read { db in
            try Int.fetchAll(db, sql: "SELECT number FROM item ORDER BY number")
        }
        #expect(visible == [1, 2])
        try await second.value
        try await gate.value
    }
}
