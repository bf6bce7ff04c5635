import Foundation
import SharedKernel

/// An animal under the practice's care.
public struct Patient: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<Patient>
    /// Practice-unique medical record number, e.g. `P-000123`, assigned on creation.
    public var medicalRecordNumber: String?
    /// Call name.
    public var name: String
    /// Species.
    public var species: Species
    /// Breed as recorded.
    public var breed: String?
    /// Sex and neuter status.
    public var sex: Sex
    /// Date of birth (or estimated date when `birthDateEstimated`).
    public var birthDate: Date?
    /// Whether `birthDate` is an estimate.
    public var birthDateEstimated: Bool
    /// Coat or plumage colour.
    public var colour: String?
    /// ISO 11784 microchip number (15 digits).
    public var microchip: String?
    /// Lifecycle status.
    public var status: Status
    /// Warnings shown wherever the patient appears ("bites", "penicillin allergy").
    public var alerts: [String]
    /// The main owner.
    public var ownerID: Identifier<Owner>
    /// A second owner, if any.
    public var coOwnerID: Identifier<Owner>?

    /// Sex and neuter status: the one vocabulary the record and triage share.
    public typealias Sex = SharedKernel.Sex

    /// Lifecycle status; archiving replaces deletion.
    public enum Status: String, Codable, Sendable, CaseIterable { case active, deceased, archived }

    /// Creates a patient.
    public init(
        id: Identifier<Patient> = .init(), medicalRecordNumber: String? = nil, name: String, species: Species,
        breed: String? = nil,
        sex: Sex = .unknown, birthDate: Date? = nil, birthDateEstimated: Bool = false, colour: String? = nil,
        microchip: String? = nil,
        status: Status = .active, alerts: [String] = [], ownerID: Identifier<Owner>, coOwnerID: Identifier<Owner>? = nil
    ) {
        self.id = id
        self.medicalRecordNumber = medicalRecordNumber
        self.name = name
        self.species = species
        self.breed = breed
        self.sex = sex
        self.birthDate = birthDate
        self.birthDateEstimated = birthDateEstimated
        self.colour = colour
        self.microchip = microchip
        self.status = status
        self.alerts = alerts
        self.ownerID = ownerID
        self.coOwnerID = coOwnerID
    }

    /// Checks every field against `now` and reports all problems at once.
    public func validate(now: Date) throws(ValidationError) {
        var errors = FieldErrorCollector()
        if name.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("name", "must not be empty") }
        if let birthDate, birthDate > now { errors.add("birthDate", "must not be in the future") }
        if let microchip, !Self.isValidMicrochip(microchip) { errors.add("microchip", "must be 15 digits (ISO 11784)") }
        if coOwnerID == ownerID { errors.add("coOwnerId", "must differ from the owner") }
        try errors.throwIfAny()
    }

    /// ISO 11784 full-duplex/half-duplex transponder codes are 15 decimal digits.
    public static func isValidMicrochip(_ text: String) -> Bool {
        text.count == 15 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
