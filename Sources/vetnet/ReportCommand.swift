import Analytics
import ArgumentParser
import Foundation
import PracticeServices
import SharedKernel
import StoragePorts
import StorageSQLite

/// `vetnet report KIND`: a practice analytics report from the store, as CSV, JSON or a table.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Print a practice analytics report (segments, trend, vtl, breaches, bottlenecks, forecast, insights).",
        discussion: """
            segments: every segment's figures over the period; trend: the practice's figures per --bucket; vtl: \
            compliance \
            per VTL level; breaches: every wait beyond the maximum; bottlenecks and forecast: the coming days from \
            now (the \
            period is not used); insights: the period's findings. Days are the practice's local days, --to included, \
            at most \
            400 days. The same report as GET /api/v1/analytics/reports/KIND, with revenue; the read is recorded in \
            the audit \
            trail. A progress bar is drawn on standard error when it is a terminal.
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "Report: \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")).") var kind: String
    @Option(help: "First local day, YYYY-MM-DD.") var from: String
    @Option(help: "Last local day (included), YYYY-MM-DD.") var to: String
    @Option(help: "csv, json or table.") var format = "table"
    @Option(help: "Bucket of the trend report: day, week or month.") var bucket = "day"
    @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice: String?
    @Option(name: [.short, .customLong("output")], help: "File to write (default: standard output).") var output:
        String?

    func validate() throws {
        guard ReportKind(rawValue: kind) != nil else {
            throw ArgumentParser.ValidationError(
                "unknown report '\(kind)'; choose one of \(ReportKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard ["csv", "json", "table"].contains(format) else {
            throw ArgumentParser.ValidationError("--format must be csv, json or table")
        }
        guard BucketSize(rawValue: bucket) != nil else {
            throw ArgumentParser.ValidationError("--bucket must be day, week or month")
        }
    }

    func run() async throws {
        let opened = try await store.openPracticeStore(logger: commandLogger)
        defer { opened.close() }
        let vetStore = opened.store
        let profile = try await selectPractice(practice, store: vetStore)
        let scope = AccessScope.system(profile.id, requestID: "cli-report")
        let service = AnalyticsService(store: vetStore)
        let period: AnalyticsPeriod
        do {
            period = try await service.period(from: from, to: to, scope: scope)
        } catch let error as SharedKernel.ValidationError {
            throw ArgumentParser.ValidationError(
                error.errors.map { "--\($0.field) \($0.message)" }.joined(separator: "; "))
        }
        guard let kind = ReportKind(rawValue: kind), let bucket = BucketSize(rawValue: bucket) else {
            throw ExitCode(2)
        }
        let request = ReportRequest(kind: kind, period: period, bucket: bucket, asOf: Date(), includeRevenue: true)
        let bar = ProgressBar(unit: "appointments read")
        let loaded = try await service.load(
            scope: scope, window: request.window(options: service.options), action: .analyticsReportRead,
            progress: { done, total in if total >= 20_000 { bar.update(done, total) } })
        let steps = ProgressBar(unit: "steps")
        let long = loaded.appointments >= 20_000
        let table = loaded.analytics.report(request, progress: long ? steps.handler : nil)
        let text: String
        switch format {
        case "csv": text = table.csv()
        case "json": text = try Self.json(table, period: period, generatedAt: request.asOf)
        default: text = Self.aligned(table)
        }
        if let output {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output))
            printError(
                "\(kind.rawValue) report of \(profile.name), \(from) to \(to): \(table.rows.count) rows -> \(output)")
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// The report as the API's JSON form.
    static func json(_ table: ReportTable, period: AnalyticsPeriod, generatedAt: Date) throws -> String {
        struct Column: Encodable { let name: String, unit: String }
        struct Body: Encodable {
            let kind: String, from: String, to: String, timeZone: String, generatedAt: String
            let columns: [Column]
            let rows: [[String?]]
        }
        let days = period.localDays
        let body = Body(
            kind: table.kind.rawValue, from: days?.first.description ?? "", to: days?.last.description ?? "",
            timeZone: period.timeZone.identifier, generatedAt: Timestamp.string(generatedAt),
            columns: table.columns.map { Column(name: $0.name, unit: $0.unit) }, rows: table.textRows)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(body), as: UTF8.self) + "\n"
    }

    /// Columns padded to their widest cell, numbers to the right.
    static func aligned(_ table: ReportTable) -> String {
        let header = table.columns.map(\.name)
        let rows = table.textRows.map { $0.map { $0 ?? "-" } }
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
        let numeric = table.columns.map { !["text", "id", "date", "instant"].contains($0.unit) }
        func line(_ cells: [String]) -> String {
            cells.indices.map { index -> String in
                let cell = cells[index]
                let pad = String(repeating: " ", count: max(0, widths[index] - cell.count))
                return numeric[index] ? pad + cell : cell + pad
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        return
            ([line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + rows.map(line))
            .joined(separator: "\n") + "\n"
    }
}
