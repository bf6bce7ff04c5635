import ArgumentParser
import Foundation
import SharedKernel
import Triage

// MARK: - vetnet triage

/// `vetnet triage FILE|-`: triages one case in the wire format of the triage specification (§9)
/// and prints the result as JSON on standard output.
///
/// Invalid input prints one line per bad field (`field: reason`) on standard error and exits
/// with code 2, so a script can tell a refused case (2) from an unreadable file (1).
struct TriageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triage",
        abstract: "Triage one case (VTL) and print the result as JSON.",
        discussion: """
        FILE is a JSON case (species, vitals, observations, findings, complaint); use - to read standard input.
        The result JSON goes to standard output. With --explain, a human-readable explanation of every
        fired rule and its evidence is also written to standard error, so the JSON stays pipeable.
        """
    )

    /// Path of the case file, or `-` for standard input.
    @Argument(help: "Case file in JSON, or - for standard input.")
    var file: String

    /// Also print the human-readable explanation.
    @Flag(help: "Also print a human-readable explanation (on standard error).")
    var explain = false

    func run() throws {
        let data: Data
        do {
            data = try readInput()
        } catch {
            writeError("vetnet triage: cannot read \(file == "-" ? "standard input" : file): \(error.localizedDescription)\n")
            throw ExitCode(1)
        }

        let triageCase: TriageCase
        do {
            triageCase = try TriageCase(jsonData: data)
        } catch {
            var message = "vetnet triage: the case was refused (\(error.errors.count) invalid field\(error.errors.count == 1 ? "" : "s")):\n"
            for fieldError in error.errors { message += "  \(fieldError.field): \(fieldError.message)\n" }
            writeError(message)
            throw ExitCode(2)
        }

        let result = TriageEngine(clock: .system).evaluate(triageCase)
        FileHandle.standardOutput.write(result.encodedJSON(prettyPrinted: true))
        FileHandle.standardOutput.write(Data("\n".utf8))
        if explain { writeError(result.explanationText) }
    }

    private func readInput() throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    private func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
