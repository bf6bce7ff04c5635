import Foundation
import SharedKernel

/// A clinician who can be booked: profile, expertise, species competence and limits.
public struct Clinician: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<Clinician>
    /// The staff account of this clinician, when they sign in.
    public var userID: UserID?
    /// Name as shown on the schedule, e.g. "Dr Amelia Hart".
    public var displayName: String
    /// Post-nominals, e.g. "BVSc MRCVS, DipECVS".
    public var credentials: String
    /// Areas of expertise with proficiency.
    public var expertise: [Expertise]
    /// Species this clinician treats.
    public var species: Set<Species>
    /// Most appointments in one local day.
    public var maxAppointmentsPerDay: Int
    /// Highest case complexity (0–1) this clinician takes.
    public var complexityCeiling: Double

    /// Creates a clinician.
    public init(id: Identifier<Clinician> = .init(), userID: UserID? = nil, displayName: String, credentials: String,
                expertise: [Expertise], species: Set<Species>, maxAppointmentsPerDay: Int, complexityCeiling: Double) {
        self.id = id
        self.userID = userID
        self.displayName = displayName
        self.credentials = credentials
        self.expertise = expertise
        self.species = species
        self.maxAppointmentsPerDay = maxAppointmentsPerDay
        self.complexityCeiling = complexityCeiling
    }

    /// Checks the profile and reports all problems at once.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        if displayName.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("displayName", "must not be empty") }
        for (index, item) in expertise.enumerated() {
            if !(1...5).contains(item.proficiency) { errors.add("expertise[\(index)].proficiency", "must be 1 to 5") }
            if item.years < 0 || item.years > 60 { errors.add("expertise[\(index)].years", "must be 0 to 60") }
        }
        if species.isEmpty { errors.add("species", "must list at least one species") }
        if !(1...60).contains(maxAppointmentsPerDay) { errors.add("maxAppointmentsPerDay", "must be 1 to 60") }
        if !(0...1).contains(complexityCeiling) { errors.add("complexityCeiling", "must be between 0 and 1") }
        try errors.throwIfAny()
    }
}

/// One area of expertise.
public struct Expertise: Codable, Hashable, Sendable {
    /// The specialty.
    public var specialty: Specialty
    /// 1 (basic) to 5 (board-certified specialist).
    public var proficiency: Int
    /// Years of practice in it.
    public var years: Int

    /// Creates an expertise entry.
    public init(specialty: Specialty, proficiency: Int, years: Int) {
        self.specialty = specialty
        self.proficiency = proficiency
        self.years = years
    }
}
