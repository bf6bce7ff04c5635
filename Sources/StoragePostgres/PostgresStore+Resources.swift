import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension PostgresStore {
    // MARK: - Clinicians

    public func clinicians(scope: AccessScope, includingRetired: Bool) async throws -> [Clinician] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.clinicians(
                practiceID: scope.practiceID, onlyID: nil, includingRetired: includingRetired, connection: connection)
        }
    }

    /// The practice's clinicians by name (with `onlyID`, that one at most), inside the caller's transaction.
    func clinicians(practiceID: PracticeID, onlyID: UUID?, includingRetired: Bool, connection: PostgresConnection)
        async throws -> [Clinician]
    {
        let rows = try await connection.prepared(
            """
            SELECT definition::text FROM clinician
            WHERE practice_id = \(practiceID.rawValue) AND (\(includingRetired) OR active) AND (\(onlyID)::uuid IS NULL
                OR id = \(onlyID))
            ORDER BY display_name, id
            """, logger: logger)
        var found: [Clinician] = []
        for try await text in rows.decode(String.self) {
            found.append(try Self.decode(Clinician.self, text, column: "clinician.definition"))
        }
        return found
    }

    /// Looks up the staff account and preferred appointment types the clinician names in the
    /// practice, and refuses what is not there (``ClinicianRosterWrite/checkReferences(of:accountFound:typesFound:)``).
    func checkReferences(of clinician: Clinician, scope: AccessScope, connection: PostgresConnection) async throws {
        let practice = scope.practiceID.rawValue
        let accountFound = try await clinician.userID.asyncMap {
            try await self.exists(
                "SELECT EXISTS (SELECT 1 FROM staff_user WHERE id = \($0.rawValue) AND practice_id = \(practice))",
                connection)
        }
        var typesFound: Set<UUID> = []
        for try await id in try await connection.query(
            """
            SELECT id FROM appointment_type WHERE practice_id = \(practice)
                AND id = ANY(\(clinician.preferences.preferredAppointmentTypeIDs)::uuid[])
            """, logger: logger
        ).decode(UUID.self) { typesFound.insert(id) }
        try ClinicianRosterWrite.checkReferences(
            of: clinician, accountFound: accountFound ?? true, typesFound: typesFound)
    }

    /// The row a page's `cursor` names in `table`: refused (``PageCursor/namesNothing``)
    /// unless it is a row of the practice (and of `patientID`'s, when given) — a cursor that
    /// names nothing would otherwise read as the end of the list.
    func cursorRow(
        _ cursor: String, in table: StaticString, practiceID: PracticeID, patientID: UUID? = nil,
        connection: PostgresConnection
    ) async throws -> UUID {
        let id = try PageCursor.identifier(cursor)
        let known =
            if let patientID {
                try await exists(
                    """
                    SELECT EXISTS (SELECT 1 FROM \(unescaped: "\(table)")
                        WHERE id = \(id) AND practice_id = \(practiceID.rawValue) AND patient_id = \(patientID))
                    """, connection)
            } else {
                try await exists(
                    """
                    SELECT EXISTS (SELECT 1 FROM \(unescaped: "\(table)")
                        WHERE id = \(id) AND practice_id = \(practiceID.rawValue))
                    """, connection)
            }
        guard known else { throw PageCursor.namesNothing }
        return id
    }

    func exists(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> Bool {
        for try await value in try await connection.query(query, logger: logger).decode(Bool.self) { return value }
        return false
    }

    // MARK: - Availability

    public func setAvailability(
        _ availability: ClinicianAvailability, scope: AccessScope,
        expectedVersion: Int?
    ) async throws -> Versioned<ClinicianAvailability> {
        try availability.validate()
        let clinicianID = availability.clinicianID.rawValue
        return try await transaction(.practice(scope.practiceID)) { connection in
            // The clinician's row is locked so two instances replacing the availability at once
            // take turns and the version check sees the other's write.
            var found = false
            for try await _ in try await connection.query(
                """
                SELECT 1 FROM clinician WHERE id = \(clinicianID)
                    AND practice_id = \(scope.practiceID.rawValue) FOR UPDATE
                """, logger: logger)
            { found = true }
            guard found else { throw DomainError.notFound(resource: "clinician") }
            var current = 0
            for try await version in try await connection.query(
                "SELECT version FROM clinician_availability WHERE clinician_id = \(clinicianID)",
                logger: logger
            ).decode(Int.self) { current = version }
            if let expectedVersion, expectedVersion != current { throw DomainError.versionMismatch(current: current) }
            let version = current + 1
            try await connection.insert(
                AppointmentRows.insert(availability, version: version, practiceID: scope.practiceID), logger: logger)
            try await self.appendAudit(
                AuditRecord.clinician(.clinicianAvailabilityUpdate, availability.clinicianID), scope: scope,
                connection: connection)
            try await self.appendEvent(
                availability.changeEvent(version: version, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                scope: scope, connection: connection)
            return Versioned(availability, version: version)
        }
    }

    /// The practice's availabilities (with `clinicianID`, that clinician's), inside the caller's transaction.
    func availabilities(
        practiceID: PracticeID, clinicianID: UUID?,
        connection: PostgresConnection
    ) async throws -> [Identifier<Clinician>: Versioned<ClinicianAvailability>] {
        let rows = try await connection.prepared(
            """
            SELECT availability::text, version FROM clinician_availability
            WHERE practice_id = \(practiceID.rawValue) AND (\(clinicianID)::uuid IS NULL
                OR clinician_id = \(clinicianID))
            """, logger: logger)
        var result: [Identifier<Clinician>: Versioned<ClinicianAvailability>] = [:]
        for try await (text, version) in rows.decode((String, Int).self) {
            let availability = try Self.decode(
                ClinicianAvailability.self, text, column: "clinician_availability.availability")
            result[availability.clinicianID] = Versioned(availability, version: version)
        }
        return result
    }

    // MARK: - Rooms

    public func createRoom(_ room: Room, scope: AccessScope) async throws -> Room {
        try room.validate()
        do {
            try await transaction(.practice(scope.practiceID)) { connection in
                try await connection.insert(AppointmentRows.insert(room, practiceID: scope.practiceID), logger: logger)
                try await self.appendAudit(
                    AuditRecord.room(.roomCreate, room.id),
                    scope: scope, connection: connection)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            // The unique index decides between two instances creating the same name at once.
            throw UniquenessConflict.roomName
        }
        return room
    }

    public func updateRoom(id: Identifier<Room>, scope: AccessScope, decide: @escaping @Sendable (Room) throws -> Room)
        async throws -> Room
    {
        do {
            return try await transaction(.practice(scope.practiceID)) { connection in
                guard
                    let current = try await self.rooms(practiceID: scope.practiceID, connection: connection).first(
                        where: { $0.id == id })
                else {
                    throw DomainError.notFound(resource: "room")
                }
                let next = try decide(current)
                try await connection.query(
                    """
                    UPDATE room SET name = \(next.name), type = \(next.type.rawValue), active = \(next.isActive)
                    WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                    """, logger: self.logger)
                try await self.appendAudit(
                    AuditRecord.roomUpdated(id, to: next), scope: scope, connection: connection)
                return next
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw UniquenessConflict.roomName
        }
    }

    public func rooms(scope: AccessScope) async throws -> [Room] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.rooms(practiceID: scope.practiceID, connection: connection)
        }
    }

    func rooms(practiceID: PracticeID, connection: PostgresConnection) async throws -> [Room] {
        let rows = try await connection.prepared(
            "SELECT id, name, type, active FROM room WHERE practice_id = \(practiceID.rawValue) ORDER BY name",
            logger: logger)
        var found: [Room] = []
        for try await (id, name, type, active) in rows.decode((UUID, String, String, Bool).self) {
            guard let type = RoomType(rawValue: type) else {
                throw StoreCorruption(column: "room.type", reason: "not a room type")
            }
            found.append(Room(id: Identifier(id), name: name, type: type, isActive: active))
        }
        return found
    }

    // MARK: - Appointment types

    public func createAppointmentType(_ type: AppointmentType, scope: AccessScope) async throws -> AppointmentType {
        try type.validate()
        do {
            try await transaction(.practice(scope.practiceID)) { connection in
                try await connection.insert(AppointmentRows.insert(type, practiceID: scope.practiceID), logger: logger)
                try await self.appendAudit(
                    AuditRecord.appointmentType(.appointmentTypeCreate, type.id), scope: scope, connection: connection)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw UniquenessConflict.appointmentTypeName
        }
        return type
    }

    public func updateAppointmentType(
        id: Identifier<AppointmentType>, scope: AccessScope, action: AuditAction,
        decide: @escaping @Sendable (AppointmentType) throws -> AppointmentType
    ) async throws -> AppointmentType {
        do {
            return try await transaction(.practice(scope.practiceID)) { connection in
                let current = try await self.appointmentTypes(
                    practiceID: scope.practiceID, onlyID: id, connection: connection
                ).first.orNotFound("appointment type")
                let next = try decide(current)
                try await connection.query(
                    """
                    UPDATE appointment_type SET name = \(next.name), definition = \(try Self.json(next))::jsonb
                    WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                    """, logger: self.logger)
                try await self.appendAudit(
                    AuditRecord.appointmentType(action, id),
                    scope: scope, connection: connection)
                return next
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw UniquenessConflict.appointmentTypeName
        }
    }

    public func appointmentTypes(scope: AccessScope) async throws -> [AppointmentType] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.appointmentTypes(practiceID: scope.practiceID, onlyID: nil, connection: connection)
        }
    }

    func appointmentTypes(practiceID: PracticeID, onlyID: Identifier<AppointmentType>?, connection: PostgresConnection)
        async throws -> [AppointmentType]
    {
        let only = onlyID?.rawValue
        let rows = try await connection.prepared(
            """
            SELECT definition::text FROM appointment_type
            WHERE practice_id = \(practiceID.rawValue) AND (\(only)::uuid IS NULL OR id = \(only)) ORDER BY name
            """, logger: logger)
        var found: [AppointmentType] = []
        for try await text in rows.decode(String.self) {
            found.append(try Self.decode(AppointmentType.self, text, column: "appointment_type.definition"))
        }
        return found
    }

    // MARK: - JSON columns

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// Decodes a JSON column; a value that does not decode is reported by column, not trapped on.
    static func decode<Value: Decodable>(_ type: Value.Type, _ text: String, column: String) throws -> Value {
        try StoreCorruption.decoded(type, from: text, column: column)
    }
}
