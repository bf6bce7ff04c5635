import Analytics
import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// How many analytics versions back the removals of `analytics_change` are kept (pg-8).
    static let keptAnalyticsVersions: Int64 = 100_000

    /// What changed in the practice's records since `version`, within what `window` covers,
    /// with the version the records are at now, read in one REPEATABLE READ snapshot: the
    /// appointments written since (their `analytics_stamp` is above the version), the
    /// appointments removed and the triage arrivals written or removed since
    /// (`analytics_change`), and the first visit of every patient concerned.
    ///
    /// `nil` when the changes cannot be told and the window must be read afresh: the
    /// configuration changed, more than `limit` rows changed (reading the window is then as
    /// cheap), or the version is older than the removals kept.
    ///
    /// Not audited: the caller records the read of the practice's data it serves.
    public func practiceHistoryChanges(
        scope: AccessScope, window: HistoryWindow, since version: AnalyticsDataVersion,
        limit: Int
    ) async throws -> (changes: HistoryChanges, version: AnalyticsDataVersion)? {
        let practice = scope.practiceID.rawValue
        let since = version.analytics
        let limit = Int64(min(max(0, limit), 50_000))
        return try await snapshot(scope.practiceID) {
            connection -> (changes: HistoryChanges, version: AnalyticsDataVersion)? in
            let now = try await self.analyticsDataVersion(practiceID: scope.practiceID, connection: connection)
            guard now.configuration == version.configuration, now.analytics >= since,
                now.analytics - since <= Self.keptAnalyticsVersions
            else { return nil }
            guard now.analytics > since else { return (HistoryChanges(), now) }
            // A version moves once per writing transaction, so the rows are counted.
            for try await count in try await connection.query(
                """
                SELECT (SELECT count(*) FROM (SELECT 1 FROM appointment WHERE practice_id = \(practice)
                    AND analytics_stamp > \(since)
                                              LIMIT \(limit + 1)) AS written)
                     + (SELECT count(*) FROM (SELECT 1 FROM analytics_change WHERE practice_id = \(practice)
                         AND stamp > \(since)
                                              LIMIT \(limit + 1)) AS removed)
                """, logger: logger
            ).decode(Int64.self) where count > limit { return nil }
            return (
                try await self.historyChanges(
                    practiceID: scope.practiceID, window: window, since: since, connection: connection), now
            )
        }
    }

    private func historyChanges(
        practiceID: PracticeID, window: HistoryWindow, since: Int64, connection: PostgresConnection
    ) async throws -> HistoryChanges {
        let practice = practiceID.rawValue
        let bounds = HistoryWindowBounds(window)
        var changes = HistoryChanges()

        // Appointments written since: each goes out of the index, and comes back in its current form if the window
        // covers it.
        let written = try await connection.query(
            """
            SELECT \(unescaped: Self.historyColumns) FROM appointment a LEFT JOIN patient p ON p.id = a.patient_id
            WHERE a.practice_id = \(practice) AND a.analytics_stamp > \(since)
            """, logger: logger)
        for try await row in written {
            let record = try Self.historyRecord(from: row.makeRandomAccess())
            let appointment = record.appointment
            if bounds.appointment(
                startMs: Timestamp.milliseconds(appointment.time.start), completed: appointment.status == .completed)
            {
                changes.appointments.append(record)
            } else {
                changes.removedAppointments.append(appointment.id.rawValue)
            }
            changes.patientsConcerned.insert(appointment.patientID)
        }

        // Appointments removed, and arrivals written or removed, since.
        var arrivalKeys: Set<HistoryChanges.ArrivalKey> = []
        for try await (appointment, patient, arrival) in try await connection.query(
            """
            SELECT appointment_id, patient_id,
                arrival_at_ms FROM analytics_change WHERE practice_id = \(practice) AND stamp > \(since)
            """, logger: logger
        ).decode((UUID?, UUID, Int64?).self) {
            if let appointment {
                changes.removedAppointments.append(appointment)
                changes.patientsConcerned.insert(patient)
            } else if let arrival {
                arrivalKeys.insert(
                    HistoryChanges.ArrivalKey(patientID: patient, arrival: Timestamp.date(milliseconds: arrival)))
            }
        }
        if !arrivalKeys.isEmpty {
            // Each goes out; the current form of those still there that the window covers comes back.
            changes.removedArrivals = Array(arrivalKeys)
            if try await arrivalsExist(connection) {
                let patients = arrivalKeys.map(\.patientID)
                let times = arrivalKeys.map { Timestamp.milliseconds($0.arrival) }
                let rows = try await connection.query(
                    """
                    SELECT \(unescaped: Self.arrivalColumns)
                    FROM unnest(\(patients)::uuid[], \(times)::bigint[]) AS k(patient_id, arrival_at_ms)
                    JOIN triage_arrival t ON t.practice_id = \(practice) AND t.patient_id = k.patient_id
                        AND t.arrival_at_ms = k.arrival_at_ms
                    LEFT JOIN patient p ON p.id = t.patient_id
                    """, logger: logger)
                for try await row in rows {
                    let arrival = try Self.arrival(from: row)
                    if bounds.arrival(atMs: Timestamp.milliseconds(arrival.arrival)) {
                        changes.arrivals.append(arrival)
                    }
                }
            }
        }

        // First visits of the patients concerned, as the full read states them: the earliest
        // attended appointment before the cutoff or among those the window loads.
        if !changes.patientsConcerned.isEmpty {
            let cutoff = window.firstVisitCutoff.map(Timestamp.milliseconds)
            let rows = try await connection.query(
                """
                SELECT a.patient_id, min(a.start_ms) FROM appointment a
                WHERE a.practice_id = \(practice) AND a.patient_id = ANY(\(Array(changes.patientsConcerned))::uuid[])
                  AND a.status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isAttended)))
                  AND (a.start_ms < \(cutoff)::bigint
                       OR EXISTS (SELECT 1 FROM unnest(\(bounds.starts)::bigint[], \(bounds.ends)::bigint[],
                           \(bounds.completedOnly)::boolean[])
                                      AS s(lo, hi, completed_only)
                                  WHERE a.start_ms >= s.lo AND a.start_ms < s.hi AND (NOT s.completed_only
                                      OR a.status = 'completed')))
                GROUP BY a.patient_id
                """, logger: logger)
            for try await (patient, start) in rows.decode((UUID, Int64).self) {
                changes.firstVisits[patient] = Timestamp.date(milliseconds: start)
            }
        }
        return changes
    }
}
