import Analytics
import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists
import Triage

extension VetNetStore {
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
    public func practiceHistory(scope: AccessScope, window: HistoryWindow, action: String,
                                progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> PracticeHistory {
        let history = try await writer.read { db in
            try self.practiceHistory(db: db, practiceID: scope.practiceID, window: window, progress: progress)
        }
        let span = (window.appointmentRanges.first?.start).map { first in
            " from=\(Timestamp.string(first)) to=\(Timestamp.string(window.appointmentRanges.last?.end ?? first))"
        } ?? ""
        try await recordAudit(AuditRecord(action: action, resourceType: "practice", resourceID: scope.practiceID.description,
                                          detail: "appointments=\(history.appointments.count) arrivals=\(history.triageArrivals.count)" + span),
                              scope: scope)
        return history
    }

    func practiceHistory(db: Database, practiceID: PracticeID, window: HistoryWindow,
                         progress: (@Sendable (Int, Int) -> Void)?) throws -> PracticeHistory {
        let configuration = try schedulingConfiguration(db: db, practiceID: practiceID)
        let everyone = try Self.clinicians(db: db, practiceID: practiceID, includingInactive: true)
        let active = Set(everyone.filter(\.active).map(\.clinician.id))
        let availabilities = configuration.availabilities.values.map(\.value).filter { active.contains($0.clinicianID) }
            .sorted { $0.clinicianID < $1.clinicianID }

        // The stretches to read, in start order: whole appointments, and completed ones only
        // where the duration model's training history lies outside them.
        var stretches = window.appointmentRanges.map { (range: $0, completedOnly: false) }
        if let training = window.trainingRange {
            stretches += Self.subtract(window.appointmentRanges, from: training).map { (range: $0, completedOnly: true) }
        }
        stretches.sort { $0.range.start < $1.range.start }
        var total = 0
        if progress != nil {
            for stretch in stretches { total += try Self.countAppointments(db: db, practiceID: practiceID, stretch.range, completedOnly: stretch.completedOnly) }
            progress?(0, total)
        }
        var appointments: [AppointmentRecord] = []
        var decoder = HistoryRowDecoder(practiceID: practiceID)
        for stretch in stretches {
            try Self.readAppointments(db: db, practiceID: practiceID, stretch.range, completedOnly: stretch.completedOnly,
                                      decoder: &decoder, into: &appointments) { read in progress?(read, max(total, read)) }
        }
        progress?(appointments.count, max(total, appointments.count))

        var arrivals: [TriageArrival] = []
        for range in window.arrivalRanges {
            try Self.readArrivals(db: db, practiceID: practiceID, range, decoder: &decoder, into: &arrivals)
        }
        return PracticeHistory(practice: configuration.practice, appointmentTypes: configuration.types,
                               clinicians: everyone.map(\.clinician), availabilities: availabilities, rooms: configuration.rooms,
                               appointments: appointments, triageArrivals: arrivals,
                               firstVisits: try Self.firstVisits(db: db, practiceID: practiceID, before: window.firstVisitCutoff,
                                                                 loaded: appointments, decoder: &decoder),
                               openRequests: [])
    }

    /// The parts of `range` not covered by `covered` (sorted, disjoint).
    static func subtract(_ covered: [DateInterval], from range: DateInterval) -> [DateInterval] {
        var pieces: [DateInterval] = []
        var cursor = range.start
        for block in covered where block.end > cursor && block.start < range.end {
            if block.start > cursor { pieces.append(DateInterval(start: cursor, end: block.start)) }
            cursor = max(cursor, block.end)
        }
        if cursor < range.end { pieces.append(DateInterval(start: cursor, end: range.end)) }
        return pieces
    }

    private static func countAppointments(db: Database, practiceID: PracticeID, _ range: DateInterval, completedOnly: Bool) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM appointment WHERE practice_id = ? AND start_ms >= ? AND start_ms < ?\(completedOnly ? " AND status = 'completed'" : "")
            """), arguments: [practiceID.description, Timestamp.milliseconds(range.start), Timestamp.milliseconds(range.end)]) ?? 0
    }

    /// Appends the appointments starting in `range` (completed ones only if asked), by start.
    private static func readAppointments(db: Database, practiceID: PracticeID, _ range: DateInterval, completedOnly: Bool,
                                         decoder: inout HistoryRowDecoder, into records: inout [AppointmentRecord],
                                         progress: (Int) -> Void) throws {
        let statement = try db.cachedStatement(sql: """
            SELECT a.id, a.patient_id, a.clinician_id, a.appointment_type_id, a.room_type, a.room_id, a.start_ms, a.end_ms,
                   a.occupied_end_ms, a.status, a.checked_in_at_ms, a.started_at_ms, a.completed_at_ms, a.actual_minutes,
                   a.created_at, a.cancelled_at_ms, p.species
            FROM appointment a JOIN patient p ON p.id = a.patient_id
            WHERE a.practice_id = ? AND a.start_ms >= ? AND a.start_ms < ?\(completedOnly ? " AND a.status = 'completed'" : "")
            ORDER BY a.start_ms
            """)
        let rows = try Row.fetchCursor(statement, arguments: [practiceID.description, Timestamp.milliseconds(range.start),
                                                              Timestamp.milliseconds(range.end)])
        while let row = try rows.next() {
            records.append(try decoder.appointment(row))
            if records.count % 10_000 == 0 { progress(records.count) }
        }
    }

    /// Appends the triage arrivals in `range`, by arrival.
    private static func readArrivals(db: Database, practiceID: PracticeID, _ range: DateInterval, decoder: inout HistoryRowDecoder,
                                     into arrivals: inout [TriageArrival]) throws {
        let statement = try db.cachedStatement(sql: """
            SELECT t.patient_id, t.level, t.arrival_at_ms, t.first_seen_at_ms, p.species
            FROM triage_arrival t JOIN patient p ON p.id = t.patient_id
            WHERE t.practice_id = ? AND t.arrival_at_ms >= ? AND t.arrival_at_ms < ?
            ORDER BY t.arrival_at_ms
            """)
        let rows = try Row.fetchCursor(statement, arguments: [practiceID.description, Timestamp.milliseconds(range.start),
                                                              Timestamp.milliseconds(range.end)])
        while let row = try rows.next() {
            guard let level = TriageLevel(rawValue: row[1]) else {
                throw StoreCorruption(column: "triage_arrival.level", reason: "not a VTL level")
            }
            let seen: Int64? = row[3]
            arrivals.append(TriageArrival(patientID: try decoder.uuid(row, 0, "triage_arrival.patient_id"), level: level,
                                          arrival: Timestamp.date(milliseconds: row[2]), firstSeenAt: seen.map(Timestamp.date(milliseconds:)),
                                          species: try decoder.species(row, 4)))
        }
    }

    /// Each patient's first attended visit: the earliest before `cutoff` for those who came
    /// before it (one grouped scan of the visit index), else the earliest among `loaded`.
    private static func firstVisits(db: Database, practiceID: PracticeID, before cutoff: Date?, loaded: [AppointmentRecord],
                                    decoder: inout HistoryRowDecoder) throws -> [UUID: Date] {
        var first: [UUID: Date] = [:]
        if let cutoff {
            let statement = try db.cachedStatement(sql: """
                SELECT patient_id, MIN(start_ms) FROM appointment
                WHERE practice_id = ? AND start_ms < ? AND status IN ('checked_in', 'in_progress', 'completed')
                GROUP BY patient_id
                """)
            let rows = try Row.fetchCursor(statement, arguments: [practiceID.description, Timestamp.milliseconds(cutoff)])
            while let row = try rows.next() {
                first[try decoder.uuid(row, 0, "appointment.patient_id")] = Timestamp.date(milliseconds: row[1])
            }
        }
        for record in loaded {
            let status = record.appointment.status
            guard status == .checkedIn || status == .inProgress || status == .completed else { continue }
            let start = record.appointment.time.start
            if let known = first[record.appointment.patientID], known <= start { continue }
            first[record.appointment.patientID] = start
        }
        return first
    }
}

/// Decodes history rows straight from SQLite's bytes: a year of a busy practice is some
/// hundred thousand rows of five UUIDs each, and going through `String` for every one of them
/// was most of the read. Repeated ids (a handful of clinicians, types and rooms) are parsed once.
struct HistoryRowDecoder {
    let practiceID: PracticeID
    private var known: [Data: UUID] = [:]
    private static let statuses = AppointmentStatus.allCases.map { (Data($0.rawValue.utf8), $0) }
    private static let species = Species.allCases.map { (Data($0.rawValue.utf8), $0) }
    private static let roomTypes = RoomType.allCases.map { (Data($0.rawValue.utf8), $0) }

    init(practiceID: PracticeID) {
        self.practiceID = practiceID
    }

    /// A UUID column, parsed from its text without making a `String`.
    func uuid(_ row: Row, _ index: Int, _ column: String) throws -> UUID {
        let parsed = try row.withUnsafeData(atIndex: index) { data in
            data.flatMap { $0.withUnsafeBytes(UUIDText.parse(utf8:)) }
        }
        guard let parsed else { throw StoreCorruption(column: column, reason: "not a UUID") }
        return parsed
    }

    /// A UUID column that repeats across rows (clinician, type, room), parsed once per distinct value.
    mutating func repeatedUUID(_ row: Row, _ index: Int, _ column: String) throws -> UUID {
        let found = try row.withUnsafeData(atIndex: index) { data -> (UUID, Data?)? in
            guard let data else { return nil }
            if let uuid = known[data] { return (uuid, nil) }
            // The bytes belong to SQLite until the next step: copied before they are kept.
            return data.withUnsafeBytes(UUIDText.parse(utf8:)).map { ($0, Data(data.withUnsafeBytes { Array($0) })) }
        }
        guard let (uuid, newKey) = found else { throw StoreCorruption(column: column, reason: "not a UUID") }
        if let newKey { known[newKey] = uuid }
        return uuid
    }

    func species(_ row: Row, _ index: Int) throws -> Species? {
        try Self.lookup(row, index, in: Self.species)
    }

    /// The text column at `index` matched against `table`'s spellings; `nil` when NULL or unknown.
    private static func lookup<T>(_ row: Row, _ index: Int, in table: [(Data, T)]) throws -> T? {
        try row.withUnsafeData(atIndex: index) { data in
            guard let data else { return nil }
            return table.first { $0.0 == data }?.1
        }
    }

    mutating func appointment(_ row: Row) throws -> AppointmentRecord {
        let startMs: Int64 = row[6], endMs: Int64 = row[7], occupiedEnd: Int64 = row[8]
        guard let time = TimeRange(start: Timestamp.date(milliseconds: startMs), end: Timestamp.date(milliseconds: endMs)),
              occupiedEnd >= endMs else {
            throw StoreCorruption(column: "appointment.end_ms", reason: "does not end after it starts")
        }
        guard let status = try Self.lookup(row, 9, in: Self.statuses) else {
            throw StoreCorruption(column: "appointment.status", reason: "not a status")
        }
        let roomID = row.hasNull(atIndex: 5) ? nil : Identifier<Room>(try repeatedUUID(row, 5, "appointment.room_id"))
        let appointment = Appointment(
            id: Identifier(try uuid(row, 0, "appointment.id")), practiceID: practiceID,
            patientID: try uuid(row, 1, "appointment.patient_id"), clinicianID: try repeatedUUID(row, 2, "appointment.clinician_id"),
            appointmentTypeID: Identifier(try repeatedUUID(row, 3, "appointment.appointment_type_id")),
            roomType: try Self.lookup(row, 4, in: Self.roomTypes), roomID: roomID, time: time,
            bufferAfterMinutes: Int(clamping: (occupiedEnd - endMs) / 60_000), status: status,
            checkedInAt: (row[10] as Int64?).map(Timestamp.date(milliseconds:)),
            startedAt: (row[11] as Int64?).map(Timestamp.date(milliseconds:)),
            completedAt: (row[12] as Int64?).map(Timestamp.date(milliseconds:)),
            actualMinutes: row[13])
        let bookedAt = try row.withUnsafeData(atIndex: 14) { data in data.flatMap { $0.withUnsafeBytes(Timestamp.date(utf8:)) } }
        return AppointmentRecord(appointment, species: try species(row, 16), bookedAt: bookedAt,
                                 cancelledAt: (row[15] as Int64?).map(Timestamp.date(milliseconds:)))
    }
}
