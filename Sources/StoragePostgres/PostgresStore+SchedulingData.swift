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
    /// booking's transaction: `reads` says which appointments matter. With it, the practice's
    /// audit head, locked by the last read until the commit (`nil` before the practice's first
    /// entry), onto which the booking's write hashes its entry.
    func bookingData(
        practiceID: PracticeID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
        reads: (PracticeProfile, AppointmentType?) throws -> BookingReads, connection: PostgresConnection
    ) async throws -> (SchedulingData, auditHead: (Int64, String)?) {
        let (type, practice) = try await lockClinician(
            clinicianID, readingType: appointmentTypeID, practiceID: practiceID, connection: connection)
        let periods = try reads(practice, type)
        let roomType = type?.requiredRoomType
        // The clinician (whose retirement takes the clinician's lock, held here), their
        // availability and the rooms, read as the rooms of the type are locked for the hours
        // this booking's window touches (after the clinician's lock, as every booking takes them).
        let (clinicians, availabilities, rooms) = try await bookingResources(
            practiceID: practiceID, clinicianID: clinicianID,
            lockingRooms: roomType.map {
                Self.roomLockKeys(practiceID: practiceID, type: $0, occupying: periods.roomWindow)
            } ?? [],
            connection: connection)
        // A retired clinician is refused by name, not "not found"; only working ones are offered.
        for clinician in clinicians where clinician.retiredAt != nil { try clinician.checkAcceptsBookings() }
        // What the booking competes with, in one read under the locks: the clinician's
        // appointments, and other clinicians' in rooms of the type. The practice's audit head is
        // locked and read with them (one row even when no appointment does): the practice's
        // other audited writes wait from here, as they would from the insert, and the booking's
        // write is then one statement instead of two.
        let clinicianPeriod = periods.clinicianPeriod
        let window = periods.roomWindow
        let chain = AuditChain.chain(ofPractice: practiceID.description)
        let rows = try await connection.prepared(
            """
            SELECT a.*, head.seq, head.hash
            FROM (SELECT 1) AS one
            LEFT JOIN (SELECT seq, hash FROM audit_head WHERE chain = \(chain) FOR UPDATE) AS head ON true
            LEFT JOIN LATERAL (
                SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment
                WHERE practice_id = \(practiceID.rawValue)
                  AND ((clinician_id = \(clinicianID) AND start_ms < \(Timestamp.milliseconds(clinicianPeriod.end))
                        AND start_ms > \(Timestamp.milliseconds(clinicianPeriod.start) - 86_400_000)
                        AND occupied_end_ms > \(Timestamp.milliseconds(clinicianPeriod.start)))
                    OR (room_type = \(roomType?.rawValue) AND clinician_id <> \(clinicianID)
                        AND start_ms < \(Timestamp.milliseconds(window.end))
                        AND start_ms > \(Timestamp.milliseconds(window.start) - 86_400_000)
                        AND occupied_end_ms > \(Timestamp.milliseconds(window.start))))
            ) AS a ON true
            ORDER BY a.start_ms, a.id
            """, logger: logger)
        var appointments: [Appointment] = []
        var head: (Int64, String)?
        let headColumn = AppointmentRows.columns.count
        for try await row in rows {
            let columns = row.makeRandomAccess()
            if let sequence = try columns[headColumn].decode(Int64?.self),
                let hash = try columns[headColumn + 1].decode(String?.self)
            {
                head = (sequence, hash)
            }
            // A row with no appointment is the head alone (nothing competes).
            if try columns[0].decode(UUID?.self) != nil {
                appointments.append(try AppointmentRows.appointment(from: row.makeRandomAccess()).value)
            }
        }
        let data = SchedulingData(
            practice: practice, clinicians: clinicians, availabilities: availabilities,
            types: type.map { [$0] } ?? [], rooms: rooms, appointments: appointments)
        return (data, head)
    }

    /// Takes the clinician's booking lock (as ``lockBookingResources(practiceID:clinicianID:room:connection:)``
    /// does) and reads the appointment type and the practice in the same statement: types never
    /// change once created, and a change of the practice's settings takes the practice's row,
    /// not this lock, so the statement's snapshot, taken before the lock, is as good as a later one.
    private func lockClinician(
        _ clinicianID: UUID, readingType typeID: Identifier<AppointmentType>, practiceID: PracticeID,
        connection: PostgresConnection
    ) async throws -> (AppointmentType?, PracticeProfile) {
        let rows = try await connection.prepared(
            """
            SELECT (SELECT definition::text FROM appointment_type
                    WHERE practice_id = \(practiceID.rawValue) AND id = \(typeID.rawValue)),
                (SELECT profile::text FROM practice WHERE id = \(practiceID.rawValue))
            FROM (SELECT pg_advisory_xact_lock(\(Self.clinicianLockSpace), hashtext(\(UUIDText.lowercase(clinicianID))))
                    ::text AS taken) AS lock
            """, logger: logger)
        for try await (type, profile) in rows.decode((String?, String?).self) {
            guard let profile else { break }
            return (
                try type.map {
                    try bookingColumns.decoded(AppointmentType.self, from: $0, column: "appointment_type.definition")
                },
                try bookingColumns.decoded(PracticeProfile.self, from: profile, column: "practice.profile")
            )
        }
        throw DomainError.notFound(resource: "practice")
    }

    /// What a booking of `clinicianID` decides on that bookings do not change, in one statement
    /// after the clinician's lock (so a retirement committed meanwhile is seen): the clinician
    /// (retired or not), their availability and the practice's rooms. The same statement takes
    /// the room locks `lockingRooms` names, in order (see ``lockRooms(practiceID:type:occupying:connection:)``).
    private func bookingResources(
        practiceID: PracticeID, clinicianID: UUID, lockingRooms keys: [String], connection: PostgresConnection
    ) async throws -> ([Clinician], [Identifier<Clinician>: Versioned<ClinicianAvailability>], [Room]) {
        let rows = try await connection.prepared(
            """
            SELECT c.definition::text, a.availability::text, a.version,
                r.ids, r.names, r.types, r.active, locks.taken
            FROM practice p
            LEFT JOIN clinician c ON c.practice_id = p.id AND c.id = \(clinicianID)
            LEFT JOIN clinician_availability a ON a.practice_id = p.id AND a.clinician_id = \(clinicianID)
            CROSS JOIN LATERAL (
                SELECT array_agg(id ORDER BY name, id) AS ids, array_agg(name ORDER BY name, id) AS names,
                    array_agg(type ORDER BY name, id) AS types, array_agg(active ORDER BY name, id) AS active
                FROM room WHERE practice_id = p.id
            ) AS r
            CROSS JOIN LATERAL (
                SELECT count(*) AS taken FROM (
                    SELECT pg_advisory_xact_lock(\(Self.roomTypeLockSpace), hashtext(hour.key))
                    FROM unnest(\(keys)::text[]) WITH ORDINALITY AS hour(key, position) ORDER BY hour.position
                ) AS held
            ) AS locks
            WHERE p.id = \(practiceID.rawValue)
            """, logger: logger)
        for try await (definition, availability, version, ids, names, types, active, _) in rows.decode(
            (String?, String?, Int?, [UUID]?, [String]?, [String]?, [Bool]?, Int64).self)
        {
            var availabilities: [Identifier<Clinician>: Versioned<ClinicianAvailability>] = [:]
            if let availability, let version {
                let decoded = try bookingColumns.decoded(
                    ClinicianAvailability.self, from: availability, column: "clinician_availability.availability")
                availabilities[decoded.clinicianID] = Versioned(decoded, version: version)
            }
            var rooms: [Room] = []
            for (index, id) in (ids ?? []).enumerated() {
                guard let names, let types, let active, index < names.count, index < types.count,
                    index < active.count, let type = RoomType(rawValue: types[index])
                else { throw StoreCorruption(column: "room.type", reason: "not a room type") }
                rooms.append(Room(id: Identifier(id), name: names[index], type: type, isActive: active[index]))
            }
            return (
                try definition.map {
                    [try bookingColumns.decoded(Clinician.self, from: $0, column: "clinician.definition")]
                } ?? [],
                availabilities, rooms
            )
        }
        throw DomainError.notFound(resource: "practice")
    }

    /// The practice's profile (time zone, opening hours, closures), inside the caller's transaction.
    func practiceProfile(_ id: PracticeID, connection: PostgresConnection) async throws -> PracticeProfile {
        for try await text in try await connection.prepared(
            "SELECT profile::text FROM practice WHERE id = \(id.rawValue)", logger: logger
        )
        .decode(String.self) {
            return try bookingColumns.decoded(PracticeProfile.self, from: text, column: "practice.profile")
        }
        throw DomainError.notFound(resource: "practice")
    }
}
