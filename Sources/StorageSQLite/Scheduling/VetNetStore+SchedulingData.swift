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
    /// one type, and decoding nothing else keeps it fast.
    public func schedulingData(scope: AccessScope, range: TimeRange, clinicianID: UUID? = nil,
                               appointmentTypeID: Identifier<AppointmentType>? = nil) async throws -> SchedulingData {
        try await writer.read { db in
            guard let practice = try Row.fetchOne(db, sql: "SELECT * FROM practice WHERE id = ?", arguments: [scope.practiceID.description])
                .map(Self.practice(from:)) else { throw DomainError.notFound(resource: "practice") }
            var clinicians = try Self.clinicians(db: db, practiceID: scope.practiceID)
            var availabilities = try Self.availabilities(db: db, practiceID: scope.practiceID, clinicianID: clinicianID)
            if let clinicianID {
                clinicians = clinicians.filter { $0.id.rawValue == clinicianID }
                availabilities = availabilities.filter { $0.key.rawValue == clinicianID }
            }
            let types = try Self.appointmentTypes(db: db, practiceID: scope.practiceID, onlyID: appointmentTypeID)
            let roomType = appointmentTypeID.flatMap { id in types.first { $0.id == id } }?.requiredRoomType
            return SchedulingData(
                practice: practice, clinicians: clinicians, availabilities: availabilities, types: types,
                rooms: try Self.rooms(db: db, practiceID: scope.practiceID),
                appointments: try Self.appointments(db: db, practiceID: scope.practiceID, overlapping: range, clinicianID: clinicianID,
                                                    orRoomType: clinicianID == nil ? nil : roomType).map(\.value))
        }
    }
}
