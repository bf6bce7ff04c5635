import Foundation
import SharedKernel

/// What restoring an export stored.
public struct RestoreSummary: Sendable {
    /// The restored practice.
    public let practice: PracticeProfile
    /// Staff accounts restored; every one must set a new password before signing in.
    public let staff: [StaffAccount]
    /// Owners restored.
    public let owners: Int
    /// Patients restored, with their ids and record numbers.
    public let patients: Int
    /// Weights, problems, allergies, medications, vaccinations, notes and addenda restored.
    public let recordEntries: Int
    /// Triage assessments restored.
    public let triageAssessments: Int
    /// Clinicians restored (with their availability).
    public let clinicians: Int
    /// Appointments restored, in every status.
    public let appointments: Int
    /// Documents restored with their content.
    public let documents: Int
    /// Documents listed in the export but not restored: their bytes are not part of it.
    public let documentsNotRestored: Int
    /// Audit entries carried over from the installation the practice comes from.
    public let auditEntries: Int

    /// Creates the value from its parts.
    public init(
        practice: PracticeProfile, staff: [StaffAccount], owners: Int, patients: Int, recordEntries: Int,
        triageAssessments: Int, clinicians: Int, appointments: Int, documents: Int,
        documentsNotRestored: Int, auditEntries: Int
    ) {
        self.documents = documents
        self.auditEntries = auditEntries
        self.practice = practice
        self.staff = staff
        self.owners = owners
        self.patients = patients
        self.recordEntries = recordEntries
        self.triageAssessments = triageAssessments
        self.clinicians = clinicians
        self.appointments = appointments
        self.documentsNotRestored = documentsNotRestored
    }
}

/// Why an export cannot be restored.
public enum RestoreError: Error, Equatable, CustomStringConvertible {
    /// The store already holds a practice; a restore never merges into existing data.
    case storeNotEmpty
    /// Two appointments of the file hold one clinician or one room at the same time.
    case overlappingAppointment(id: String)

    public var description: String {
        switch self {
        case .storeNotEmpty: return "the store already holds a practice; restore an export only into an empty store"
        case .overlappingAppointment(let id):
            return "schedule.appointments: appointment \(id) overlaps another of the same clinician or room"
        }
    }
}
