import Foundation
import SharedKernel

// MARK: - Editing

/// The fields an administrator changes on a clinician's profile; `nil` leaves a field as it is.
public struct ClinicianChange: Hashable, Sendable {
    public var displayName: String?
    public var credentials: String?
    public var expertise: [Expertise]?
    public var species: Set<Species>?
    public var maxAppointmentsPerDay: Int?
    public var complexityCeiling: Double?
    public var preferences: CaseloadPreferences?

    /// Creates a change.
    public init(
        displayName: String? = nil, credentials: String? = nil, expertise: [Expertise]? = nil,
        species: Set<Species>? = nil,
        maxAppointmentsPerDay: Int? = nil, complexityCeiling: Double? = nil, preferences: CaseloadPreferences? = nil
    ) {
        self.displayName = displayName
        self.credentials = credentials
        self.expertise = expertise
        self.species = species
        self.maxAppointmentsPerDay = maxAppointmentsPerDay
        self.complexityCeiling = complexityCeiling
        self.preferences = preferences
    }

    /// The names of the fields this change sets, for the audit trail.
    public var fieldNames: [String] {
        [
            ("displayName", displayName != nil), ("credentials", credentials != nil), ("expertise", expertise != nil),
            ("species", species != nil), ("maxAppointmentsPerDay", maxAppointmentsPerDay != nil),
            ("complexityCeiling", complexityCeiling != nil), ("preferences", preferences != nil),
        ].filter(\.1).map(\.0)
    }
}

/// Why a change to a clinician was refused, beyond invalid fields.
public enum ClinicianError: Error, Hashable, Sendable {
    /// The clinician retired on the given date and is kept for history only.
    case retired(displayName: String, at: Date)

    /// The shared-kernel error for the HTTP edge (409).
    public var domainError: DomainError {
        switch self {
        case .retired(let name, let date):
            return .conflict(
                """
                \(name) retired on \(Timestamp.string(date)) and is kept for history only: no changes and no new \
                bookings.
                """
            )
        }
    }
}

extension Clinician {
    /// Whether the clinician has retired.
    public var isRetired: Bool { retiredAt != nil }

    /// The profile with `change` applied and validated. A retired clinician's profile is the
    /// record of who treated whom and is not edited.
    public func applying(_ change: ClinicianChange) throws -> Clinician {
        if let retiredAt { throw ClinicianError.retired(displayName: displayName, at: retiredAt).domainError }
        var next = self
        if let value = change.displayName { next.displayName = value }
        if let value = change.credentials { next.credentials = value }
        if let value = change.expertise { next.expertise = value }
        if let value = change.species { next.species = value }
        if let value = change.maxAppointmentsPerDay { next.maxAppointmentsPerDay = value }
        if let value = change.complexityCeiling { next.complexityCeiling = value }
        if let value = change.preferences { next.preferences = value }
        try next.validate()
        return next
    }

    // MARK: - Retirement

    /// The clinician retired at `now`. From then on they are never offered by matching or free
    /// slots and cannot be booked; their past appointments keep naming them, and their open
    /// future appointments must be re-planned (the caller lists them). Retiring twice is refused.
    public func retiring(at now: Date) throws -> Clinician {
        if let retiredAt { throw ClinicianError.retired(displayName: displayName, at: retiredAt).domainError }
        var next = self
        next.retiredAt = now
        return next
    }

    /// Refuses a new booking with a retired clinician (409, naming when they retired).
    public func checkAcceptsBookings() throws {
        if let retiredAt { throw ClinicianError.retired(displayName: displayName, at: retiredAt).domainError }
    }
}
