import Foundation
import SharedKernel

// MARK: - Corrections

/// The kinds of entry a correction can name.
public enum RecordEntryKind: String, Codable, Sendable, CaseIterable {
    case weight, problem, allergy, medication, vaccination, note
}

/// A change to what the record says, kept as its own entry: nothing recorded is ever deleted.
///
/// A medicine stopped or given at a new dose, a problem resolved or reopened, an allergy
/// graded again or refuted, a vaccination's details corrected, or any entry marked as entered
/// in error: each is decided against the record as it stands (``decide(_:on:by:at:)``), kept in
/// order, and applied on every read (``MedicalRecord/applying(_:)``), so the record shows both
/// what was written and what was corrected, by whom, when and why.
public struct RecordCorrection: Codable, Hashable, Sendable {
    /// What is changed.
    public enum Change: Codable, Hashable, Sendable {
        /// The entry was wrong from the start: kept, shown struck through, left out of every
        /// calculation, chart and due list.
        case enteredInError(reason: String)
        /// A medicine is stopped on a day.
        case stopMedication(on: Date, reason: String)
        /// A medicine continues at a new dose, frequency or route from a day: the course so far
        /// ends that day and a new version (`newMedicationID`) starts with the new values.
        case changeMedication(
            from: Date, newMedicationID: UUID, doseMgPerKg: Decimal?, frequency: String?, route: Medication.Route?)
        /// A problem is resolved on a day.
        case resolveProblem(on: Date, note: String?)
        /// A resolved problem is active again.
        case reopenProblem(note: String?)
        /// An allergy's severity or reaction is corrected.
        case updateAllergy(severity: Allergy.Severity?, reaction: String?)
        /// An allergy was disproven (tested or tolerated): kept, shown refuted, no longer alerted.
        case refuteAllergy(reason: String)
        /// A vaccination's batch, date or next due date is corrected.
        case correctVaccination(batchNumber: String?, administeredDate: Date?, nextDueDate: Date?)

        /// The correction's name on the wire and in the trail.
        public var name: String {
            switch self {
            case .enteredInError: return "entered_in_error"
            case .stopMedication: return "stop"
            case .changeMedication: return "change"
            case .resolveProblem: return "resolve"
            case .reopenProblem: return "reopen"
            case .updateAllergy: return "update"
            case .refuteAllergy: return "refute"
            case .correctVaccination: return "correct"
            }
        }
    }

    /// The correction's id.
    public let id: UUID
    /// The patient.
    public let patientID: Identifier<Patient>
    /// The kind of entry corrected.
    public let entryKind: RecordEntryKind
    /// The entry corrected.
    public let entryID: UUID
    /// What changes.
    public let change: Change
    /// Who corrected it (their account id), `nil` for the system.
    public let recordedBy: String?
    /// When.
    public let recordedAt: Date

    /// Recreates a correction (for stores).
    public init(
        id: UUID, patientID: Identifier<Patient>, entryKind: RecordEntryKind, entryID: UUID, change: Change,
        recordedBy: String?,
        recordedAt: Date
    ) {
        self.id = id
        self.patientID = patientID
        self.entryKind = entryKind
        self.entryID = entryID
        self.change = change
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
    }

    /// The longest reason or note kept.
    public static let maximumTextLength = 1_000
}

/// An entry kept in the record though it no longer counts: entered in error, or an allergy refuted.
public struct RetractedMark: Codable, Hashable, Sendable {
    /// Why it no longer counts.
    public enum Kind: String, Codable, Sendable {
        case enteredInError = "entered_in_error"
        case refuted
    }

    /// Entered in error or refuted.
    public let kind: Kind
    /// Why, in the corrector's words.
    public let reason: String
    /// Who (account id).
    public let by: String?
    /// When.
    public let at: Date
}

// MARK: - Deciding

