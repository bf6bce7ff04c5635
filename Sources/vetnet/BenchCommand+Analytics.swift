import Analytics
import ArgumentParser
import Foundation
import PracticeServices
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSQLite

extension BenchCommand {
    /// `vetnet bench analytics`: the dashboard and a year's CSV reports on a seeded store.
    struct AnalyticsBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "analytics",
            abstract: "Measure the analytics dashboard and a year's CSV reports on a seeded store.",
            discussion: """
                Seed first: vetnet seed --scale --clinicians 20 --history 365 (about 100 000 appointments). The \
                dashboard is \
                timed three ways, as requests meet it: read from the store (one snapshot), indexed and computed (no \
                indexed \
                history yet: a new process, or a configuration change); the first request after a change, with one \
                write made \
                before each run (alternately an upcoming appointment cancelled and a new booking in the slot it \
                freed), the \
                indexed history brought up to date with it; and with nothing changed since the last request. The \
                figures are \
                the median and the slowest of --runs runs after one warm-up. Targets: dashboard < 100 ms, a year's \
                CSV report \
                < 1 s. Build with -c release. It writes to the store (the bookings and cancellations above): use a \
                seeded one.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice:
            String?
        @Option(help: "First local day (default: 364 days before --to).") var from: String?
        @Option(help: "Last local day (default: today).") var to: String?
        @Option(help: "Timed runs of each measurement.") var runs = 5

        func validate() throws {
            guard (1...100).contains(runs) else {
                throw ArgumentParser.ValidationError("--runs must be between 1 and 100")
            }
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
            do { period = try await service.period(from: first, to: last, scope: scope) } catch let error
                as SharedKernel.ValidationError
            {
                throw ArgumentParser.ValidationError(error.description)
            }

            // MARK: Dashboard
            // Full read: the store is read and the history indexed (no indexed history yet: a new
            // process, or a configuration change). After a change: one booking or status change
            // is written, then the kept index is brought up to date with it. Warm: nothing has
            // changed since the last request. The figures are computed afresh every time.
            let window = service.dashboardWindow(period: period, asOf: now)
            let trendMetrics: [MetricKind] = [
                .appointments, .completedAppointments, .noShowRate, .lateCancellationRate, .utilization,
                .triageArrivals, .vtlCompliance(nil), .efficiencyScore, .revenue,
            ]
            enum Kind { case full, changed, warm }
            var load: [Kind: [Double]] = [:]
            var compute: [Kind: [Double]] = [:]
            var encode: [Kind: [Double]] = [:]
            var total: [Kind: [Double]] = [:]
            var appointments = 0
            var arrivals = 0
            var bytes = 0
            var insights = 0
            let cached = AnalyticsService(store: vetStore, cache: AnalyticsCache())
            var changes = ChangeMaker(store: vetStore, scope: scope, now: now)
            for run in 0...runs {
                for kind in [Kind.full, .changed, .warm] {
                    if kind == .changed { try await changes.next() }
                    let start = ContinuousClock.now
                    let figures = try await (kind == .full ? service : cached).compute(
                        scope: scope, window: window, action: .analyticsDashboardRead
                    ) {
                        loaded -> (
                            counts: (Int, Int, Int, Int), indexed: ContinuousClock.Instant,
                            computed: ContinuousClock.Instant
                        ) in
                        let indexed = ContinuousClock.now
                        let dashboard = loaded.analytics.dashboard(period: period, asOf: now)
                        let trend = loaded.analytics.timeSeries(
                            trendMetrics, over: period, by: period.defaultBucket, asOf: now)
                        let computed = ContinuousClock.now
                        let encoded = try JSONEncoder().encode(DashboardBody(dashboard: dashboard, trend: trend))
                        return (
                            (loaded.appointments, loaded.arrivals, encoded.count, dashboard.insights.count), indexed,
                            computed
                        )
                    }
                    let end = ContinuousClock.now
                    (appointments, arrivals, bytes, insights) = figures.counts
                    guard run > 0 else { continue } // the warm-up (and the first read of the kept index)
                    load[kind, default: []].append(Self.ms(figures.indexed - start))
                    compute[kind, default: []].append(Self.ms(figures.computed - figures.indexed))
                    encode[kind, default: []].append(Self.ms(end - figures.computed))
                    total[kind, default: []].append(Self.ms(end - start))
                }
            }
            print(
                "practice: \(profile.name), \(first) to \(last) (\(zone.identifier)): \(appointments) appointments "
                    + "and \(arrivals) "
                    + "triage arrivals read, \(insights) insights, \(bytes / 1024) KiB of JSON")
            print(
                Self.line("dashboard, full read: read and index", load[.full] ?? []) + ";"
                    + Self.line(" compute", compute[.full] ?? [])
                    + ";" + Self.line(" encode", encode[.full] ?? []))
            print(
                Self.line(
                    "dashboard, full read (no indexed history: a new process or a configuration change)",
                    total[.full] ?? []))
            print(
                Self.line("dashboard, after a change: bring the index up to date", load[.changed] ?? []) + ";"
                    + Self.line(" compute", compute[.changed] ?? []) + ";"
                    + Self.line(" encode", encode[.changed] ?? []))
            print(Self.line("dashboard, first request after a change (\(changes.summary))", total[.changed] ?? []))
            print(Self.line("dashboard, warm (records unchanged since the last request)", total[.warm] ?? []))

            // MARK: Reports
            var reportMedians: [Double] = []
            for (kind, bucket) in [(ReportKind.trend, BucketSize.day), (.segments, .day)] {
                let request = ReportRequest(kind: kind, period: period, bucket: bucket, asOf: now, includeRevenue: true)
                var times: [Double] = []
                var rows = 0
                var size = 0
                for run in 0...runs {
                    let start = ContinuousClock.now
                    let loaded = try await service.load(
                        scope: scope, window: request.window(), action: .analyticsReportRead)
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
            let warmMedian = Self.median(total[.warm] ?? [])
            let changedMedian = Self.median(total[.changed] ?? [])
            let fullMedian = Self.median(total[.full] ?? [])
            let slowestReport = reportMedians.max() ?? 0
            print(
                "targets: dashboard < 100 ms: warm \(warmMedian < 100 ? "met" : "MISSED") (median "
                    + "\(Self.format(warmMedian)) ms), "
                    + "first after a change \(changedMedian < 100 ? "met" : "MISSED") (median "
                    + "\(Self.format(changedMedian)) ms), "
                    + "full read \(fullMedian < 100 ? "met" : "MISSED") (median \(Self.format(fullMedian)) ms); "
                    + "year's CSV report < 1 s \(slowestReport < 1000 ? "met" : "MISSED") (slowest median "
                    + "\(Self.format(slowestReport)) ms, cold)"
            )
        }

        /// The writes made between the timed requests after a change, as a practice makes them:
        /// an upcoming appointment cancelled, then a new booking in the slot it freed (same
        /// patient, clinician, type and room), which the next change cancels in turn.
        struct ChangeMaker {
            let store: VetNetStore
            let scope: AccessScope
            let now: Date
            var current: Appointment?
            private(set) var bookings = 0, cancellations = 0

            init(store: VetNetStore, scope: AccessScope, now: Date) {
                self.store = store
                self.scope = scope
                self.now = now
            }

            var summary: String { "\(bookings) bookings and \(cancellations) cancellations, one before each request" }

            mutating func next() async throws {
                if current == nil {
                    guard
                        let range = TimeRange(
                            start: now.addingTimeInterval(3600), end: now.addingTimeInterval(14 * 86_400)),
                        let upcoming = try await store.appointments(scope: scope, overlapping: range)
                            .first(where: { $0.value.status == .booked && $0.value.time.start > range.start })
                    else {
                        throw ArgumentParser.ValidationError(
                            "no upcoming booked appointment to change: seed the store first")
                    }
                    current = upcoming.value
                }
                guard let appointment = current else { return }
                if appointment.status == .booked {
                    current = try await store.saveAppointment(
                        try appointment.decide(.cancel(reason: "benchmark"), at: Date()),
                        scope: scope, expectedVersion: nil
                    ).value
                    cancellations += 1
                } else {
                    let booking = Appointment(
                        practiceID: appointment.practiceID, patientID: appointment.patientID,
                        clinicianID: appointment.clinicianID, appointmentTypeID: appointment.appointmentTypeID,
                        roomType: appointment.roomType, roomID: appointment.roomID, time: appointment.time,
                        bufferAfterMinutes: appointment.bufferAfterMinutes)
                    current = try await store.bookAppointment(
                        scope: scope, patientID: booking.patientID, clinicianID: booking.clinicianID,
                        appointmentTypeID: booking.appointmentTypeID,
                        reason: "benchmark", idempotencyKey: nil,
                        reads: { _, _ in BookingReads(clinicianPeriod: booking.time, roomWindow: booking.occupiedTime)
                        },
                        decide: { _ in booking }
                    ).0.value
                    bookings += 1
                }
            }
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
