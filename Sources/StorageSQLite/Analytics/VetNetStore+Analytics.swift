import Analytics
import Foundation
import GRDB
import GRDBSQLite
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Triage

extension VetNetStore {
    // MARK: - Versions

    /// Where the scope's practice's records stand now.
    public func analyticsDataVersion(scope: AccessScope) async throws -> AnalyticsDataVersion {
        try await writer.read { db in try Self.analyticsDataVersion(db: db, practiceID: scope.practiceID) }
    }

    static func analyticsDataVersion(db: Database, practiceID: PracticeID) throws -> AnalyticsDataVersion {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT analytics_version, config_version FROM practice WHERE id = ?"),
            arguments: [practiceID.description]
        ).orNotFound("practice")
        return AnalyticsDataVersion(analytics: try row.read(at: 0), configuration: try row.read(at: 1))
    }

    // MARK: - Reading a practice's history

    /// The practice's records that `window` covers, as the analytics engine reads them: the
    /// practice's profile, appointment types, clinicians (those who left too, so their past
    /// appointments keep their names; working time only for the active ones, as nothing
    /// records when someone left), availability, rooms, the appointments and triage arrivals
    /// of the window with each patient's species, and the first visit before the period of
    /// each patient who had one. Read in one snapshot with one range query per stretch of the
    /// window (index range scans, however long the history), then audited as a read of the
    /// practice's data under `action`.
    ///
    /// `progress`, when given, is told how many appointments of the window have been read.
    public func practiceHistory(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> PracticeHistory {
        try await versionedPracticeHistory(scope: scope, window: window, action: action, progress: progress).history
    }

    /// ``practiceHistory(scope:window:action:progress:)`` with the version of the records it
    /// was read at, from the same snapshot.
    public func versionedPracticeHistory(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws
        -> (history: PracticeHistory, version: AnalyticsDataVersion)
    {
        // The audit entry is written while the snapshot is read (WAL lets the two run side by side).
        async let audited: Void = recordAudit(
            .historyRead(action, of: scope.practiceID, window: window), scope: scope)
        let (history, version) = try await writer.read { db in
            (
                try self.practiceHistory(db: db, practiceID: scope.practiceID, window: window, progress: progress),
                try Self.analyticsDataVersion(db: db, practiceID: scope.practiceID)
            )
        }
        try await audited
        return (history, version)
    }

    func practiceHistory(
        db: Database, practiceID: PracticeID, window: HistoryWindow,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws -> PracticeHistory {
        let configuration = try schedulingConfiguration(db: db, practiceID: practiceID)
        let everyone = try Self.clinicians(db: db, practiceID: practiceID, includingInactive: true)
        let active = Set(everyone.filter(\.active).map(\.clinician.id))
        let availabilities = configuration.availabilities.values.map(\.value).filter { active.contains($0.clinicianID) }
            .sorted { $0.clinicianID < $1.clinicianID }

        // The stretches to read, in start order: whole appointments, and completed ones only
        // where the duration model's training history lies outside them.
        let stretches = window.appointmentStretches
        var total = 0
        if progress != nil {
            for stretch in stretches {
                total += try Self.countAppointments(
                    db: db, practiceID: practiceID, stretch.range, completedOnly: stretch.completedOnly)
            }
            progress?(0, total)
        }
        var appointments: [AppointmentRecord] = []
        var decoder = HistoryRowDecoder(practiceID: practiceID)
        for stretch in stretches {
            try Self.readAppointments(
                db: db, practiceID: practiceID, stretch.range, completedOnly: stretch.completedOnly,
                decoder: &decoder, into: &appointments
            ) { read in progress?(read, max(total, read)) }
        }
        progress?(appointments.count, max(total, appointments.count))

        var arrivals: [TriageArrival] = []
        for range in window.arrivalRanges {
            try Self.readArrivals(db: db, practiceID: practiceID, range, decoder: &decoder, into: &arrivals)
        }
        return PracticeHistory(
            practice: configuration.practice, appointmentTypes: configuration.types,
            clinicians: everyone.map(\.clinician), availabilities: availabilities, rooms: configuration.rooms,
            appointments: appointments, triageArrivals: arrivals,
            firstVisits: try Self.firstVisits(
                db: db, practiceID: practiceID, before: window.firstVisitCutoff,
                loaded: appointments, decoder: &decoder),
            openRequests: [])
    }

    private static func countAppointments(
        db: Database, practiceID: PracticeID, _ range: DateInterval, completedOnly: Bool
    ) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COUNT(*) FROM appointment WHERE practice_id = ? AND start_ms >= ?
                        AND start_ms < ?\(completedOnly ? " AND status = 'completed'" : "")
                    """),
            arguments: [practiceID.description, Timestamp.milliseconds(range.start), Timestamp.milliseconds(range.end)])
            ?? 0
    }

    /// Appends the appointments starting in `range` (completed ones only if asked), by start.
    /// Stepped with SQLite's own API: the values are read where SQLite keeps them, with no
    /// row object, string or data buffer made for any of them.
    private static func readAppointments(
        db: Database, practiceID: PracticeID, _ range: DateInterval, completedOnly: Bool,
        decoder: inout HistoryRowDecoder, into records: inout [AppointmentRecord],
        progress: (Int) -> Void
    ) throws {
        let statement = try db.makeStatement(
            sql: """
                SELECT a.id, a.patient_id, a.clinician_id, a.appointment_type_id, a.room_type, a.room_id, a.start_ms,
                    a.end_ms,
                       a.occupied_end_ms, a.status, a.checked_in_at_ms, a.started_at_ms, a.completed_at_ms,
                           a.actual_minutes,
                       a.created_at, a.cancelled_at_ms, a.patient_species
                FROM appointment a
                WHERE a.practice_id = ? AND a.start_ms >= ?
                    AND a.start_ms < ?\(completedOnly ? " AND a.status = 'completed'" : "")
                ORDER BY a.start_ms
                """)
        try statement.setArguments([
            practiceID.description, Timestamp.milliseconds(range.start), Timestamp.milliseconds(range.end),
        ])
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading appointments failed")
            }
            records.append(try decoder.appointment(RawRow(handle: handle)))
            if records.count % 10_000 == 0 { progress(records.count) }
        }
    }

    /// Appends the triage arrivals in `range`, by arrival.
    private static func readArrivals(
        db: Database, practiceID: PracticeID, _ range: DateInterval, decoder: inout HistoryRowDecoder,
        into arrivals: inout [TriageArrival]
    ) throws {
        let statement = try db.cachedStatement(
            sql: """
                SELECT t.patient_id, t.level, t.arrival_at_ms, t.first_seen_at_ms, p.species, t.left_at_ms
                FROM triage_arrival t JOIN patient p ON p.id = t.patient_id
                WHERE t.practice_id = ? AND t.arrival_at_ms >= ? AND t.arrival_at_ms < ?
                ORDER BY t.arrival_at_ms
                """)
        let rows = try Row.fetchCursor(
            statement,
            arguments: [
                practiceID.description, Timestamp.milliseconds(range.start),
                Timestamp.milliseconds(range.end),
            ])
        while let row = try rows.next() {
            let level = try AssessmentRows.level(try row.read(at: 1), column: "triage_arrival.level")
            let seen: Int64? = try row.read(at: 3)
            arrivals.append(
                TriageArrival(
                    patientID: try decoder.uuid(row, 0, "triage_arrival.patient_id"), level: level,
                    arrival: Timestamp.date(milliseconds: try row.read(at: 2)),
                    firstSeenAt: seen.map(Timestamp.date(milliseconds:)),
                    species: try decoder.species(row, 4),
                    leftAt: (try row.read(at: 5) as Int64?).map(Timestamp.date(milliseconds:)))
            )
        }
    }

    /// Each patient's first attended visit: the earliest before `cutoff` for those who came
    /// before it (one grouped scan of the visit index), else the earliest among `loaded`.
    private static func firstVisits(
        db: Database, practiceID: PracticeID, before cutoff: Date?, loaded: [AppointmentRecord],
        decoder: inout HistoryRowDecoder
    ) throws -> [UUID: Date] {
        var first: [UUID: Date] = [:]
        if let cutoff {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT patient_id, MIN(start_ms) FROM appointment
                    WHERE practice_id = ? AND start_ms < ?
                        AND status IN (\(AppointmentStatus.sqlList(where: \.isAttended)))
                    GROUP BY patient_id
                    """)
            let rows = try Row.fetchCursor(
                statement, arguments: [practiceID.description, Timestamp.milliseconds(cutoff)])
            while let row = try rows.next() {
                first[try decoder.uuid(row, 0, "appointment.patient_id")] = Timestamp.date(
                    milliseconds: try row.read(at: 1))
            }
        }
        return loaded.firstVisits(after: first)
    }
}