extension RecordCorrection {
    /// Decides a correction of `record` by `actor` at `now`, or throws the refusal naming the
    /// field: `DomainError.notFound` for an entry the record does not hold (or no longer counts),
    /// `DomainError.conflict` for a change the entry's state does not allow (stopping a stopped
    /// medicine, resolving a resolved problem), `ValidationError` for bad values.
    public static func decide(
        _ change: Change, entryKind: RecordEntryKind, entryID: UUID, on record: MedicalRecord, by actor: String?,
        at now: Date, id: UUID = UUID(), calendar: Calendar = RecordCalendar.utc
    ) throws -> RecordCorrection {
        var errors = FieldErrorCollector()
        func text(_ value: String?, _ field: String, required: Bool) {
            let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if required && trimmed.isEmpty { errors.add(field, "is required: say why") }
            if trimmed.count > maximumTextLength {
                errors.add(field, "must be at most \(maximumTextLength) characters")
            }
        }
        func notFuture(_ date: Date, _ field: String) {
            if calendar.startOfDay(for: date) > calendar.startOfDay(for: now) {
                errors.add(field, "must not be in the future")
            }
        }
        guard record.holds(entryKind, entryID) else { throw DomainError.notFound(resource: entryKind.rawValue) }
        switch (change, entryKind) {
        case (.enteredInError(let reason), _):
            text(reason, "reason", required: true)
        case (.stopMedication(let day, let reason), .medication):
            text(reason, "reason", required: true)
            notFuture(day, "date")
            let medication = record.medications.first { $0.id.rawValue == entryID }!
            if let end = medication.endDate, end <= day {
                throw DomainError.conflict("the medication is already stopped")
            }
            if calendar.startOfDay(for: day) < calendar.startOfDay(for: medication.startDate) {
                errors.add("date", "must not be before the medication started")
            }
        case (.changeMedication(let day, _, let dose, let frequency, let route), .medication):
            let medication = record.medications.first { $0.id.rawValue == entryID }!
            if dose == nil && frequency == nil && route == nil {
                errors.add("doseMgPerKg", "give the new dose, frequency or route")
            }
            if let end = medication.endDate, end <= day {
                throw DomainError.conflict("the medication has ended: prescribe it again instead")
            }
            if calendar.startOfDay(for: day) < calendar.startOfDay(for: medication.startDate) {
                errors.add("date", "must not be before the medication started")
            }
            if let frequency { text(frequency, "frequency", required: true) }
            var next = medication
            next.doseMgPerKg = dose ?? next.doseMgPerKg
            next.frequency = frequency ?? next.frequency
            next.route = route ?? next.route
            next.startDate = day
            do { try next.validate(birthDate: record.patient.birthDate, calendar: calendar) } catch {
                for e in error.errors { errors.add(e.field, e.message) }
            }
        case (.resolveProblem(let day, let note), .problem):
            text(note, "note", required: false)
            notFuture(day, "date")
            let problem = record.problems.first { $0.id.rawValue == entryID }!
            if problem.status == .resolved { throw DomainError.conflict("the problem is already resolved") }
            if let onset = problem.onsetDate, calendar.startOfDay(for: day) < calendar.startOfDay(for: onset) {
                errors.add("date", "must not be before the problem's onset")
            }
        case (.reopenProblem(let note), .problem):
            text(note, "note", required: false)
            if record.problems.first(where: { $0.id.rawValue == entryID })?.status != .resolved {
                throw DomainError.conflict("the problem is active: only a resolved problem is reopened")
            }
        case (.updateAllergy(let severity, let reaction), .allergy):
            if severity == nil && reaction == nil { errors.add("severity", "give the new severity or reaction") }
            text(reaction, "reaction", required: false)
        case (.refuteAllergy(let reason), .allergy):
            text(reason, "reason", required: true)
        case (.correctVaccination(let batch, let given, let nextDue), .vaccination):
            if batch == nil && given == nil && nextDue == nil {
                errors.add("batchNumber", "give the corrected batch, date or next due date")
            }
            let next = record.vaccinations.first { $0.id.rawValue == entryID }!
                .corrected(batchNumber: batch, administeredDate: given, nextDueDate: nextDue)
            do { try next.validate(now: now, birthDate: record.patient.birthDate, calendar: calendar) } catch {
                for e in error.errors { errors.add(e.field, e.message) }
            }
        default:
            errors.add("action", "'\(change.name)' does not apply to a \(entryKind.rawValue)")
        }
        try errors.throwIfAny()
        return RecordCorrection(
            id: id, patientID: record.patient.id, entryKind: entryKind, entryID: entryID, change: change,
            recordedBy: actor, recordedAt: now)
    }
}

