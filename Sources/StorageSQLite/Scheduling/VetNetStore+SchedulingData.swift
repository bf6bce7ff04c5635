import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists

/// Everything free slots, booking and matching depend on for a period, read in one
/// transaction (a consistent picture, and one trip to the store instead of six).
public struct SchedulingData: Sendable {
    public let practice: PracticeProfile
    public let clinicians: [Clinician]
    public let availabilities: [Identifier<Clinician>: Versioned<ClinicianAvailability>]
    public let types: [AppointmentType]
    public let rooms: [Room]
    public let appointments: [Appointment]
}

extension VetNetStore {
    /// Reads the scheduling picture for `range`; with `clinicianID`, only that clinician, their
    /// availability and the appointments that share their time or the room type of
    /// `appointmentTypeID` (then the only type loaded). A booking touches one clinician and
    /// one type, and leaving out the rest keeps it fast.
    public func schedulingData(scope: AccessScope, range: TimeRange, clinicianID: UUID? = nil,
                               appointmentTypeID: Identifier<AppointmentType>? = nil) async throws -> SchedulingData {
        try await writer.read { db in
            try self.schedulingData(db: db, practiceID: scope.practiceID, range: { _ in range }, clinicianID: clinicianID,
                                    appointmentTypeID: appointmentTypeID)
        }
    }

    /// The practice's profile (time zone, opening hours) from the scheduling configuration.
    public func schedulingPractice(scope: AccessScope) async throws -> PracticeProfile {
        try await writer.read { db in try self.schedulingConfiguration(db: db, practiceID: scope.practiceID).practice }
    }

    /// One appointment type of the practice, or `nil`.
    public func appointmentType(scope: AccessScope, id: Identifier<AppointmentType>) async throws -> AppointmentType? {
        try await writer.read { db in try self.schedulingConfiguration(db: db, practiceID: scope.practiceID).types.first { $0.id == id } }
    }

    /// The scheduling picture inside the caller's transaction; `range` is computed from the
    /// practice (a booking's local day depends on its time zone).
    func schedulingData(db: Database, practiceID: PracticeID, range: (PracticeProfile) throws -> TimeRange, clinicianID: UUID?,
                        appointmentTypeID: Identifier<AppointmentType>?) throws -> SchedulingData {
        let configuration = try schedulingConfiguration(db: db, practiceID: practiceID)
        var clinicians = configuration.clinicians, availabilities = configuration.availabilities, types = configuration.types
        if let clinicianID {
            clinicians = clinicians.filter { $0.id.rawValue == clinicianID }
            availabilities = availabilities.filter { $0.key.rawValue == clinicianID }
        }
        if let appointmentTypeID { types = types.filter { $0.id == appointmentTypeID } }
        let roomType = appointmentTypeID.flatMap { id in types.first { $0.id == id } }?.requiredRoomType
        let period = try range(configuration.practice)
        return SchedulingData(
            practice: configuration.practice, clinicians: clinicians, availabilities: availabilities, types: types, rooms: configuration.rooms,
            appointments: try Self.appointments(db: db, practiceID: practiceID, overlapping: period, clinicianID: clinicianID,
                                                orRoomType: clinicianID == nil ? nil : roomType).map(\.value))
    }
}
