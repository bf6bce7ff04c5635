import Foundation
import SharedKernel
import Triage

/// Reading a stored triage assessment, override, board entry or triaged arrival back, as both
/// stores do: the level a column holds must be a VTL level, and the sealed text must open under
/// the row's id; either failing names the column instead of showing a patient at another
/// urgency.
public enum AssessmentRows {
    /// The VTL level stored in `column`.
    public static func level(_ value: Int, column: String) throws -> TriageLevel {
        guard let level = TriageLevel(rawValue: value) else {
            throw StoreCorruption(column: column, reason: "not a VTL level")
        }
        return level
    }

    /// The columns ``assessment(from:seal:overrides:)`` reads, as a select list.
    public static let assessmentColumns =
        "id, patient_id, assessor_id, arrival_at_ms, assessed_at_ms, level, rules_version, result_json"

    /// The columns ``exported(from:seal:)`` reads: an assessment's, and its sealed case.
    public static let exportedColumns = assessmentColumns + ", case_json"

    /// The columns ``override(from:seal:)`` reads, with the practice whose key sealed it.
    public static let overrideColumns = """
        id, assessment_id, computed_level, previous_level, level, reason, overridden_by, overridden_at_ms, \
        lowers_red_finding, practice_id
        """

    /// The columns ``exportedArrival(from:)`` reads.
    public static let arrivalColumns = "patient_id, arrival_at_ms, level, first_seen_at_ms, left_at_ms"

    /// An assessment from its row (``assessmentColumns``): times in milliseconds, the result
    /// sealed under the assessment's id.
    public static func assessment(from row: some StoredRow, seal: FieldSeal, overrides: [TriageOverride] = [])
        throws -> StoredAssessment
    {
        let columns = StoredColumns(row, table: "triage_assessment")
        let id = try columns.uuid("id")
        let result = try seal.open(try columns.text("result_json"), .triageResult, id: UUIDText.lowercase(id))
        return StoredAssessment(
            id: Identifier(id), patientID: try columns.uuid("patient_id"),
            assessorID: try columns.optionalText("assessor_id"),
            arrival: Timestamp.date(milliseconds: try columns.integer("arrival_at_ms")),
            assessedAt: Timestamp.date(milliseconds: try columns.integer("assessed_at_ms")),
            level: try level(in: columns, "level"), rulesVersion: try columns.text("rules_version"),
            resultJSON: Data(result.utf8), overrides: overrides)
    }

    /// An assessment as an export carries it (``exportedColumns``): its case and result opened.
    public static func exported(from row: some StoredRow, seal: FieldSeal) throws -> ExportedAssessment {
        let columns = StoredColumns(row, table: "triage_assessment")
        return try ExportedAssessment(
            id: try columns.uuid("id"), patientID: try columns.uuid("patient_id"),
            assessorID: try columns.optionalText("assessor_id"),
            arrivalAt: PracticeExport.instant(milliseconds: try columns.integer("arrival_at_ms")),
            assessedAt: PracticeExport.instant(milliseconds: try columns.integer("assessed_at_ms")),
            level: try level(in: columns, "level").rawValue, rulesVersion: try columns.text("rules_version"),
            sealed: SealedAssessmentText(
                caseText: try columns.text("case_json"), resultText: try columns.text("result_json")),
            seal: seal)
    }

    /// An override from its row (``overrideColumns``): three levels, the reason sealed under
    /// the override's id with the key of the practice `seal` names.
    public static func override(from row: some StoredRow, seal: (PracticeID) -> FieldSeal) throws -> TriageOverride {
        let columns = StoredColumns(row, table: "triage_override")
        let id = try columns.uuid("id")
        let practiceSeal = seal(PracticeID(try columns.uuid("practice_id")))
        return TriageOverride(
            id: Identifier(id), assessmentID: Identifier(try columns.uuid("assessment_id")),
            computedLevel: try level(in: columns, "computed_level"),
            previousLevel: try level(in: columns, "previous_level"), level: try level(in: columns, "level"),
            reason: try practiceSeal.open(
                try columns.text("reason"), .triageOverrideReason, id: UUIDText.lowercase(id)),
            overriddenBy: try columns.text("overridden_by"),
            overriddenAt: Timestamp.date(milliseconds: try columns.integer("overridden_at_ms")),
            lowersRedFinding: try columns.bool("lowers_red_finding"))
    }

    /// A triaged arrival as an export carries it (``arrivalColumns``).
    public static func exportedArrival(from row: some StoredRow) throws -> ExportedTriageArrival {
        let columns = StoredColumns(row, table: "triage_arrival")
        return ExportedTriageArrival(
            patientID: UUIDText.lowercase(try columns.uuid("patient_id")),
            arrivalAt: PracticeExport.instant(milliseconds: try columns.integer("arrival_at_ms")),
            level: try level(in: columns, "level").rawValue,
            firstSeenAt: try columns.optionalInteger("first_seen_at_ms").map(PracticeExport.instant(milliseconds:)),
            leftAt: try columns.optionalInteger("left_at_ms").map(PracticeExport.instant(milliseconds:)))
    }

    /// The VTL level in `column` of the row `columns` reads.
    private static func level(in columns: StoredColumns<some StoredRow>, _ column: StoredColumn) throws
        -> TriageLevel
    {
        try level(try columns.int(column), column: columns.name(column))
    }

    /// A triage board entry from its row in `table` (each store names its board table its own
    /// way): its assessment, patient, level, times, status, the override it shows (sealed under
    /// the patient's id with the key of the row's `practice_id`) and what it has announced.
    public static func queueEntry(from row: some StoredRow, table: String, seal: (PracticeID) -> FieldSeal) throws
        -> QueueEntry
    {
        let columns = StoredColumns(row, table: table)
        let patientID = try columns.uuid("patient_id")
        return QueueEntry(
            assessmentID: Identifier(try columns.uuid("assessment_id")), patientID: patientID,
            level: try level(in: columns, "level"),
            arrival: Timestamp.date(milliseconds: try columns.integer("arrival_at_ms")),
            assessedAt: Timestamp.date(milliseconds: try columns.integer("assessed_at_ms")),
            status: try columns.word("status"),
            statusChangedAt: Timestamp.date(milliseconds: try columns.integer("status_changed_at_ms")),
            override: try columns.optionalText("override_json").map {
                try boardOverride(
                    sealed: $0, patientID: patientID, seal: seal(PracticeID(try columns.uuid("practice_id"))),
                    column: columns.name("override_json"))
            },
            overdueAnnounced: try columns.bool("overdue_announced"),
            reassessmentAnnounced: try columns.bool("reassessment_announced"))
    }

    /// The override a board entry shows, kept whole as sealed JSON under the patient's id;
    /// `column` names where it is kept when it does not read.
    public static func boardOverride(sealed: String, patientID: UUID, seal: FieldSeal, column: String) throws
        -> TriageOverride
    {
        let text = try seal.open(sealed, .queueOverride, id: UUIDText.lowercase(patientID))
        do { return try TriageOverride(storedJSON: Data(text.utf8)) } catch {
            throw StoreCorruption(column: column, reason: "not an override")
        }
    }

    /// An override's reason as both stores keep it, sealed under the override's id.
    public static func sealedReason(of override: TriageOverride, seal: FieldSeal) throws -> String {
        try seal.seal(override.reason, .triageOverrideReason, id: override.id.description)
    }
}
