import Foundation
import GRDB
import Scheduling
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Intake rankings and booking bases

    /// The basis of a booking made from `assessmentID`: the assessment must be this patient's in
    /// this practice (otherwise `assessmentId` is named, 422).
    static func bookingBasis(db: Database, scope: AccessScope, patientID: UUID, clinicianID: UUID, assessmentID: UUID)
        throws -> BookingBasis
    {
        let level = try Int.fetchOne(
            db, sql: "SELECT level FROM triage_assessment WHERE id = ? AND practice_id = ? AND patient_id = ?",
            arguments: [text(assessmentID), scope.practiceID.description, text(patientID)])
        let json = try String.fetchOne(
            db, sql: "SELECT ranking FROM intake_ranking WHERE id = ? AND practice_id = ?",
            arguments: [text(assessmentID), scope.practiceID.description])
        let ranked =
            try json.map {
                try StoreCorruption.decoded([RankedCandidate].self, from: $0, column: "intake_ranking.ranking")
            }
            ?? []
        return try BookingBasis.booking(clinicianID, assessmentID: assessmentID, triageLevel: level, ranked: ranked)
    }

    // MARK: - Reading

    /// One appointment with its reason, staff notes, intake basis and visit (another practice's is not found).
    public func appointmentDetails(scope: AccessScope, id: Identifier<Appointment>) async throws -> AppointmentDetails {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Self.detailColumns) FROM appointment a WHERE a.id = ? AND a.practice_id = ?",
                arguments: [id.description, scope.practiceID.description])
            let row = try rows.first.orNotFound("appointment")
            return try AppointmentRows.details(from: row)
        }
    }

    /// A patient's appointments, past and future, newest first; `before` is the id of the last
    /// appointment of the previous page. Another practice's patient is not found. Audited as a
    /// read of the patient's record.
    public func patientAppointments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: String?)
        async throws -> PatientAppointments
    {
        let now = clock.now()
        return try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID)
            var sql = "SELECT \(Self.detailColumns) FROM appointment a WHERE a.practice_id = ? AND a.patient_id = ?"
            var arguments: StatementArguments = [scope.practiceID.description, Self.text(patientID)]
            if let cursor {
                // The page continues below the cursor's (start, id), the order of the listing.
                let id = try Self.cursorRow(cursor, in: "appointment", db: db, scope: scope, patientID: patientID)
                sql += " AND (a.start_ms, a.id) < (SELECT start_ms, id FROM appointment WHERE id = ?)"
                arguments += [id]
            }
            let rows = try Row.fetchAll(
                db, sql: sql + " ORDER BY a.start_ms DESC, a.id DESC LIMIT ?", arguments: arguments + [limit + 1])
            let page = Page(fetched: try rows.map(AppointmentRows.details(from:)), limit: limit) {
                $0.appointment.value.id.description
            }
            let lastSeen = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(AppointmentRows.selectList()) FROM appointment WHERE practice_id = ? AND patient_id = ?
                      AND status IN (\(AppointmentStatus.sqlList(where: \.isAttended))) AND start_ms <= ?
                          ORDER BY start_ms DESC LIMIT 1
                    """, arguments: [scope.practiceID.description, Self.text(patientID), Timestamp.milliseconds(now)]
            ).map(AppointmentRows.appointment(from:))
            let next = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(AppointmentRows.selectList()) FROM appointment WHERE practice_id = ? AND patient_id = ?
                      AND status IN (\(AppointmentStatus.sqlList(where: \.isAwaitingVisit))) AND start_ms > ?
                          ORDER BY start_ms LIMIT 1
                    """, arguments: [scope.practiceID.description, Self.text(patientID), Timestamp.milliseconds(now)]
            ).map(AppointmentRows.appointment(from:))
            try self.appendAudit(
                AuditRecord.patientAppointmentsRead(patientID, results: page.items.count), scope: scope, db: db)
            return PatientAppointments(page: page, lastSeen: lastSeen, next: next)
        }
    }

    // MARK: - Writing

    /// Changes an appointment's booking reason and staff notes under optimistic concurrency
    /// (audited). `nil` leaves a field as it is; an empty text clears it.
    public func updateAppointmentNotes(
        scope: AccessScope, id: Identifier<Appointment>, reason: String?, staffNotes: String?,
        expectedVersion: Int?
    ) async throws -> AppointmentDetails {
        try await write { db in
            let change = try AppointmentNotesChange.decide(
                reason: reason, staffNotes: staffNotes,
                current: try Self.appointment(db: db, practiceID: scope.practiceID, id: id.description),
                expectedVersion: expectedVersion, scope: scope, now: self.clock.now())
            var assignments: [String] = []
            var arguments: StatementArguments = []
            if change.setsReason {
                assignments.append("reason = ?")
                arguments += [change.reason]
            }
            if change.setsStaffNotes {
                assignments.append("staff_notes = ?")
                arguments += [change.staffNotes]
            }
            try db.execute(
                sql:
                    """
                    UPDATE appointment SET \(assignments.joined(separator: ", ")), version = version + 1 WHERE id = ? \
                    AND practice_id = ?
                    """,
                arguments: arguments + [id.description, scope.practiceID.description])
            try self.appendAudit(change.audit, scope: scope, db: db)
            try self.appendEvent(change.event, scope: scope, db: db)
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Self.detailColumns) FROM appointment a WHERE a.id = ? AND a.practice_id = ?",
                arguments: [id.description, scope.practiceID.description])
            let row = try rows.first.orNotFound("appointment")
            return try AppointmentRows.details(from: row)
        }
    }

    // MARK: - Rows

    /// ``AppointmentRows/columns`` followed by its ``AppointmentRows/detailColumns``, from
    /// `appointment a`.
    static let detailColumns =
        AppointmentRows.selectList(prefix: "a.") + ", a.reason, a.staff_notes, a.match_basis, a.assessment_id, "
        + "a.triage_level, (SELECT v.id FROM visit v WHERE v.appointment_id = a.id) AS visit_id"
}
