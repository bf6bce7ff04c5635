import Foundation
import PatientRecords
import SharedKernel

/// Reports how far a long import has come: rows done out of the total.
public typealias ImportProgressHandler = @Sendable (_ done: Int, _ total: Int) -> Void

/// What a CSV import stored.
public struct PatientImportResult: Sendable {
    /// Owners created.
    public let ownersCreated: Int
    /// Patients created.
    public let patientsCreated: Int
    /// The first and last medical record numbers assigned, when any patient was created.
    public let recordNumbers: (first: String, last: String)?
    /// Rows the store refused while skipping them, e.g. a microchip already recorded for
    /// another patient of the practice (the file alone cannot show that).
    public let refused: [ImportRowIssue]

    /// Creates the value from its parts.
    public init(
        ownersCreated: Int, patientsCreated: Int, recordNumbers: (first: String, last: String)?,
        refused: [ImportRowIssue]
    ) {
        self.ownersCreated = ownersCreated
        self.patientsCreated = patientsCreated
        self.recordNumbers = recordNumbers
        self.refused = refused
    }
}

extension ImportRowIssue {
    /// The issue of an import row the store refused: an invalid value (every field named) or a
    /// value another patient holds (a microchip). `nil` for any other failure, which is not
    /// the row's problem and ends the import.
    public init?(line: Int, refusal: any Error) {
        switch refusal {
        case let invalid as ValidationError: self.init(line: line, errors: invalid.errors)
        case let taken as UniquenessConflict:
            self.init(line: line, errors: [FieldError(field: taken.field, message: taken.message)])
        default: return nil
        }
    }
}

/// An import as it goes, kept the same way by both stores: the owners each row must store
/// before its patient, what a refused row does to the import, and the audit entry, event and
/// result it ends with. The store only inserts, and rolls a refused row back.
public struct PatientImportTally: Sendable {
    private let plan: PatientImportPlan
    private let owners: [Identifier<Owner>: Owner]
    private let skipRefused: Bool
    /// Owners stored so far.
    public private(set) var storedOwners = Set<Identifier<Owner>>()
    /// Patients stored so far.
    public private(set) var storedPatients = 0
    /// Rows refused and skipped so far.
    public private(set) var refused: [ImportRowIssue] = []

    /// The tally of importing `plan`; with `skipRefused` a refused row is skipped instead of
    /// refusing the whole import.
    public init(_ plan: PatientImportPlan, skipRefused: Bool) {
        self.plan = plan
        owners = Dictionary(plan.owners.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.skipRefused = skipRefused
    }

    /// The owners `patient` names that no earlier row stored, to insert before it (an owner is
    /// created with their first stored patient); one missing from the plan refuses the row.
    public func ownersToStore(before patient: Patient) throws -> [Owner] {
        try [patient.ownerID, patient.coOwnerID].compactMap { $0 }.filter { !storedOwners.contains($0) }.map {
            guard let owner = owners[$0] else {
                throw ValidationError(field: "owner", message: "is not in the import plan")
            }
            return owner
        }
    }

    /// `patient` was stored, with the owners it named.
    public mutating func stored(_ patient: Patient) {
        storedOwners.insert(patient.ownerID)
        if let coOwner = patient.coOwnerID { storedOwners.insert(coOwner) }
        storedPatients += 1
    }

    /// The store refused `patient`'s row with `error`. A refusal of the row's own (an invalid
    /// value, a microchip already taken) is noted when refused rows are skipped — the store then
    /// rolls the row back — and otherwise refuses the whole import; any other error is thrown
    /// as it is and ends the import.
    public mutating func refuse(_ patient: Patient, error: any Error) throws {
        guard let issue = ImportRowIssue(line: plan.patientLines[patient.id] ?? 0, refusal: error) else { throw error }
        guard skipRefused else { throw PatientImportError.invalidRows([issue]) }
        refused.append(issue)
    }

    /// `(done, total)` to report after row `index` (every 500 rows and the last), else `nil`.
    public func progress(after index: Int) -> (done: Int, total: Int)? {
        (index + 1) % 500 == 0 || index + 1 == plan.patients.count ? (index + 1, plan.patients.count) : nil
    }

    /// The import's audit entry: what it stored and what it refused (the file's skipped rows too).
    public func audit(practiceID: PracticeID) -> AuditRecord {
        AuditRecord(
            action: .patientImport, resourceType: .practice, resourceID: practiceID.description,
            detail:
                """
                owners=\(storedOwners.count) patients=\(storedPatients) \
                refused=\(refused.count + plan.skippedRows.count)
                """
        )
    }

    /// The import's one event, when it stored anything.
    public func event(practiceID: PracticeID, at now: Date) -> DomainEvent? {
        guard storedPatients > 0 || !storedOwners.isEmpty else { return nil }
        return DomainEvent(
            practiceID: practiceID, kind: RecordEventKind.imported, occurredAt: now, resourceType: .practice,
            resourceID: practiceID.description,
            payload: ["owners": String(storedOwners.count), "patients": String(storedPatients)])
    }

    /// The result, with the first and last record numbers handed out: those after the
    /// practice's record-number counter as it stood before the import (`counterBefore`) up to
    /// where it stands after (`counterAfter`); none when it did not move.
    public func result(counterBefore: Int64, counterAfter: Int64) -> PatientImportResult {
        PatientImportResult(
            ownersCreated: storedOwners.count, patientsCreated: storedPatients,
            recordNumbers: counterAfter > counterBefore
                ? (MedicalRecordNumber.text(counterBefore + 1), MedicalRecordNumber.text(counterAfter)) : nil,
            refused: refused)
    }
}
