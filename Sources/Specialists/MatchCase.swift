import Foundation
import SharedKernel

/// A case looking for a clinician: what it needs and how soon.
public struct MatchCase: Hashable, Codable, Sendable {
    /// Specialties the case needs, most relevant first (e.g. from triage routing, §7).
    public var specialties: [Specialty]
    /// The patient's species.
    public var species: Species
    /// Case complexity, 0 (routine) to 1 (most complex); clinicians whose ceiling is lower are excluded.
    public var complexity: Double
    /// Longest acceptable wait in minutes from now; `nil` when the case is not urgent.
    public var maxWaitMinutes: Int?
    /// The patient, when known (the caller passes `patientID.rawValue`).
    public var patientID: UUID?
    /// Clinicians who have seen this patient before, for continuity of care.
    public var previousClinicianIDs: Set<Identifier<Clinician>>

    /// Creates a case.
    public init(
        specialties: [Specialty], species: Species, complexity: Double, maxWaitMinutes: Int? = nil,
        patientID: UUID? = nil, previousClinicianIDs: Set<Identifier<Clinician>> = []
    ) {
        self.specialties = specialties
        self.species = species
        self.complexity = complexity
        self.maxWaitMinutes = maxWaitMinutes
        self.patientID = patientID
        self.previousClinicianIDs = previousClinicianIDs
    }

    /// Checks the case, naming each bad field.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        if specialties.isEmpty { errors.add("specialties", "must list at least one specialty") }
        if Set(specialties).count != specialties.count { errors.add("specialties", "must not repeat a specialty") }
        if !(0...1).contains(complexity) { errors.add("complexity", "must be between 0 and 1") }
        if let wait = maxWaitMinutes, wait <= 0 { errors.add("maxWaitMinutes", "must be a positive number of minutes") }
        try errors.throwIfAny()
    }
}

/// A clinician offered to the matcher, with what the schedule knows about them.
public struct MatchCandidate: Hashable, Codable, Sendable {
    /// The clinician's profile.
    public var clinician: Clinician
    /// Start of their earliest free slot for the case (from the free-slot finder); `nil` if none was found.
    public var earliestStart: Date?
    /// Minutes booked on the day of ``earliestStart`` (or today).
    public var bookedMinutes: Int
    /// Minutes they can take that day (``ClinicianAvailability/capacityMinutes(on:timeZone:)``).
    public var capacityMinutes: Int

    /// Creates a candidate.
    public init(clinician: Clinician, earliestStart: Date?, bookedMinutes: Int, capacityMinutes: Int) {
        self.clinician = clinician
        self.earliestStart = earliestStart
        self.bookedMinutes = bookedMinutes
        self.capacityMinutes = capacityMinutes
    }

    /// Creates a candidate from the day's workload figure.
    public init(clinician: Clinician, earliestStart: Date?, workload: DailyWorkload) {
        self.init(
            clinician: clinician, earliestStart: earliestStart, bookedMinutes: workload.bookedMinutes,
            capacityMinutes: workload.capacityMinutes)
    }
}
