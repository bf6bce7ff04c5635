import Foundation
import Scheduling
import SharedKernel
import StoragePorts

// The embedded store implements the storage ports with the methods of its repository
// extensions. Re-exporting the ports lets code written against the SQLite store keep using
// the storage-neutral types (audit entries, sessions, event pages) without a second import.

extension VetNetStore: AccountRepository {}
extension VetNetStore: AuditRepository {}
extension VetNetStore: EventLogRepository {}
extension VetNetStore: PatientDirectory {}

extension VetNetStore: SchedulingRepository {}
extension VetNetStore: StaffDirectory {}
extension VetNetStore: PracticeSettingsRepository {}
extension VetNetStore: MedicalRecordRepository {}
extension VetNetStore: DocumentRepository {}
extension VetNetStore: TriageRepository {}
extension VetNetStore: ClinicianRoster {}
extension VetNetStore: AppointmentDetailsRepository {}
extension VetNetStore: AnalyticsHistorySource {}
extension VetNetStore: PracticeTransfer {}
extension VetNetStore: StoreMaintenance {}
extension VetNetStore: SecondFactorRepository {}
