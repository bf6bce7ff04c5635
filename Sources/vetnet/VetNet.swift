import ArgumentParser
import Foundation
import StoragePorts

/// The `vetnet` command: a thin shell over the library modules.
@main
struct VetNet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vetnet",
        abstract: "VetNet veterinary practice intelligence system.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, SeedCommand.self, PracticeCommand.self, ClinicianCommand.self,
            UsersCommand.self,
            AuditCommand.self, TriageCommand.self, OptimizeCommand.self, ImportCommand.self, ExportCommand.self,
            EventsCommand.self, ReportCommand.self,
            BenchCommand.self, BackupCommand.self, RestoreCommand.self,
        ])

    /// Runs the command; a database failure is reported with what an operator can act on
    /// (its SQLSTATE and message) instead of the driver's generic description, and without the
    /// values its full description holds.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if let failure = error as? any LogSafeDescription {
                FileHandle.standardError.write(Data("Error: \(failure.logSafeDescription)\n".utf8))
                exit(withError: ExitCode.failure)
            }
            exit(withError: error)
        }
    }
}
