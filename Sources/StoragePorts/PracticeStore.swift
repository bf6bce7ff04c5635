import Foundation

/// Everything the server and the command line ask of a store: every port, one adapter.
/// The composition root picks the adapter from configuration (`--database sqlite:PATH` or
/// `postgres://…`); delivery code sees only this.
public typealias PracticeStore = AccountStore & StaffDirectory & PracticeSettingsRepository & EventLogRepository
    & PatientDirectory & MedicalRecordRepository & DocumentRepository & TriageRepository
    & SchedulingRepository & ClinicianRoster & AppointmentDetailsRepository & AppointmentNoteRepository
    & AnalyticsHistorySource & PracticeTransfer & StoreMaintenance & PopulationLoader
