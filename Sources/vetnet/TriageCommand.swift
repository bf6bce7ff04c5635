import ArgumentParser
import Foundation
import SharedKernel
import StoragePorts
import Triage

// MARK: - vetnet triage

/// `vetnet triage FILE|-`: triages one case in the wire format of the triage specification (§9)
/// and prints the result as JSON on standard output.
///
/// Invalid input prints one line per bad field (`field: reason`) on standard error and exits
/// with code 2, so a script can tell a refused case (2) from an unreadable file (1).
struct TriageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triage",
        abstract: "Triage one case (VTL) and print the result as JSON.",
        discussion: """
            FILE is a JSON case (species, vitals, observations, findings, complaint); use - to read standard input.
            The result JSON goes to standard output. With --explain, a human-readable explanation of every
            fired rule and its evidence is also written to standard error, so the JSON stays pipeable.
            With --patient, the case is triaged for that stored patient: their medical record adds what it
            adds at the desk (active problems count in the complexity score), and the read is audited.
            """
    )

    /// Path of the case file, or `-` for standard input.
    @Argument(help: "Case file in JSON, or - for standard input.")
    var file: String

    /// Also print the human-readable explanation.
    @Flag(help: "Also print a human-readable explanation (on standard error).")
    var explain = false

    /// A stored patient whose record completes the case.
    @Option(help: "Patient id (UUID): triage for this stored patient, with what their record adds.")
    var patient: String?

    @Option(help: "Practice id or exact name (with --patient; may be omitted when the store holds one practice).")
    var practice: String?

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let patient, UUIDText.parse(patient) == nil {
            throw ValidationError("--patient must be a patient id (UUID)")
        }
    }

    func run() async throws {
        let data: Data
        do {
            data = try readInput()
        } catch {
            writeError(
                "vetnet triage: cannot read \(file == "-" ? "standard input" : file): \(error.localizedDescription)\n")
            throw ExitCode(1)
        }

        let triageCase: TriageCase
        do {
            triageCase = try TriageCase(jsonData: data)
        } catch {
            var message =
                """
                vetnet triage: the case was refused (\(error.errors.count) invalid \
                field\(error.errors.count == 1 ? "" : "s")):\n
                """
            for fieldError in error.errors { message += "  \(fieldError.field): \(fieldError.message)\n" }
            writeError(message)
            throw ExitCode(2)
        }

        let result = try await evaluate(triageCase)
        FileHandle.standardOutput.write(result.encodedJSON(prettyPrinted: true))
        FileHandle.standardOutput.write(Data("\n".utf8))
        if explain { writeError(result.explanationText) }
    }

    /// The bare case, or — with `--patient` — the case completed by the patient's record, the
    /// way the server triages it.
    private func evaluate(_ triageCase: TriageCase) async throws -> TriageResult {
        let engine = TriageEngine(clock: .system)
        guard let patient, let patientID = UUIDText.parse(patient) else { return engine.evaluate(triageCase) }
        let opened = try await store.openPracticeStore(logger: commandLogger)
        defer { opened.close() }
        let profile = try await selectPractice(practice, store: opened.store)
        let scope = AccessScope.system(profile.id, requestID: "cli-triage")
        let result: TriageResult
        do {
            result = try await opened.store.triage(triageCase, patientID: patientID, scope: scope, engine: engine)
        } catch DomainError.notFound {
            writeError("vetnet triage: --patient \(patient): no such patient in \(profile.name)\n")
            throw ExitCode(1)
        }
        try await opened.store.recordAudit(
            AuditRecord(action: .triageEvaluate, resourceType: .patient, resourceID: UUIDText.lowercase(patientID)),
            scope: scope)
        return result
    }

    private func readInput() throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    private func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
