import ArgumentParser
import Foundation
import StoragePorts
import StorageSQLite

/// `vetnet export`: the whole practice as one JSON document.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a whole practice as JSON (format vetnet-export-v1).",
        discussion: """
            Writes the practice profile, staff accounts (never their password hashes), owners, patients with their \
            full \
            medical records (clinical notes decrypted), triage assessments, the schedule, the practice's audit trail \
            and \
            the list of documents; with --with-documents, the documents' content too (what a practice moving to \
            another \
            store, such as PostgreSQL, needs). The export is recorded in the audit trail. The file holds medical \
            records \
            in clear: it is created readable by its owner only.
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: "Output format; only json.") var format = "json"
    @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice: String?
    @Option(name: [.short, .customLong("output")], help: "File to write (default: standard output).") var output:
        String?
    @Flag(help: "Carry the documents' content (base64) in the export.") var withDocuments = false

    func validate() throws {
        guard format == "json" else { throw ValidationError("--format must be json") }
    }

    func run() async throws {
        let opened = try await store.openPracticeStore(logger: commandLogger)
        defer { opened.close() }
        let vetStore = opened.store
        let profile = try await selectPractice(practice, store: vetStore)
        let export = try await vetStore.exportPractice(
            scope: .system(profile.id, requestID: "cli-export"), documentContent: withDocuments)
        let data = try export.jsonData()
        guard let output else {
            FileHandle.standardOutput.write(data)
            FileHandle.standardOutput.write(Data("\n".utf8))
            return
        }
        // Created 0600 before any byte is written, so the clear-text notes are never readable by others.
        let path = URL(fileURLWithPath: output).path
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ValidationError("cannot create \(path)")
        }
        try handle.write(contentsOf: data)
        try handle.close()
        printError(
            "Exported \(profile.name): \(export.staff.count) staff, \(export.owners.count) owners, "
                + "\(export.patients.count) patients, "
                + "\(export.triageAssessments.count) triage assessments, \(export.schedule?.clinicians.count ?? 0) "
                + "clinicians, "
                + "\(export.schedule?.appointments.count ?? 0) appointments, \(export.documents.count) documents "
                + "\(withDocuments ? "with their content" : "listed"), "
                + "\(export.audit?.count ?? 0) audit entries -> \(path)")
    }
}