// MARK: - Applying

extension MedicalRecord {
    /// Whether the record holds a counting entry of `kind` with `id` (not entered in error or refuted).
    public func holds(_ kind: RecordEntryKind, _ id: UUID) -> Bool {
        guard retracted[id] == nil else { return false }
        switch kind {
        case .weight: return weights.measurements.contains { $0.id.rawValue == id }
        case .problem: return problems.contains { $0.id.rawValue == id }
        case .allergy: return allergies.contains { $0.id.rawValue == id }
        case .medication: return medications.contains { $0.id.rawValue == id }
        case .vaccination: return vaccinations.contains { $0.id.rawValue == id }
        case .note: return notes.notes.contains { $0.id.rawValue == id }
        }
    }

    /// Whether `medication` is being given on `date`: its course runs that day and no correction
    /// stopped it or replaced it with a new dose (a stop takes effect on the day it names).
    public func isBeingGiven(_ medication: Medication, on date: Date, calendar: Calendar = RecordCalendar.utc) -> Bool {
        let ended = corrections.contains { correction in
            guard correction.entryID == medication.id.rawValue else { return false }
            switch correction.change {
            case .stopMedication(let day, _), .changeMedication(let day, _, _, _, _):
                return calendar.startOfDay(for: day) <= calendar.startOfDay(for: date)
            default: return false
            }
        }
        return !ended && medication.isCurrent(on: date, calendar: calendar)
    }

    /// The record with `corrections` applied in order. An entry entered in error or refuted
    /// leaves the lists every calculation, chart and due list reads, and is kept in
    /// ``retractedEntries`` with its mark; a correction that no longer applies (its entry gone
    /// from a restored record) changes nothing.
    public func applying(_ corrections: [RecordCorrection]) -> MedicalRecord {
        var record = self
        for correction in corrections { record.apply(correction) }
        return record
    }

    private mutating func apply(_ correction: RecordCorrection) {
        let id = correction.entryID
        guard holds(correction.entryKind, id) else { return }
        self.corrections.append(correction)
        let mark = { (kind: RetractedMark.Kind, reason: String) in
            RetractedMark(kind: kind, reason: reason, by: correction.recordedBy, at: correction.recordedAt)
        }
        switch correction.change {
        case .enteredInError(let reason):
            retract(correction.entryKind, id, mark(.enteredInError, reason))
        case .refuteAllergy(let reason):
            retract(.allergy, id, mark(.refuted, reason))
        case .stopMedication(let day, _):
            if let index = medications.firstIndex(where: { $0.id.rawValue == id }) { medications[index].endDate = day }
        case .changeMedication(let day, let newID, let dose, let frequency, let route):
            guard let index = medications.firstIndex(where: { $0.id.rawValue == id }) else { return }
            var next = medications[index]
            next.id = Identifier(newID)
            next.doseMgPerKg = dose ?? next.doseMgPerKg
            next.frequency = frequency ?? next.frequency
            next.route = route ?? next.route
            next.startDate = day
            medications[index].endDate = day
            medications.append(next)
        case .resolveProblem(let day, _):
            if let index = problems.firstIndex(where: { $0.id.rawValue == id }) {
                problems[index].status = .resolved
                problems[index].resolvedDate = day
            }
        case .reopenProblem:
            if let index = problems.firstIndex(where: { $0.id.rawValue == id }) {
                problems[index].status = .active
                problems[index].resolvedDate = nil
            }
        case .updateAllergy(let severity, let reaction):
            if let index = allergies.firstIndex(where: { $0.id.rawValue == id }) {
                allergies[index].severity = severity ?? allergies[index].severity
                allergies[index].reaction = reaction ?? allergies[index].reaction
            }
        case .correctVaccination(let batch, let given, let nextDue):
            if let index = vaccinations.firstIndex(where: { $0.id.rawValue == id }) {
                vaccinations[index] = vaccinations[index].corrected(
                    batchNumber: batch, administeredDate: given, nextDueDate: nextDue)
            }
        }
    }

