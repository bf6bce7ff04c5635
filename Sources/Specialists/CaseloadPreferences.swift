import Foundation
import SharedKernel

/// The case load a clinician asks for, beyond what they are able to do.
///
/// - Preferred appointment types come first when an intake offers slots for one of them, so
///   the clinician who likes dentals gets the dentals while others are as good a match.
/// - A cap on consecutive surgery minutes keeps a surgeon from being booked into one unbroken
///   run of operations longer than they are willing to stand: the free-slot finder (and so
///   booking, intake and rescheduling) refuses a surgery that would make the run longer.
public struct CaseloadPreferences: Codable, Hashable, Sendable {
    /// Appointment types the clinician prefers (`Identifier<AppointmentType>.rawValue`), most preferred first.
    public var preferredAppointmentTypeIDs: [UUID]
    /// Longest run of back-to-back surgery, in minutes; `nil` for no limit.
    public var maxConsecutiveSurgeryMinutes: Int?

    /// Most preferred types a clinician may list.
    public static let maxPreferredTypes = 20
    /// Allowed values of ``maxConsecutiveSurgeryMinutes``: half an hour to a twelve-hour day.
    public static let consecutiveSurgeryMinutes = 30...720

    /// Creates preferences.
    public init(preferredAppointmentTypeIDs: [UUID] = [], maxConsecutiveSurgeryMinutes: Int? = nil) {
        self.preferredAppointmentTypeIDs = preferredAppointmentTypeIDs
        self.maxConsecutiveSurgeryMinutes = maxConsecutiveSurgeryMinutes
    }

    /// Whether the clinician prefers appointments of the type with this identifier.
    public func prefers(appointmentTypeID: UUID) -> Bool { preferredAppointmentTypeIDs.contains(appointmentTypeID) }

    /// Adds this value's own problems under `field` (`preferences.preferredAppointmentTypeIds[1]` …).
    public func validate(field: String, into errors: inout FieldErrorCollector) {
        if preferredAppointmentTypeIDs.count > Self.maxPreferredTypes {
            errors.add("\(field).preferredAppointmentTypeIds", "must list at most \(Self.maxPreferredTypes) types")
        }
        for (index, id) in preferredAppointmentTypeIDs.enumerated()
        where preferredAppointmentTypeIDs[..<index].contains(id) {
            errors.add("\(field).preferredAppointmentTypeIds[\(index)]", "repeats an earlier type")
        }
        if let minutes = maxConsecutiveSurgeryMinutes, !Self.consecutiveSurgeryMinutes.contains(minutes) {
            errors.add(
                "\(field).maxConsecutiveSurgeryMinutes",
                """
                must be \(Self.consecutiveSurgeryMinutes.lowerBound) to \(Self.consecutiveSurgeryMinutes.upperBound) \
                minutes
                """
            )
        }
    }

    private enum CodingKeys: String, CodingKey { case preferredAppointmentTypeIDs, maxConsecutiveSurgeryMinutes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            preferredAppointmentTypeIDs: try container.decodeIfPresent(
                [UUID].self, forKey: .preferredAppointmentTypeIDs) ?? [],
            maxConsecutiveSurgeryMinutes: try container.decodeIfPresent(Int.self, forKey: .maxConsecutiveSurgeryMinutes)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(preferredAppointmentTypeIDs, forKey: .preferredAppointmentTypeIDs)
        try container.encodeIfPresent(maxConsecutiveSurgeryMinutes, forKey: .maxConsecutiveSurgeryMinutes)
    }
}
