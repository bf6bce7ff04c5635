import Foundation
import Scheduling
import SharedKernel

/// Reading a stored appointment back, as every store and reader does.
public enum AppointmentRows {
    /// The appointment's time and the buffer after it, from its stored start, end and end of
    /// the time it occupies (milliseconds since 1970): refused naming `appointment.end_ms` when
    /// it does not end after it starts, or its occupied time ends before it does.
    public static func time(startMilliseconds: Int64, endMilliseconds: Int64, occupiedEndMilliseconds: Int64) throws
        -> (time: TimeRange, bufferAfterMinutes: Int)
    {
        guard
            let time = TimeRange(
                start: Timestamp.date(milliseconds: startMilliseconds),
                end: Timestamp.date(milliseconds: endMilliseconds)),
            occupiedEndMilliseconds >= endMilliseconds
        else {
            throw StoreCorruption(column: "appointment.end_ms", reason: "does not end after it starts")
        }
        return (time, Int(clamping: (occupiedEndMilliseconds - endMilliseconds) / 60_000))
    }
}

extension AppointmentRows {
    /// Each column the readers read, at its position in every select list: the appointment's
    /// own, then what its details add. The select lists are made from these lists, and
    /// `StoredRowTests` holds each position to its place in them.
    enum Column {
        static let id = StoredColumn("id", at: 0)
        static let practiceID = StoredColumn("practice_id", at: 1)
        static let patientID = StoredColumn("patient_id", at: 2)
        static let clinicianID = StoredColumn("clinician_id", at: 3)
        static let appointmentTypeID = StoredColumn("appointment_type_id", at: 4)
        static let roomType = StoredColumn("room_type", at: 5)
        static let roomID = StoredColumn("room_id", at: 6)
        static let startMS = StoredColumn("start_ms", at: 7)
        static let endMS = StoredColumn("end_ms", at: 8)
        static let occupiedEndMS = StoredColumn("occupied_end_ms", at: 9)
        static let status = StoredColumn("status", at: 10)
        static let checkedInAtMS = StoredColumn("checked_in_at_ms", at: 11)
        static let startedAtMS = StoredColumn("started_at_ms", at: 12)
        static let completedAtMS = StoredColumn("completed_at_ms", at: 13)
        static let actualMinutes = StoredColumn("actual_minutes", at: 14)
        static let cancellationReason = StoredColumn("cancellation_reason", at: 15)
        static let version = StoredColumn("version", at: 16)
        static let reason = StoredColumn("reason", at: 17)
        static let staffNotes = StoredColumn("staff_notes", at: 18)
        static let matchBasis = StoredColumn("match_basis", at: 19)
        static let assessmentID = StoredColumn("assessment_id", at: 20)
        static let triageLevel = StoredColumn("triage_level", at: 21)
        static let visitID = StoredColumn("visit_id", at: 22)

        /// The appointment's own columns, in position order.
        static let appointment = [
            id, practiceID, patientID, clinicianID, appointmentTypeID, roomType, roomID, startMS, endMS, occupiedEndMS,
            status, checkedInAtMS, startedAtMS, completedAtMS, actualMinutes, cancellationReason, version,
        ]
        /// What its details add, in position order.
        static let details = [reason, staffNotes, matchBasis, assessmentID, triageLevel, visitID]
    }

    /// The columns ``appointment(from:)`` reads, in the order every select list names them.
    public static let columns = Column.appointment.map(\.name)

    /// The columns ``details(from:)`` reads after ``columns``.
    public static let detailColumns = Column.details.map(\.name)

    /// ``columns`` as a select list, each name after `prefix` (a table alias and its dot).
    public static func selectList(prefix: String = "") -> String {
        columns.map { prefix + $0 }.joined(separator: ", ")
    }

    /// The appointment in `row` (its ``columns``), and its version.
    public static func appointment(from row: some StoredRow) throws -> Versioned<Appointment> {
        let columns = StoredColumns(row, table: "appointment")
        let (time, buffer) = try time(
            startMilliseconds: try columns.integer(Column.startMS), endMilliseconds: try columns.integer(Column.endMS),
            occupiedEndMilliseconds: try columns.integer(Column.occupiedEndMS))
        let appointment = Appointment(
            id: Identifier(try columns.uuid(Column.id)), practiceID: PracticeID(try columns.uuid(Column.practiceID)),
            patientID: try columns.uuid(Column.patientID), clinicianID: try columns.uuid(Column.clinicianID),
            appointmentTypeID: Identifier(try columns.uuid(Column.appointmentTypeID)),
            roomType: try columns.optionalWord(Column.roomType),
            roomID: try columns.optionalUUID(Column.roomID).map(Identifier.init), time: time,
            bufferAfterMinutes: buffer, status: try columns.word(Column.status),
            checkedInAt: try columns.optionalInstant(Column.checkedInAtMS),
            startedAt: try columns.optionalInstant(Column.startedAtMS),
            completedAt: try columns.optionalInstant(Column.completedAtMS),
            actualMinutes: try columns.optionalInt(Column.actualMinutes),
            cancellationReason: try columns.optionalText(Column.cancellationReason))
        return Versioned(appointment, version: try columns.int(Column.version))
    }

    /// The appointment in `row` with what staff read about it (its ``columns`` and
    /// ``detailColumns``). A booking basis whose JSON the domain cannot read still says which
    /// assessment and level it came from; with neither, the row is refused.
    public static func details(from row: some StoredRow) throws -> AppointmentDetails {
        let columns = StoredColumns(row, table: "appointment")
        let assessment = try columns.optionalUUID(Column.assessmentID)
        let level = try columns.optionalInt(Column.triageLevel)
        var basis: BookingBasis?
        if let json = try columns.optionalText(Column.matchBasis) {
            basis = try? JSONDecoder().decode(BookingBasis.self, from: Data(json.utf8))
            if basis == nil, assessment == nil || level == nil {
                throw StoreCorruption(column: "appointment.match_basis", reason: "not a stored BookingBasis")
            }
        }
        if basis == nil, let assessment, let level {
            basis = BookingBasis(assessmentID: assessment, triageLevel: level)
        }
        return AppointmentDetails(
            appointment: try appointment(from: row), reason: try columns.optionalText(Column.reason),
            staffNotes: try columns.optionalText(Column.staffNotes), basis: basis,
            visitID: try columns.optionalUUID(Column.visitID).map(UUIDText.lowercase))
    }
}
