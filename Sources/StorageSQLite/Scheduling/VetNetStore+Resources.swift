import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension VetNetStore {
    // MARK: - Rooms

    /// Adds a room (audited). Names are unique within a practice.
    public func createRoom(_ room: Room, scope: AccessScope) async throws -> Room {
        try room.validate()
        try await write { db in
            if try
                (Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM room WHERE practice_id = ? AND name = ?",
                    arguments: [scope.practiceID.description, room.name]) ?? 0) > 0
            {
                throw UniquenessConflict.roomName
            }
            try db.insert(AppointmentRows.insert(room, practiceID: scope.practiceID))
            try self.appendAudit(
                AuditRecord.room(.roomCreate, room.id), scope: scope,
                db: db)
        }
        return room
    }

    /// The practice's rooms by name.
    public func rooms(scope: AccessScope) async throws -> [Room] {
        try await writer.read { db in try Self.rooms(db: db, practiceID: scope.practiceID) }
    }

    public func updateRoom(id: Identifier<Room>, scope: AccessScope, decide: @escaping @Sendable (Room) throws -> Room)
        async throws -> Room
    {
        try await write { db in
            guard let current = try Self.rooms(db: db, practiceID: scope.practiceID).first(where: { $0.id == id })
            else {
                throw DomainError.notFound(resource: "room")
            }
            let next = try decide(current)
            if try
                (Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM room WHERE practice_id = ? AND name = ? AND id <> ?",
                    arguments: [scope.practiceID.description, next.name, id.description]) ?? 0) > 0
            {
                throw UniquenessConflict.roomName
            }
            try db.execute(
                sql: "UPDATE room SET name = ?, type = ?, active = ? WHERE id = ? AND practice_id = ?",
                arguments: [next.name, next.type.rawValue, next.isActive, id.description, scope.practiceID.description])
            try self.appendAudit(
                AuditRecord.roomUpdated(id, to: next), scope: scope, db: db)
            return next
        }
    }

    static func rooms(db: Database, practiceID: PracticeID) throws -> [Room] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM room WHERE practice_id = ? ORDER BY name", arguments: [practiceID.description]
        ).map {
            Room(
                id: try $0.identifier("id"), name: try $0.read("name"),
                type: try StoreCorruption.known(
                    (try $0.read("type") as String?).flatMap(RoomType.init(rawValue:)), column: "room.type"),
                isActive: try $0.read("active"))
        }
    }

    // MARK: - Appointment types

    /// Adds an appointment type (audited). Names are unique within a practice.
    public func createAppointmentType(_ type: AppointmentType, scope: AccessScope) async throws -> AppointmentType {
        try type.validate()
        try await write { db in
            if try
                (Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM appointment_type WHERE practice_id = ? AND name = ?",
                    arguments: [scope.practiceID.description, type.name]) ?? 0) > 0
            {
                throw UniquenessConflict.appointmentTypeName
            }
            try db.insert(AppointmentRows.insert(type, practiceID: scope.practiceID))
            try self.appendAudit(
                AuditRecord.appointmentType(.appointmentTypeCreate, type.id),
                scope: scope, db: db)
        }
        return type
    }

    /// The practice's appointment types by name.
    public func appointmentTypes(scope: AccessScope) async throws -> [AppointmentType] {
        try await writer.read { db in try Self.appointmentTypes(db: db, practiceID: scope.practiceID) }
    }

    public func updateAppointmentType(
        id: Identifier<AppointmentType>, scope: AccessScope, action: AuditAction,
        decide: @escaping @Sendable (AppointmentType) throws -> AppointmentType
    ) async throws -> AppointmentType {
        try await write { db in
            let current = try Self.appointmentTypes(db: db, practiceID: scope.practiceID, onlyID: id).first.orNotFound(
                "appointment type")
            let next = try decide(current)
            if try
                (Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM appointment_type WHERE practice_id = ? AND name = ? AND id <> ?",
                    arguments: [scope.practiceID.description, next.name, id.description]) ?? 0) > 0
            {
                throw UniquenessConflict.appointmentTypeName
            }
            try db.execute(
                sql: "UPDATE appointment_type SET name = ?, definition = ? WHERE id = ? AND practice_id = ?",
                arguments: [
                    next.name, String(decoding: try JSONEncoder().encode(next), as: UTF8.self), id.description,
                    scope.practiceID.description,
                ])
            try self.appendAudit(
                AuditRecord.appointmentType(action, id), scope: scope,
                db: db)
            return next
        }
    }

    static func appointmentTypes(db: Database, practiceID: PracticeID, onlyID: Identifier<AppointmentType>? = nil)
        throws -> [AppointmentType]
    {
        var sql = "SELECT definition FROM appointment_type WHERE practice_id = ?"
        var arguments: StatementArguments = [practiceID.description]
        if let onlyID {
            sql += " AND id = ?"
            arguments += [onlyID.description]
        }
        return try String.fetchAll(db, sql: sql + " ORDER BY name", arguments: arguments)
            .map { try StoreCorruption.decoded(AppointmentType.self, from: $0, column: "appointment_type.definition") }
    }

    // MARK: - Availability

    /// Replaces a clinician's availability under optimistic concurrency (audited).
    public func setAvailability(_ availability: ClinicianAvailability, scope: AccessScope, expectedVersion: Int?)
        async throws -> Versioned<ClinicianAvailability>
    {
        try availability.validate()
        return try await write { db in
            let id = availability.clinicianID.description
            guard
                try
                    (Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM clinician WHERE id = ? AND practice_id = ?",
                        arguments: [id, scope.practiceID.description]) ?? 0) > 0
            else {
                throw DomainError.notFound(resource: "clinician")
            }
            let current = try Int.fetchOne(
                db, sql: "SELECT version FROM clinician_availability WHERE clinician_id = ?", arguments: [id])
            if let expectedVersion, expectedVersion != (current ?? 0) {
                throw DomainError.versionMismatch(current: current ?? 0)
            }
            let version = (current ?? 0) + 1
            try db.insert(AppointmentRows.insert(availability, version: version, practiceID: scope.practiceID))
            try self.appendAudit(
                AuditRecord.clinician(.clinicianAvailabilityUpdate, availability.clinicianID),
                scope: scope, db: db)
            try self.appendEvent(
                availability.changeEvent(version: version, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                scope: scope, db: db)
            return Versioned(availability, version: version)
        }
    }

    /// Every clinician's availability in the practice, by clinician.
    public func availabilities(scope: AccessScope) async throws -> [Identifier<Clinician>: Versioned<
        ClinicianAvailability
    >] {
        try await writer.read { db in try Self.availabilities(db: db, practiceID: scope.practiceID) }
    }

    static func availabilities(db: Database, practiceID: PracticeID, clinicianID: UUID? = nil) throws -> [Identifier<
        Clinician
    >: Versioned<ClinicianAvailability>] {
        var result: [Identifier<Clinician>: Versioned<ClinicianAvailability>] = [:]
        var sql = "SELECT availability, version FROM clinician_availability WHERE practice_id = ?"
        var arguments: StatementArguments = [practiceID.description]
        if let clinicianID {
            sql += " AND clinician_id = ?"
            arguments += [Identifier<Clinician>(clinicianID).description]
        }
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            let json: String = try row.read("availability")
            let availability = try StoreCorruption.decoded(
                ClinicianAvailability.self, from: json, column: "clinician_availability.availability")
            result[availability.clinicianID] = Versioned(availability, version: try row.read("version"))
        }
        return result
    }
}
