import Analytics
import ArgumentParser
import Foundation
import HTTPAPI
import SharedKernel
import Specialists
import StorageSQLite

extension BenchCommand {
    /// `vetnet bench analytics`: the dashboard and a year's CSV reports on a seeded store.
    struct AnalyticsBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "analytics",
            abstract: "Measure the analytics dashboard and a year's CSV reports on a seeded store.",
            discussion: """
                Seed first: vetnet seed --scale --clinicians 20 --history 365 (about 100 000 appointments). Each run reads the \
                history from the store (one snapshot), indexes it and computes, as a request does; the figures are the median \
                and the slowest of --runs runs after one warm-up. Targets: dashboard < 100 ms, a year's CSV report < 1 s. \
                Build with -c release.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice: String?
        @Option(help: "First local day (default: 364 days before --to).") var from: String?
        @Option(help: "Last local day (default: today).") var to: String?
        @Option(help: "Timed runs of each measurement.") var runs = 5

        func validate() throws {
            guard (1...100).contains(runs) else { throw ArgumentParser.ValidationError("--runs must be between 1 and 100") }
        }

        func run() async throws {
            let vetStore = try store.openStore()
            defer { try? vetStore.close() }
            let profile = try await selectPractice(practice, store: vetStore)
            let scope = AccessScope.system(profile.id, requestID: "cli-bench-analytics")
            let service = AnalyticsService(store: vetStore)
            let zone = try await service.timeZone(scope: scope)
            let now = Date()
            let today = service.today(now, in: zone) ?? LocalDate(dayNumber: 0)
            let last = to ?? today.description
            let first = from ?? (LocalDate(last)?.adding(days: -364).description ?? last)
            let period: AnalyticsPeriod
            do { period = try await service.period(from: first, to: last, scope: scope) } catch let error as SharedKernel.ValidationError {
                throw ArgumentParser.ValidationError(error.description)
            }

            // MARK: Dashboard
            // Cold: the store is read and the history indexed, as on the first request after a
            // change; warm: the indexed history is reused (the records have not changed since),
            // the figures computed afresh.
            let window = service.dashboardWindow(period: period, asOf: now)
            let trendMetrics: [MetricKind] = [.appointments, .completedAppointments, .noShowRate, .lateCancellationRate, .utilization,
                                              .triageArrivals, .vtlCompliance(nil), .efficiencyScore, .revenue]
            var read: [Double] = [], compute: [Double] = [], encode: [Double] = [], cold: [Double] = [], warm: [Double] = []
            var appointments = 0, arrivals = 0, bytes = 0, insights = 0
            let cache = AnalyticsCache()
            let cached = AnalyticsService(store: vetStore, cache: cache)
            for run in 0...runs {
                for warmRun in [false, true] {
                    let start = ContinuousClock.now
                    let figures = try await (warmRun ? cached : service).compute(scope: scope, window: window, action: "analytics.dashboard.read") {
                        loaded -> (counts: (Int, Int, Int, Int), indexed: ContinuousClock.Instant, computed: ContinuousClock.Instant) in
                        let indexed = ContinuousClock.now
                        let dashboard = loaded.analytics.dashboard(period: period, asOf: now)
                        let trend = loaded.analytics.timeSeries(trendMetrics, over: period, by: period.defaultBucket, asOf: now)
                        let computed = ContinuousClock.now
                        let encoded = try JSONEncoder().encode(DashboardBody(dashboard: dashboard, trend: trend))
                        return ((loaded.appointments, loaded.arrivals, encoded.count, dashboard.insights.count), indexed, computed)
                    }
                    let end = ContinuousClock.now
                    (appointments, arrivals, bytes, insights) = figures.counts
                    guard run > 0 else {
                        if !warmRun { _ = try await cached.load(scope: scope, window: window, action: "analytics.dashboard.read") }
                        continue
                    }
                    if warmRun {
                        warm.append(Self.ms(end - start))
                    } else {
                        read.append(Self.ms(figures.indexed - start))
                        compute.append(Self.ms(figures.computed - figures.indexed))
                        encode.append(Self.ms(end - figures.computed))
                        cold.append(Self.ms(end - start))
                    }
                }
            }
            print("practice: \(profile.name), \(first) to \(last) (\(zone.identifier)): \(appointments) appointments and \(arrivals) "
                  + "triage arrivals read, \(insights) insights, \(bytes / 1024) KiB of JSON")
            print(Self.line("dashboard, cold: read and index", read) + ";" + Self.line(" compute", compute) + ";" + Self.line(" encode", encode))
            print(Self.line("dashboard, cold (first request after a change)", cold))
            print(Self.line("dashboard, warm (records unchanged since the last request)", warm))

            // MARK: Reports
            var reportMedians: [Double] = []
            for (kind, bucket) in [(ReportKind.trend, BucketSize.day), (.segments, .day)] {
                let request = ReportRequest(kind: kind, period: period, bucket: bucket, asOf: now, includeRevenue: true)
                var times: [Double] = []
                var rows = 0, size = 0
                for run in 0...runs {
                    let start = ContinuousClock.now
                    let loaded = try await service.load(scope: scope, window: request.window(), action: "analytics.report.read")
                    let table = loaded.analytics.report(request)
                    let csv = table.csv()
                    let elapsed = Self.ms(ContinuousClock.now - start)
                    rows = table.rows.count
                    size = csv.utf8.count
                    if run > 0 { times.append(elapsed) }
                }
                reportMedians.append(Self.median(times))
                print(Self.line("\(kind.rawValue) report as CSV, cold (\(rows) rows, \(size / 1024) KiB)", times))
            }

            // MARK: Memory
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            func field(_ name: String) -> String {
                status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                    .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) } ?? "n/a"
            }
            print("memory: peak RSS (VmHWM) \(field("VmHWM")), current RSS (VmRSS) \(field("VmRSS"))")
            let coldMedian = Self.median(cold), warmMedian = Self.median(warm)
            let slowestReport = reportMedians.max() ?? 0
            print("targets: dashboard < 100 ms: warm \(warmMedian < 100 ? "met" : "MISSED") (median \(Self.format(warmMedian)) ms), "
                  + "cold \(coldMedian < 100 ? "met" : "MISSED") (median \(Self.format(coldMedian)) ms); "
                  + "year's CSV report < 1 s \(slowestReport < 1000 ? "met" : "MISSED") (slowest median \(Self.format(slowestReport)) ms, cold)")
        }

        /// What the dashboard answer carries, for timing its encoding.
        struct DashboardBody: Encodable {
            let dashboard: Dashboard
            let trend: [TimeSeries]
        }

        static func ms(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }

        static func median(_ values: [Double]) -> Double {
            guard !values.isEmpty else { return 0 }
            return values.sorted()[(values.count - 1) / 2]
        }

        static func format(_ value: Double) -> String { String(format: "%.1f", value) }

        static func line(_ label: String, _ values: [Double]) -> String {
            "\(label) median \(format(median(values))) ms, max \(format(values.max() ?? 0)) ms"
        }
    }
}