    private mutating func retract(_ kind: RecordEntryKind, _ id: UUID, _ mark: RetractedMark) {
        retracted[id] = mark
        switch kind {
        case .weight:
            if let entry = weights.measurements.first(where: { $0.id.rawValue == id }) {
                retractedEntries.weights.append(entry)
                weights = WeightHistory(weights.measurements.filter { $0.id.rawValue != id })
            }
        case .problem: Self.take(id, from: &problems, into: &retractedEntries.problems) { $0.id.rawValue }
        case .allergy: Self.take(id, from: &allergies, into: &retractedEntries.allergies) { $0.id.rawValue }
        case .medication: Self.take(id, from: &medications, into: &retractedEntries.medications) { $0.id.rawValue }
        case .vaccination: Self.take(id, from: &vaccinations, into: &retractedEntries.vaccinations) { $0.id.rawValue }
        case .note:
            // The log is append-only: the note stays where it is, marked.
            break
        }
    }

    /// Moves the entry `id` from `list` to `kept`.
    private static func take<Entry>(
        _ id: UUID, from list: inout [Entry], into kept: inout [Entry], key: (Entry) -> UUID
    ) {
        kept += list.filter { key($0) == id }
        list.removeAll { key($0) == id }
    }
}

/// Entries kept in a record though they no longer count (see ``MedicalRecord/retracted``).
public struct RetractedEntries: Codable, Hashable, Sendable {
    public var weights: [WeightMeasurement] = []
    public var problems: [Problem] = []
    public var allergies: [Allergy] = []
    public var medications: [Medication] = []
    public var vaccinations: [Vaccination] = []

    /// None.
    public init() {}
}

// MARK: - Stored form, trail and the practice-wide due list

extension RecordCorrection {
    /// The form stores keep a correction in.
    public func storedJSON() throws -> Data { try JSONEncoder().encode(self) }

    /// Reads ``storedJSON()`` back.
    public init(storedJSON: Data) throws { self = try JSONDecoder().decode(RecordCorrection.self, from: storedJSON) }

    /// What the audit trail keeps (no clinical text: the reason stays in the record).
    public var auditDetail: String { "\(entryKind.rawValue)=\(UUIDText.lowercase(entryID)) correction=\(change.name)" }

    /// Vaccinations as their corrections leave them: those entered in error dropped, corrected
    /// fields applied (the practice-wide due list reads vaccinations without whole records).
    public static func applying(_ corrections: [RecordCorrection], to vaccinations: [Vaccination]) -> [Vaccination] {
        var byID = Dictionary(vaccinations.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        for correction in corrections where correction.entryKind == .vaccination {
            guard let vaccination = byID[correction.entryID] else { continue }
            switch correction.change {
            case .enteredInError: byID[correction.entryID] = nil
            case .correctVaccination(let batch, let given, let nextDue):
                byID[correction.entryID] = vaccination.corrected(
                    batchNumber: batch, administeredDate: given, nextDueDate: nextDue)
            default: break
            }
        }
        return vaccinations.compactMap { byID[$0.id.rawValue] }
    }
}

extension Vaccination {
    /// The vaccination with the fields given replaced (a correction's values).
    func corrected(batchNumber: String?, administeredDate: Date?, nextDueDate: Date?) -> Vaccination {
        var next = self
        next.batchNumber = batchNumber ?? next.batchNumber
        next.administeredDate = administeredDate ?? next.administeredDate
        next.nextDueDate = nextDueDate ?? next.nextDueDate
        return next
    }
}
