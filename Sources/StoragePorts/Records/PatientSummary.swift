import PatientRecords
import SharedKernel

/// A search hit: the patient and the main owner's name, for result lists.
public struct PatientSummary: Sendable {
    /// The patient.
    public let patient: Versioned<Patient>
    /// "First Last" of the main owner.
    public let ownerName: String

    /// A hit for `patient`, whose main owner is called `ownerName`.
    public init(patient: Versioned<Patient>, ownerName: String) {
        self.patient = patient
        self.ownerName = ownerName
    }
}
