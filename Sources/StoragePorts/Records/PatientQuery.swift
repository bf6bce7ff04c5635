import PatientRecords
import SharedKernel

/// Filters of a patient search.
public struct PatientQuery: Sendable {
    /// Free text: prefix of a patient or owner name, a phone number, a record number or a microchip.
    public var text: String?
    /// Only this species.
    public var species: Species?
    /// Only this status (default: any).
    public var status: Patient.Status?

    /// Creates a query.
    public init(text: String? = nil, species: Species? = nil, status: Patient.Status? = nil) {
        self.text = text
        self.species = species
        self.status = status
    }
}
