import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension PostgresStore {
    public func schedulingData(
        scope: AccessScope, range: TimeRange, clinicianID: UUID?,
        appointmentTypeID: Identifier<AppointmentType>?
    ) async throws -> SchedulingData {
        // One REPEATABLE READ snapshot would cost a round trip to set; the picture here is for
        // reading free slots, and the booking transaction reads its own again.
        try await transaction(.practice(scope.practiceID)) { connection in
            let practice = try await self.practiceProfile(scope.practiceID, connection: connection)
            let clinicians = try await self.clinicians(
                practiceID: scope.practiceID, onlyID: clinicianID, includingRetired: false, connection: connection)
            let availabilities = try await self.availabilities(
                practiceID: scope.practiceID, clinicianID: clinicianID, connection: connection)
            let types = try await self.appointmentTypes(
                practiceID: scope.practiceID, onlyID: appointmentTypeID, connection: connection)
            let roomType =
                clinicianID == nil
                ? nil : appointmentTypeID.flatMap { id in types.first { $0.id == id } }?.requiredRoomType
            let appointments = try await self.appointments(
                practiceID: scope.practiceID, overlapping: range, clinicianID: clinicianID,
                orRoomType: roomType, connection: connection)
            return SchedulingData(
                practice: practice, clinicians: clinicians, availabilities: availabilities, types: types,
                rooms: try await self.rooms(practiceID: scope.practiceID, connection: connection),
                appointments: appointments.map(\.value))
        }
    }

    /// The picture a booking of `clinicianID` for `appointmentTypeID` decides on, inside the
    /// booking's transaction: `reads` says which appointments matter.
    func bookingData(
        practiceID: PracticeID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
        reads: (PracticeProfile, AppointmentType?) throws -> BookingReads, connection: PostgresConnection
    ) async throws -> SchedulingData {
        // Types never change once created, so the type is read before the locks it decides.
        let type = try await appointmentTypes(practiceID: practiceID, onlyID: appointmentTypeID, connection: connection)
            .first
        try await lockBookingResources(
            practiceID: practiceID, clinicianID: clinicianID, room: nil, connection: connection)
        let practice = try await practiceProfile(practiceID, connection: connection)
        let periods = try reads(practice, type)
        // What bookings do not change is read before the rooms' lock, which every booking of the
        // day needing such a room waits for: the clinician (whose retirement takes the
        // clinician's lock, held here), their availability and the rooms.
        let clinicians = try await self.clinicians(
            practiceID: practiceID, onlyID: clinicianID, includingRetired: true, connection: connection)
        // A retired clinician is refused by name, not "not found"; only working ones are offered.
        for clinician in clinicians where clinician.retiredAt != nil { try clinician.checkAcceptsBookings() }
        let availabilities = try await availabilities(
            practiceID: practiceID, clinicianID: clinicianID, connection: connection)
        let rooms = try await rooms(practiceID: practiceID, connection: connection)
        let roomType = type?.requiredRoomType
        if let roomType {
            // The rooms of the type, in the hours this booking's window touches (after the
            // clinician's lock, as every booking takes them).
            try await lockRooms(
                practiceID: practiceID, type: roomType, occupying: periods.roomWindow, connection: connection)
        }
        // What the booking competes with, in one read under the locks: the clinician's
        // appointments, and other clinicians' in rooms of the type.
        let clinicianPeriod = periods.clinicianPeriod
        let window = periods.roomWindow
        let rows = try await connection.prepared(
            """
            SELECT \(unescaped: Self.appointmentColumns) FROM appointment
            WHERE practice_id = \(practiceID.rawValue)
              AND ((clinician_id = \(clinicianID) AND start_ms < \(Timestamp.milliseconds(clinicianPeriod.end))
                    AND start_ms > \(Timestamp.milliseconds(clinicianPeriod.start) - 86_400_000)
                    AND occupied_end_ms > \(Timestamp.milliseconds(clinicianPeriod.start)))
                OR (room_type = \(roomType?.rawValue) AND clinician_id <> \(clinicianID)
                    AND start_ms < \(Timestamp.milliseconds(window.end))
                    AND start_ms > \(Timestamp.milliseconds(window.start) - 86_400_000)
                    AND occupied_end_ms > \(Timestamp.milliseconds(window.start))))
            ORDER BY start_ms, id
            """, logger: logger)
        var appointments: [Appointment] = []
        for try await row in rows { appointments.append(try Self.appointment(from: row).value) }
        return SchedulingData(
            practice: practice, clinicians: clinicians, availabilities: availabilities,
            types: type.map { [$0] } ?? [], rooms: rooms, appointments: appointments)
    }

    /// The practice's profile (time zone, opening hours, closures), inside the caller's transaction.
    func practiceProfile(_ id: PracticeID, connection: PostgresConnection) async throws -> PracticeProfile {
        for try await text in try await connection.prepared(
            "SELECT profile::text FROM practice WHERE id = \(id.rawValue)", logger: logger
        )
        .decode(String.self) {
            return try Self.decode(PracticeProfile.self, text, column: "practice.profile")
        }
        throw DomainError.notFound(resource: "practice")
    }
}