/// The current row of a statement stepped with SQLite's API, read in place.
struct RawRow {
    let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column's text as bytes, valid until the statement steps again; `nil` for NULL.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard !isNull(column), let text = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
    }
}

/// Decodes history rows straight from SQLite's bytes: a year of a busy practice is some
/// hundred thousand rows of five UUIDs each, and making a `String` or `Data` of every value
/// was most of the read.
struct HistoryRowDecoder {
    let practiceID: PracticeID
    private static let statuses = AppointmentStatus.allCases.map { (Array($0.rawValue.utf8), $0) }
    private static let species = Species.allCases.map { (Array($0.rawValue.utf8), $0) }
    private static let roomTypes = RoomType.allCases.map { (Array($0.rawValue.utf8), $0) }

    init(practiceID: PracticeID) {
        self.practiceID = practiceID
    }

    /// A UUID column of a GRDB row, parsed from its text without making a `String`.
    func uuid(_ row: Row, _ index: Int, _ column: String) throws -> UUID {
        let parsed = try row.withUnsafeData(atIndex: index) { data in
            data.flatMap { $0.withUnsafeBytes(UUIDText.parse(utf8:)) }
        }
        guard let parsed else { throw StoreCorruption(column: column, reason: "not a UUID") }
        return parsed
    }

