import Foundation
import PatientRecords
import SharedKernel

/// Loading a generated population for performance work (`vetnet seed --scale`): a practice
/// with no staff yet, then many owners and patients in one transaction. Both stores take the
/// same rows and give the same record numbers, so a data set measured on one can be measured
/// on the other.
public protocol PopulationLoader: Sendable {
    /// Creates a practice with no staff account (a system action, audited); its name must not
    /// be another practice's on the installation (``SharedKernel/UniquenessConflict`` on `name`).
    func createPractice(_ profile: PracticeProfile, requestID: String?) async throws

    /// Loads `owners` and `patients` into the scope's practice in one transaction: consecutive
    /// record numbers, the search words computed as single writes compute them, one
    /// `practice.bulk_load` audit entry. Every value is validated and each patient's owners must
    /// be among `owners`; a refusal writes nothing. `progress` is told the rows done as they go.
    /// Returns the first and last record numbers assigned, or `nil` when no patient was loaded.
    @discardableResult
    func bulkLoad(owners: [Owner], patients: [Patient], scope: AccessScope, progress: ImportProgressHandler?)
        async throws -> (first: String, last: String)?
}

/// The checks of a population load, decided once for both stores before either writes.
public enum PopulationLoad {
    /// Validates every owner and patient at `now`, and that each patient's owner and co-owner
    /// are among `owners`; returns the owners by id. Throws the first problem, naming its field.
    @discardableResult
    public static func validate(owners: [Owner], patients: [Patient], now: Date) throws
        -> [Identifier<Owner>: Owner]
    {
        for owner in owners { try owner.validate() }
        for patient in patients { try patient.validate(now: now) }
        let ownersByID = Dictionary(owners.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for patient in patients
        where ownersByID[patient.ownerID] == nil || patient.coOwnerID.map({ ownersByID[$0] == nil }) == true {
            throw ValidationError(
                field: "ownerId", message: "patient \(patient.id) names an owner that is not being loaded")
        }
        return ownersByID
    }

    /// The one `practice.bulk_load` entry a load writes instead of one per row (the rows are
    /// generated, not clinical work to account for).
    public static func auditRecord(owners: Int, patients: Int, practiceID: PracticeID) -> AuditRecord {
        AuditRecord(
            action: .practiceBulkLoad, resourceType: .practice, resourceID: practiceID.description,
            detail: "owners=\(owners) patients=\(patients)")
    }
}
