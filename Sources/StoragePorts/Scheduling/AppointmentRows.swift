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
    /// The columns ``appointment(from:)`` reads, in the order every select list names them.
    public static let columns = [
        "id", "practice_id", "patient_id", "clinician_id", "appointment_type_id", "room_type", "room_id", "start_ms",
        "end_ms", "occupied_end_ms", "status", "checked_in_at_ms", "started_at_ms", "completed_at_ms",
        "actual_minutes", "cancellation_reason", "version",
    ]

    /// The columns ``details(from:)`` reads after ``columns``.
    public static let detailColumns = [
        "reason", "staff_notes", "match_basis", "assessment_id", "triage_level", "visit_id",
    ]

    /// ``columns`` then ``detailColumns``: where each stands in the rows the readers read.
    static let layout = ColumnLayout(columns + detailColumns)

    /// ``columns`` as a select list, each name after `prefix` (a table alias and its dot).
    public static func selectList(prefix: String = "") -> String {
        ColumnLayout(columns).selectList(prefix: prefix)
    }

    /// The appointment in `row` (its ``columns``), and its version.
    public static func appointment(from row: some StoredRow) throws -> Versioned<Appointment> {
        let columns = StoredColumns(row, table: "appointment", layout: layout)
        let (time, buffer) = try time(
            startMilliseconds: try columns.integer("start_ms"), endMilliseconds: try columns.integer("end_ms"),
            occupiedEndMilliseconds: try columns.integer("occupied_end_ms"))
        let appointment = Appointment(
            id: Identifier(try columns.uuid("id")), practiceID: PracticeID(try columns.uuid("practice_id")),
            patientID: try columns.uuid("patient_id"), clinicianID: try columns.uuid("clinician_id"),
            appointmentTypeID: Identifier(try columns.uuid("appointment_type_id")),
            roomType: try columns.optionalWord("room_type"),
            roomID: try columns.optionalUUID("room_id").map(Identifier.init), time: time,
            bufferAfterMinutes: buffer, status: try columns.word("status"),
            checkedInAt: try columns.optionalInstant("checked_in_at_ms"),
            startedAt: try columns.optionalInstant("started_at_ms"),
            completedAt: try columns.optionalInstant("completed_at_ms"),
            actualMinutes: try columns.optionalInt("actual_minutes"),
            cancellationReason: try columns.optionalText("cancellation_reason"))
        return Versioned(appointment, version: try columns.int("version"))
    }

    /// The appointment in `row` with what staff read about it (its ``columns`` and
    /// ``detailColumns``). A booking basis whose JSON the domain cannot read still says which
    /// assessment and level it came from; with neither, the row is refused.
    public static func details(from row: some StoredRow) throws -> AppointmentDetails {
        let columns = StoredColumns(row, table: "appointment", layout: layout)
        let assessment = try columns.optionalUUID("assessment_id")
        let level = try columns.optionalInt("triage_level")
        var basis: BookingBasis?
        if let json = try columns.optionalText("match_basis") {
            basis = try? JSONDecoder().decode(BookingBasis.self, from: Data(json.utf8))
            if basis == nil, assessment == nil || level == nil {
                throw StoreCorruption(column: "appointment.match_basis", reason: "not a stored BookingBasis")
            }
        }
        if basis == nil, let assessment, let level {
            basis = BookingBasis(assessmentID: assessment, triageLevel: level)
        }
        return AppointmentDetails(
            appointment: try appointment(from: row), reason: try columns.optionalText("reason"),
            staffNotes: try columns.optionalText("staff_notes"), basis: basis,
            visitID: try columns.optionalUUID("visit_id").map(UUIDText.lowercase))
    }
}
