import ArgumentParser

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
}