    /// The species column of a GRDB row.
    func species(_ row: Row, _ index: Int) throws -> Species? {
        try row.withUnsafeData(atIndex: index) { data in
            data.flatMap { data in data.withUnsafeBytes { Self.lookup($0, in: Self.species) } }
        }
    }

    private static func lookup<T>(_ bytes: UnsafeRawBufferPointer?, in table: [([UInt8], T)]) -> T? {
        guard let bytes else { return nil }
        return table.first { $0.0.count == bytes.count && $0.0.elementsEqual(bytes) }?.1
    }

    func uuid(_ row: RawRow, _ column: Int32, _ name: String) throws -> UUID {
        guard let bytes = row.bytes(column), let uuid = UUIDText.parse(utf8: bytes) else {
            throw StoreCorruption(column: "appointment.\(name)", reason: "not a UUID")
        }
        return uuid
    }

    func appointment(_ row: RawRow) throws -> AppointmentRecord {
        let (time, buffer) = try AppointmentRows.time(
            startMilliseconds: row.int64(6), endMilliseconds: row.int64(7), occupiedEndMilliseconds: row.int64(8))
        guard let status = Self.lookup(row.bytes(9), in: Self.statuses) else {
            throw StoreCorruption(column: "appointment.status", reason: "not a status")
        }
        let roomID = row.isNull(5) ? nil : Identifier<Room>(try uuid(row, 5, "room_id"))
        let actual = row.optionalInt64(13).map { Int(clamping: $0) }
        let appointment = Appointment(
            id: Identifier(try uuid(row, 0, "id")), practiceID: practiceID, patientID: try uuid(row, 1, "patient_id"),
            clinicianID: try uuid(row, 2, "clinician_id"),
            appointmentTypeID: Identifier(try uuid(row, 3, "appointment_type_id")),
            roomType: Self.lookup(row.bytes(4), in: Self.roomTypes), roomID: roomID, time: time,
            bufferAfterMinutes: buffer, status: status,
            checkedInAt: row.optionalInt64(10).map(Timestamp.date(milliseconds:)),
            startedAt: row.optionalInt64(11).map(Timestamp.date(milliseconds:)),
            completedAt: row.optionalInt64(12).map(Timestamp.date(milliseconds:)),
            actualMinutes: actual)
        return AppointmentRecord(
            appointment, species: Self.lookup(row.bytes(16), in: Self.species),
            bookedAt: row.bytes(14).flatMap(Timestamp.date(utf8:)),
            cancelledAt: row.optionalInt64(15).map(Timestamp.date(milliseconds:)))
    }
}
