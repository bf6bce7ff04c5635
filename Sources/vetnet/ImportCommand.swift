import ArgumentParser
import Foundation
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite

/// `vetnet import …`: bring owners and patients, or a whole practice, into the store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import owners and patients, or restore a practice export.",
        subcommands: [Patients.self, Practice.self])

    /// `vetnet import patients FILE.csv`.
    struct Patients: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import owners and patients from a CSV file (docs/import-format.md).",
            discussion: """
                Every row is checked first and each bad row is reported on standard error with its line number. \
                Nothing is imported while any row is bad, unless --skip-invalid is given; then the valid rows are \
                imported and the others listed. All rows are stored in one transaction.
                """)

        @OptionGroup var store: StoreOptions
        @Argument(help: "The CSV file.") var file: String
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice:
            String?
        @Flag(help: "Import the valid rows and report the invalid ones instead of refusing the file.") var skipInvalid =
            false

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                printError("\(file) is not UTF-8 text; save it as \"CSV UTF-8\" and try again. Nothing was imported.")
                throw ExitCode(2)
            }
            let plan: PatientImportPlan
            do {
                plan = try PatientImportPlan.validate(text, now: Date(), skipInvalidRows: skipInvalid)
            } catch let PatientImportError.invalidRows(issues) {
                report(issues)
                printError(
                    """
                    Nothing was imported: \(issues.count) invalid row(s). Fix them, or pass --skip-invalid to import \
                    the valid rows.
                    """
                )
                throw ExitCode(2)
            } catch {
                printError("\(error) Nothing was imported.")
                throw ExitCode(2)
            }
            report(plan.skippedRows)

            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let profile = try await selectPractice(practice, store: vetStore)
            let result: PatientImportResult
            do {
                result = try await vetStore.importPatients(
                    plan, scope: .system(profile.id, requestID: "cli-import-patients"), skipRefused: skipInvalid,
                    progress: ProgressBar(unit: "rows").handler)
            } catch let PatientImportError.invalidRows(issues) {
                report(issues)
                printError("Nothing was imported. Fix the row(s), or pass --skip-invalid to import the others.")
                throw ExitCode(2)
            }
            report(result.refused)
            let numbers = result.recordNumbers.map { " (record numbers \($0.first) to \($0.last))" } ?? ""
            let skipped = plan.skippedRows.count + result.refused.count
            print(
                "Imported \(result.patientsCreated) patient(s) of \(result.ownersCreated) owner(s) into "
                    + "\(profile.name)\(numbers)"
                    + (skipped > 0 ? "; skipped \(skipped) invalid row(s)." : "."))
        }

        private func report(_ issues: [ImportRowIssue]) {
            for issue in issues { printError("\(file):\(issue)") }
        }
    }

    /// `vetnet import practice FILE.json` (also `vetnet import export`).
    struct Practice: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "practice",
            abstract: "Restore a practice from a `vetnet export` file into an empty store.",
            discussion: """
                Restores the practice, staff accounts, owners, patients (keeping their ids and record numbers), every \
                medical record entry, triage assessment, the schedule, and the audit trail (carried into this store's \
                chain). Notes are encrypted again with this store's key. Password hashes are not part of an export: \
                every \
                restored account must be given a new password before it can sign in. Documents are restored when the \
                export carries their content (`vetnet export --with-documents`). Works on either store (--database).
                """,
            aliases: ["export"])

        @OptionGroup var store: StoreOptions
        @Argument(help: "The JSON file written by `vetnet export`.") var file: String

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            let export: PracticeExport
            do {
                export = try PracticeExport.decode(data)
            } catch {
                printError("\(file): \(error)")
                throw ExitCode(2)
            }
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let summary: RestoreSummary
            do {
                summary = try await vetStore.restorePractice(
                    export, requestID: "cli-import-practice", progress: ProgressBar(unit: "patients").handler)
            } catch let error as RestoreError {
                printError("\(error). Nothing was restored.")
                throw ExitCode(2)
            }
            print(
                """
                Restored \(summary.practice.name) (\(summary.practice.id)): \(summary.staff.count) staff account(s), \
                \(summary.owners) owner(s), \
                \(summary.patients) patient(s), \(summary.recordEntries) record \
                entr\(summary.recordEntries == 1 ? "y" : "ies"), \
                \(summary.triageAssessments) triage assessment(s), \(summary.clinicians) clinician(s), \
                \(summary.appointments) appointment(s), \
                \(summary.documents) document(s), \(summary.auditEntries) audit \
                entr\(summary.auditEntries == 1 ? "y" : "ies") carried.
                """)
            if summary.documentsNotRestored > 0 {
                print(
                    """
                    \(summary.documentsNotRestored) document(s) are listed in the export but their content is not \
                    part of it (export with --with-documents).
                    """
                )
            }
            if !summary.staff.isEmpty {
                print(
                    """
                    Every restored account must be given a new password before signing in (password hashes are never \
                    exported):
                    """
                )
                for account in summary.staff { print("  \(account.email) (\(account.role.rawValue))") }
            }
        }
    }
}
