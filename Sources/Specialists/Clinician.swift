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
    /// What kind of case load the clinician wants (see ``CaseloadPreferences``).
    public var preferences: CaseloadPreferences
    /// When the clinician retired; `nil` while they work here. A retired clinician is kept
    /// for history (their past appointments name them) but is never offered or booked again.
    public var retiredAt: Date?

    /// Longest display name, in characters.
    public static let maxDisplayNameLength = 120
    /// Longest credentials text, in characters.
    public static let maxCredentialsLength = 200

    /// Creates a clinician.
    public init(
        id: Identifier<Clinician> = .init(), userID: UserID? = nil, displayName: String, credentials: String,
        expertise: [Expertise], species: Set<Species>, maxAppointmentsPerDay: Int, complexityCeiling: Double,
        preferences: CaseloadPreferences = CaseloadPreferences(), retiredAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.displayName = displayName
        self.credentials = credentials
        self.expertise = expertise
        self.species = species
        self.maxAppointmentsPerDay = maxAppointmentsPerDay
        self.complexityCeiling = complexityCeiling
        self.preferences = preferences
        self.retiredAt = retiredAt
    }

    /// Checks the profile and reports all problems at once.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        let name = displayName.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { errors.add("displayName", "must not be empty") }
        if name.count > Self.maxDisplayNameLength {
            errors.add("displayName", "must be at most \(Self.maxDisplayNameLength) characters")
        }
        if credentials.count > Self.maxCredentialsLength {
            errors.add("credentials", "must be at most \(Self.maxCredentialsLength) characters")
        }
        for (index, item) in expertise.enumerated() {
            if !(1...5).contains(item.proficiency) { errors.add("expertise[\(index)].proficiency", "must be 1 to 5") }
            if item.years < 0 || item.years > 60 { errors.add("expertise[\(index)].years", "must be 0 to 60") }
            if let earlier = expertise[..<index].firstIndex(where: { $0.specialty == item.specialty }) {
                errors.add(
                    "expertise[\(index)].specialty", "repeats expertise[\(earlier)] (\(item.specialty.rawValue))")
            }
        }
        if species.isEmpty { errors.add("species", "must list at least one species") }
        if !(1...60).contains(maxAppointmentsPerDay) { errors.add("maxAppointmentsPerDay", "must be 1 to 60") }
        if !(0...1).contains(complexityCeiling) { errors.add("complexityCeiling", "must be between 0 and 1") }
        preferences.validate(field: "preferences", into: &errors)
        try errors.throwIfAny()
    }

    // MARK: - Codable (exports written before preferences and retirement existed still read)

    private enum CodingKeys: String, CodingKey {
        case id, userID, displayName, credentials, expertise, species, maxAppointmentsPerDay, complexityCeiling,
            preferences, retiredAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(Identifier<Clinician>.self, forKey: .id),
            userID: try container.decodeIfPresent(UserID.self, forKey: .userID),
            displayName: try container.decode(String.self, forKey: .displayName),
            credentials: try container.decode(String.self, forKey: .credentials),
            expertise: try container.decode([Expertise].self, forKey: .expertise),
            species: try container.decode(Set<Species>.self, forKey: .species),
            maxAppointmentsPerDay: try container.decode(Int.self, forKey: .maxAppointmentsPerDay),
            complexityCeiling: try container.decode(Double.self, forKey: .complexityCeiling),
            preferences: try container.decodeIfPresent(CaseloadPreferences.self, forKey: .preferences)
                ?? CaseloadPreferences(),
            retiredAt: try container.decodeIfPresent(Date.self, forKey: .retiredAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(userID, forKey: .userID)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(credentials, forKey: .credentials)
        try container.encode(expertise, forKey: .expertise)
        try container.encode(species, forKey: .species)
        try container.encode(maxAppointmentsPerDay, forKey: .maxAppointmentsPerDay)
        try container.encode(complexityCeiling, forKey: .complexityCeiling)
        try container.encode(preferences, forKey: .preferences)
        try container.encodeIfPresent(retiredAt, forKey: .retiredAt)
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
