import ArgumentParser
import Foundation
import Logging
import PatientRecords
import SharedKernel
import StoragePorts
import StoragePostgres
import StorageSupport

extension BenchCommand {
    /// `vetnet bench postgres-search`: the records benchmark's name search, on PostgreSQL.
    struct PostgresSearch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "postgres-search",
            abstract: "Measure name search on PostgreSQL over a generated practice (see Benchmarks/postgres).",
            discussion: """
                Migrates the database, loads the same generated population as `vetnet seed --scale` (100,000 patients, \
                60,000 owners by default) into a new practice, and times first pages of a name search through the \
                PostgreSQL \
                store for the same 2–4 letter prefixes as `vetnet bench records`. Target: median < 10 ms. Use a \
                throwaway \
                database: the practice is left in it. Build with -c release.
                """)

        @Option(help: "postgres:// URL of a throwaway database.") var database: String
        @Option(help: "Patients to load.") var patients = 100_000
        @Option(help: "Owners to load.") var owners = 60_000
        @Option(help: "Distinct search prefixes to time (at least 200).") var searches = 200
        @Option(help: "Page size of each search.") var limit = 50

        func validate() throws {
            guard searches >= 200 else { throw ArgumentParser.ValidationError("--searches must be at least 200") }
            guard patients > 0, owners > 0, limit > 0 else {
                throw ArgumentParser.ValidationError("--patients, --owners and --limit must be positive")
            }
        }

        func run() async throws {
            let configuration = try PostgresDatabaseConfiguration(url: database)
            var logger = Logger(label: "vetnet.bench.postgres")
            logger.logLevel = .warning
            // The figures do not depend on the key; a fresh one keeps the bench from needing a data directory.
            let store = PostgresStore(
                configuration: configuration,
                auditKey: AuditKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }),
                cipher: try RecordCipher(keyBytes: (0..<32).map { _ in UInt8.random(in: 0...255) }),
                logger: logger)
            let running = Task { await store.run() }
            defer { running.cancel() }
            try await PostgresSchema.migrate(store.client, logger: logger)

            // The population of `vetnet seed --scale`, so the figures compare with the embedded store's.
            let start = ContinuousClock.now
            let data = ScaleSeed(
                ownerCount: owners, patientCount: patients, seed: 42,
                reference: Date(timeIntervalSince1970: 1_767_225_600))
            let profile = PracticeProfile(
                id: PracticeID(), name: "Search bench \(UUID().uuidString.prefix(8))", timeZone: "Europe/London",
                openingHours: [])
            _ = try await store.createPractice(
                profile,
                administrator: FirstAdministrator(
                    email: "bench@example.com", displayName: "Bench",
                    passwordHash: "-"), requestID: "cli-bench-postgres")
            let scope = AccessScope.system(profile.id, requestID: "cli-bench-postgres-search")
            let generated = ContinuousClock.now
            try await store.bulkLoad(owners: data.owners, patients: data.patients, scope: scope)
            print(
                String(
                    format: "loaded %d owners, %d patients in %.1f s (generate %.1f s)", data.owners.count,
                    data.patients.count,
                    Records.milliseconds(ContinuousClock.now - start) / 1000,
                    Records.milliseconds(generated - start) / 1000))

            let prefixes = Records.prefixes(count: searches)
            for prefix in prefixes.prefix(20) {
                _ = try await store.searchPatients(
                    scope: scope, query: PatientQuery(text: prefix), limit: limit, after: nil)
            }
            var times: [Double] = []
            var hits = 0
            for prefix in prefixes {
                let begin = ContinuousClock.now
                let page = try await store.searchPatients(
                    scope: scope, query: PatientQuery(text: prefix), limit: limit, after: nil)
                times.append(Records.milliseconds(ContinuousClock.now - begin))
                hits += page.items.count
            }
            let median = Records.percentile(times, 0.5)
            print(
                String(
                    format:
                        """
                        search (first page of %d, %d prefixes, %d patients): p50 %.2f ms, p90 %.2f ms, max %.2f ms, \
                        mean hits %.1f
                        """,
                    limit, prefixes.count, data.patients.count, median, Records.percentile(times, 0.9),
                    times.max() ?? 0,
                    Double(hits) / Double(prefixes.count)))
            // The same transaction and audit append around a search that matches nothing: what
            // a search costs before it reads any index, so the figure above can be told apart
            // from the round trips every audited read makes.
            var fixed: [Double] = []
            for index in 0..<prefixes.count {
                let begin = ContinuousClock.now
                _ = try await store.searchPatients(
                    scope: scope, query: PatientQuery(text: "qqqq\(index)"), limit: limit, after: nil)
                fixed.append(Records.milliseconds(ContinuousClock.now - begin))
            }
            print(
                String(
                    format: "no-match search (transaction, audit append, no hits): p50 %.2f ms, p90 %.2f ms",
                    Records.percentile(fixed, 0.5), Records.percentile(fixed, 0.9)))
            print("target (median < 10 ms): \(median < 10 ? "met" : "MISSED")")
        }
    }
}
