import Analytics
import Foundation
import GRDB
import GRDBSQLite
import Scheduling
import SharedKernel
import StoragePorts
import Triage

extension VetNetStore {
    /// What changed in the scope's practice's records since `version`, within what `window`
    /// covers (see ``HistoryChanges``), with the version the records are at now, read in one
    /// snapshot: the rows written since (found by their change stamp, `analytics_seq`), the
    /// rows removed since (`analytics_removal`) and the first visit of every patient concerned.
    ///
    /// `nil` when the changes cannot be told from the stamps and the window must be read
    /// afresh: the configuration changed, or more than `limit` writes were made since (reading
    /// the window is then as cheap, and removals that old are no longer kept).
    ///
    /// Not audited: the caller records the read of the practice's data it serves.
    public func practiceHistoryChanges(
        scope: AccessScope, window: HistoryWindow, since version: AnalyticsDataVersion,
        limit: Int = 20_000
    ) async throws -> (changes: HistoryChanges, version: AnalyticsDataVersion)? {
        try await writer.read { db in
            let now = try Self.analyticsDataVersion(db: db, practiceID: scope.practiceID)
            guard now.configuration == version.configuration, now.analytics >= version.analytics,
                now.analytics - version.analytics <= Int64(min(max(0, limit), 50_000))
            else { return nil }
            guard now.analytics > version.analytics else { return (HistoryChanges(), now) }
            return (
                try Self.historyChanges(db: db, practiceID: scope.practiceID, window: window, since: version.analytics),
                now
            )
        }
    }

    static func historyChanges(db: Database, practiceID: PracticeID, window: HistoryWindow, since: Int64) throws
        -> HistoryChanges
    {
        let practice = practiceID.description
        var changes = HistoryChanges()
        let decoder = HistoryRowDecoder(practiceID: practiceID)
        let covered = HistoryWindowBounds(window)

        // Appointments written since: each goes out of the index, and comes back in its current form if the window
        // covers it.
        let statement = try db.cachedStatement(
            sql: """
                SELECT a.id, a.patient_id, a.clinician_id, a.appointment_type_id, a.room_type, a.room_id, a.start_ms,
                    a.end_ms,
                       a.occupied_end_ms, a.status, a.checked_in_at_ms, a.started_at_ms, a.completed_at_ms,
                           a.actual_minutes,
                       a.created_at, a.cancelled_at_ms, a.patient_species
                FROM appointment a WHERE a.practice_id = ? AND a.analytics_seq > ?
                """)
        try statement.setArguments([practice, since])
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: "reading changed appointments failed")
            }
            let row = RawRow(handle: handle)
            let completed = row.bytes(9).map { $0.elementsEqual("completed".utf8) } ?? false
            if covered.appointment(startMs: row.int64(6), completed: completed) {
                let record = try decoder.appointment(row)
                changes.appointments.append(record)
                changes.patientsConcerned.insert(record.appointment.patientID)
            } else {
                changes.removedAppointments.append(try decoder.uuid(row, 0, "id"))
                changes.patientsConcerned.insert(try decoder.uuid(row, 1, "patient_id"))
            }
        }

        // Rows removed since.
        let removals = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT appointment_id, patient_id,
                        arrival_at_ms FROM analytics_removal WHERE practice_id = ? AND seq > ?
                    """), arguments: [practice, since])
        while let row = try removals.next() {
            let patient = try decoder.uuid(row, 1, "analytics_removal.patient_id")
            if row.hasNull(atIndex: 0) {
                guard let arrival: Int64 = try row.read(at: 2) else { continue }
                changes.removedArrivals.append(
                    HistoryChanges.ArrivalKey(patientID: patient, arrival: Timestamp.date(milliseconds: arrival)))
            } else {
                changes.removedAppointments.append(try decoder.uuid(row, 0, "analytics_removal.appointment_id"))
                changes.patientsConcerned.insert(patient)
            }
        }

        // Triage arrivals written since (a corrected species stamps the patient's arrivals too).
        let arrivals = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT t.patient_id, t.level, t.arrival_at_ms, t.first_seen_at_ms, p.species, t.left_at_ms
                    FROM triage_arrival t JOIN patient p ON p.id = t.patient_id
                    WHERE t.practice_id = ? AND t.analytics_seq > ?
                    """), arguments: [practice, since])
        while let row = try arrivals.next() {
            let patient = try decoder.uuid(row, 0, "triage_arrival.patient_id")
            let arrivalMs: Int64 = try row.read(at: 2)
            let arrival = Timestamp.date(milliseconds: arrivalMs)
            guard covered.arrival(atMs: arrivalMs) else {
                changes.removedArrivals.append(HistoryChanges.ArrivalKey(patientID: patient, arrival: arrival))
                continue
            }
            let level = try AssessmentRows.level(try row.read(at: 1), column: "triage_arrival.level")
            let seen: Int64? = try row.read(at: 3)
            changes.arrivals.append(
                TriageArrival(
                    patientID: patient, level: level, arrival: arrival,
                    firstSeenAt: seen.map(Timestamp.date(milliseconds:)), species: try decoder.species(row, 4),
                    leftAt: (try row.read(at: 5) as Int64?).map(Timestamp.date(milliseconds:))))
        }

        // First visits of the patients concerned, as the full read states them: the earliest
        // attended appointment before the cutoff or among those the window loads.
        if !changes.patientsConcerned.isEmpty {
            var terms: [String] = []
            var bounds: [Int64] = []
            if let cutoff = window.firstVisitCutoff {
                terms.append("start_ms < ?")
                bounds.append(Timestamp.milliseconds(cutoff))
            }
            for stretch in covered.stretches {
                terms.append(
                    "(start_ms >= ? AND start_ms < ?\(stretch.completedOnly ? " AND status = 'completed'" : ""))")
                bounds += [stretch.start, stretch.end]
            }
            if !terms.isEmpty {
                let first = try db.cachedStatement(
                    sql: """
                        SELECT MIN(start_ms) FROM appointment
                        WHERE practice_id = ? AND patient_id = ?
                            AND status IN (\(AppointmentStatus.sqlList(where: \.isAttended)))
                          AND (\(terms.joined(separator: " OR ")))
                        """)
                for patient in changes.patientsConcerned {
                    let arguments = StatementArguments([practice, Self.text(patient)]) + StatementArguments(bounds)
                    if let start = try Int64.fetchOne(first, arguments: arguments) {
                        changes.firstVisits[patient] = Timestamp.date(milliseconds: start)
                    }
                }
            }
        }
        return changes
    }
}
