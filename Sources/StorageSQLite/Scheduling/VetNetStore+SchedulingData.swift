import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension VetNetStore {
    /// Reads the scheduling picture for `range`; with `clinicianID`, only that clinician, their
    /// availability and the appointments that share their time or the room type of
    /// `appointmentTypeID` (then the only type loaded). A booking touches one clinician and
    /// one type, and leaving out the rest keeps it fast.
    public func schedulingData(
        scope: AccessScope, range: TimeRange, clinicianID: UUID? = nil,
        appointmentTypeID: Identifier<AppointmentType>? = nil
    ) async throws -> SchedulingData {
        try await writer.read { db in
            try self.schedulingData(
                db: db, practiceID: scope.practiceID, range: range, clinicianID: clinicianID,
                appointmentTypeID: appointmentTypeID)
        }
    }

    /// The practice's profile (time zone, opening hours) from the scheduling configuration.
    public func schedulingPractice(scope: AccessScope) async throws -> PracticeProfile {
        try await writer.read { db in try self.schedulingConfiguration(db: db, practiceID: scope.practiceID).practice }
    }

    /// One appointment type of the practice, or `nil`.
    public func appointmentType(scope: AccessScope, id: Identifier<AppointmentType>) async throws -> AppointmentType? {
        try await writer.read { db in
            try self.schedulingConfiguration(db: db, practiceID: scope.practiceID).types.first { $0.id == id }
        }
    }

    /// The picture a booking of `clinicianID` for `appointmentTypeID` decides on, inside the
    /// booking's transaction: `reads` says which appointments matter.
    func bookingData(
        db: Database, practiceID: PracticeID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
        reads: (PracticeProfile, AppointmentType?) throws -> BookingReads
    ) throws -> SchedulingData {
        let configuration = try schedulingConfiguration(db: db, practiceID: practiceID)
        if !configuration.clinicians.contains(where: { $0.id.rawValue == clinicianID }),
            let stored = try Self.clinician(
                db: db, practiceID: practiceID, id: Identifier<Clinician>(clinicianID).description)
        {
            // Only working clinicians are configured; a retired one is refused by name, not "not found".
            try stored.value.checkAcceptsBookings()
        }
        let type = configuration.types.first { $0.id == appointmentTypeID }
        let periods = try reads(configuration.practice, type)
        var appointments = try Self.appointments(
            db: db, practiceID: practiceID, overlapping: periods.clinicianPeriod, clinicianID: clinicianID)
        if let roomType = type?.requiredRoomType {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(AppointmentRows.selectList()) FROM appointment
                    WHERE practice_id = ? AND room_type = ? AND start_ms < ? AND start_ms > ? AND occupied_end_ms > ?
                        AND clinician_id <> ?
                    """)
            let window = periods.roomWindow
            appointments += try Row.fetchAll(
                statement,
                arguments: [
                    practiceID.description, roomType.rawValue, Timestamp.milliseconds(window.end),
                    Timestamp.milliseconds(window.start) - 86_400_000, Timestamp.milliseconds(window.start),
                    Self.text(clinicianID),
                ]
            ).map(AppointmentRows.appointment(from:))
            appointments.sort { $0.value.time.start < $1.value.time.start }
        }
        return SchedulingData(
            practice: configuration.practice,
            clinicians: configuration.clinicians.filter { $0.id.rawValue == clinicianID },
            availabilities: configuration.availabilities.filter { $0.key.rawValue == clinicianID },
            types: type.map { [$0] } ?? [],
            rooms: configuration.rooms, appointments: appointments.map(\.value))
    }

    /// The scheduling picture for `range` inside the caller's transaction.
    func schedulingData(
        db: Database, practiceID: PracticeID, range: TimeRange, clinicianID: UUID?,
        appointmentTypeID: Identifier<AppointmentType>?
    ) throws -> SchedulingData {
        let configuration = try schedulingConfiguration(db: db, practiceID: practiceID)
        var clinicians = configuration.clinicians
        var availabilities = configuration.availabilities
        var types = configuration.types
        if let clinicianID {
            clinicians = clinicians.filter { $0.id.rawValue == clinicianID }
            availabilities = availabilities.filter { $0.key.rawValue == clinicianID }
        }
        if let appointmentTypeID { types = types.filter { $0.id == appointmentTypeID } }
        let roomType = appointmentTypeID.flatMap { id in types.first { $0.id == id } }?.requiredRoomType
        return SchedulingData(
            practice: configuration.practice, clinicians: clinicians, availabilities: availabilities, types: types,
            rooms: configuration.rooms,
            appointments: try Self.appointments(
                db: db, practiceID: practiceID, overlapping: range, clinicianID: clinicianID,
                orRoomType: clinicianID == nil ? nil : roomType
            ).map(\.value))
    }
}
