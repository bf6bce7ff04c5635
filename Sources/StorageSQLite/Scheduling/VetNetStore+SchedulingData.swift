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
    /// Reads the scheduling picture for `range`; with `clinicianID`, only that clinician and
    /// the appointments that share their time or `roomType`.
    public func schedulingData(scope: AccessScope, range: TimeRange, clinicianID: UUID? = nil, roomType: RoomType? = nil) async throws -> SchedulingData {
        try await writer.read { db in
            guard let practice = try Row.fetchOne(db, sql: "SELECT * FROM practice WHERE id = ?", arguments: [scope.practiceID.description])
                .map(Self.practice(from:)) else { throw DomainError.notFound(resource: "practice") }
            var clinicians = try Self.clinicians(db: db, practiceID: scope.practiceID)
            if let clinicianID { clinicians = clinicians.filter { $0.id.rawValue == clinicianID } }
            return SchedulingData(
                practice: practice, clinicians: clinicians, availabilities: try Self.availabilities(db: db, practiceID: scope.practiceID),
                types: try Self.appointmentTypes(db: db, practiceID: scope.practiceID), rooms: try Self.rooms(db: db, practiceID: scope.practiceID),
                appointments: try Self.appointments(db: db, practiceID: scope.practiceID, overlapping: range, clinicianID: clinicianID,
                                                    orRoomType: clinicianID == nil ? nil : roomType).map(\.value))
        }
    }
}
