import Foundation
import PatientRecords
import SharedKernel
import StorageSupport
import Triage

/// A whole practice as one versioned JSON document (`"format": "vetnet-export-v1"`): the
/// profile, staff accounts without password hashes, owners, patients with their full medical
/// records (note text in clear), triage assessments, the metadata of documents, and the
/// schedule (clinicians, availability, rooms, appointment types, appointments).
///
/// It is what a practice takes away when it leaves, and what ``VetNetStore/restorePractice(_:requestID:)``
/// brings back into an empty store. Document bytes are not included: they are listed so the
/// files can be copied separately.
public struct PracticeExport: Codable, Hashable, Sendable {
    /// The format name and version this type reads and writes.
    public static let currentFormat = "vetnet-export-v1"

    /// Always ``currentFormat``; a reader refuses any other value.
    public var format: String
    /// When the export was taken (not part of the practice's data).
    public var exportedAt: Date
    /// The practice profile.
    public var practice: PracticeProfile
    /// Staff accounts. Password hashes are never exported.
    public var staff: [StaffAccount]
    /// Owners, by last then first name.
    public var owners: [Owner]
    /// Patients with their records, by record number.
    public var patients: [ExportedPatient]
    /// Triage assessments, oldest first.
    public var triageAssessments: [ExportedAssessment]
    /// Every triaged visit to the emergency service with its level and when a clinician first
    /// saw the patient (what VTL compliance is computed from), oldest first; absent in exports
    /// written before it was kept.
    public var triageArrivals: [ExportedTriageArrival]?
    /// Documents by metadata only.
    public var documents: [ExportedDocument]
    /// The schedule; absent in exports written before it was part of the format, which
    /// restore without one.
    public var schedule: ExportedSchedule?
    /// The practice's audit trail, oldest first, as the installation it comes from recorded it
    /// (absent in files written before it was exported). A restore carries every entry into
    /// the new installation's chain, so who did what and when moves with the records.
    public var audit: [AuditEntry]?

    /// Creates an export document.
    public init(
        exportedAt: Date, practice: PracticeProfile, staff: [StaffAccount], owners: [Owner],
        patients: [ExportedPatient],
        triageAssessments: [ExportedAssessment], triageArrivals: [ExportedTriageArrival]? = nil,
        documents: [ExportedDocument],
        schedule: ExportedSchedule?, audit: [AuditEntry]? = nil
    ) {
        self.format = Self.currentFormat
        self.exportedAt = exportedAt
        self.practice = practice
        self.staff = staff
        self.owners = owners
        self.patients = patients
        self.triageAssessments = triageAssessments
        self.triageArrivals = triageArrivals
        self.documents = documents
        self.schedule = schedule
        self.audit = audit
    }

    // MARK: - JSON

    /// Encodes with sorted keys and RFC 3339 millisecond timestamps, so two exports of the same
    /// data differ only in `exportedAt`, and stored times survive a round trip exactly.
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        }
        return try encoder.encode(self)
    }

    /// Reads an export, refusing any other format or version.
    public static func decode(_ data: Data) throws -> PracticeExport {
        struct Header: Decodable { let format: String? }
        let format = try? JSONDecoder().decode(Header.self, from: data).format
        guard format == currentFormat else { throw FormatError.unsupported(format) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Timestamp.date(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an RFC 3339 timestamp"))
            }
            return date
        }
        return try decoder.decode(PracticeExport.self, from: data)
    }

    /// The instant as the export's text reads back, so an export equals itself after a round
    /// trip through a file and either store.
    public static func instant(_ date: Date) -> Date { Timestamp.date(Timestamp.string(date)) ?? date }

    /// The stored millisecond instant as the export's text reads back.
    public static func instant(milliseconds: Int64) -> Date { instant(Timestamp.date(milliseconds: milliseconds)) }

    /// Why a file is not a readable export.
    public enum FormatError: Error, CustomStringConvertible {
        /// The `format` field is missing or names another format.
        case unsupported(String?)

        public var description: String {
            switch self {
            case .unsupported(let format):
                return
                    """
                    not a VetNet export: the format is \(format.map { "'\($0)'" } ?? "missing"); expected \
                    '\(PracticeExport.currentFormat)'
                    """
            }
        }
    }
}

/// A patient with everything recorded about them.
public struct ExportedPatient: Codable, Hashable, Sendable {
    /// The patient, with id and medical record number.
    public var patient: Patient
    /// When the patient was archived, if they are.
    public var archivedAt: Date?
    /// Weighings, oldest first.
    public var weights: [WeightMeasurement]
    /// Problem list.
    public var problems: [Problem]
    /// Allergies.
    public var allergies: [Allergy]
    /// Medications, current and past.
    public var medications: [Medication]
    /// Vaccinations.
    public var vaccinations: [Vaccination]
    /// Clinical notes, decrypted.
    public var notes: [ClinicalNote]
    /// Addenda to the notes, decrypted.
    public var addenda: [Addendum]
    /// When, and by whom, each weight, problem, allergy, medication and vaccination was
    /// entered, by entry id: the domain values do not carry it, the record's history does.
    public var entered: [String: EntryStamp]
    /// Visit records, oldest first; absent in exports written before visits were recorded.
    public var visits: [Visit]?
    /// Corrections of the record, in the order made; absent when there are none (and in
    /// exports written before corrections). The entries above are as written.
    public var corrections: [RecordCorrection]?

    /// The patient's medical record.
    public var medicalRecord: MedicalRecord {
        MedicalRecord(
            patient: patient, weights: weights, problems: problems, allergies: allergies, medications: medications,
            vaccinations: vaccinations, notes: notes, addenda: addenda)
    }

    /// Creates an exported patient from a record and its entry stamps.
    public init(
        record: MedicalRecord, archivedAt: Date?, entered: [String: EntryStamp], visits: [Visit]? = nil,
        corrections: [RecordCorrection]? = nil
    ) {
        self.visits = visits
        self.corrections = corrections.flatMap { $0.isEmpty ? nil : $0 }
        self.patient = record.patient
        self.archivedAt = archivedAt
        self.weights = record.weights.measurements
        self.problems = record.problems
        self.allergies = record.allergies
        self.medications = record.medications
        self.vaccinations = record.vaccinations
        self.notes = record.notes.notes
        self.addenda = record.notes.addenda
        self.entered = entered
    }
}

/// When a record entry was entered and by which account.
public struct EntryStamp: Codable, Hashable, Sendable {
    /// When it was stored.
    public var at: Date
    /// The account that entered it (`nil` for the system or when not recorded).
    public var by: String?

    /// Creates a stamp.
    public init(at: Date, by: String?) {
        self.at = at
        self.by = by
    }
}

/// A stored triage assessment with its case and result as the JSON they were stored as.
public struct ExportedAssessment: Codable, Hashable, Sendable {
    /// Assessment id.
    public var id: String
    /// The patient assessed.
    public var patientID: String
    /// The assessing account, `nil` for the system.
    public var assessorID: String?
    /// Arrival at the practice.
    public var arrivalAt: Date
    /// When the assessment was made.
    public var assessedAt: Date
    /// 1 (most urgent) to 5.
    public var level: Int
    /// Version of the triage rules that produced the result.
    public var rulesVersion: String
    /// The case as submitted (JSON text).
    public var caseJSON: String
    /// The result with its reasons (JSON text).
    public var resultJSON: String
    /// Overrides of its level by clinical judgement, oldest first (absent in exports made before overrides).
    public var overrides: [TriageOverride]?

    /// Creates the value from its parts.
    public init(
        id: String, patientID: String, assessorID: String?, arrivalAt: Date, assessedAt: Date, level: Int,
        rulesVersion: String, caseJSON: String,
        resultJSON: String, overrides: [TriageOverride]? = nil
    ) {
        self.id = id
        self.patientID = patientID
        self.assessorID = assessorID
        self.arrivalAt = arrivalAt
        self.assessedAt = assessedAt
        self.level = level
        self.rulesVersion = rulesVersion
        self.caseJSON = caseJSON
        self.resultJSON = resultJSON
        self.overrides = overrides
    }
}

/// One triaged visit to the emergency service.
public struct ExportedTriageArrival: Codable, Hashable, Sendable {
    /// The patient.
    public var patientID: String
    /// When they arrived.
    public var arrivalAt: Date
    /// The VTL level they were seen under, 1 (most urgent) to 5.
    public var level: Int
    /// When a clinician first saw them; absent while they wait or when it is not known.
    public var firstSeenAt: Date?
    /// When they left without being seen, if they did.
    public var leftAt: Date?

    /// Creates the value from its parts.
    public init(patientID: String, arrivalAt: Date, level: Int, firstSeenAt: Date?, leftAt: Date? = nil) {
        self.patientID = patientID
        self.arrivalAt = arrivalAt
        self.level = level
        self.firstSeenAt = firstSeenAt
        self.leftAt = leftAt
    }
}

/// A document's metadata; its bytes stay in the store's document directory.
public struct ExportedDocument: Codable, Hashable, Sendable {
    /// Document id.
    public var id: String
    /// The patient the document belongs to.
    public var patientID: String
    /// File name as uploaded.
    public var fileName: String
    /// MIME type.
    public var contentType: String
    /// Size of the plain bytes.
    public var byteCount: Int
    /// Hex SHA-256 of the plain bytes, to check a copied file.
    public var sha256: String
    /// When it was uploaded.
    public var createdAt: Date
    /// The content, base64, when the export was asked to carry documents (`vetnet export
    /// --with-documents`): a practice moving to another store takes its files along.
    public var content: String?

    /// Creates the value from its parts.
    public init(
        id: String, patientID: String, fileName: String, contentType: String, byteCount: Int, sha256: String,
        createdAt: Date,
        content: String? = nil
    ) {
        self.content = content
        self.id = id
        self.patientID = patientID
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
        self.sha256 = sha256
        self.createdAt = createdAt
    }
}

extension ExportedDocument {
    /// A stored document as an export lists it (its content added when asked for).
    public init(_ info: DocumentInfo) {
        self.init(
            id: UUIDText.lowercase(info.id), patientID: info.patientID.description, fileName: info.fileName,
            contentType: info.contentType, byteCount: info.byteCount, sha256: info.sha256, createdAt: info.createdAt)
    }

    /// The carried content, checked: base64, the listed size and SHA-256, at most
    /// ``maxDocumentBytes``, and of the listed kind. `nil` when the export lists the document
    /// without its content. `index` names the document in errors (`documents[3].content`).
    public func checkedContent(index: Int) throws -> Data? {
        guard let content else { return nil }
        let field = "documents[\(index)].content"
        guard let data = Data(base64Encoded: content) else {
            throw ValidationError(field: field, message: "is not base64")
        }
        guard data.count == byteCount, data.count <= maxDocumentBytes else {
            throw ValidationError(
                field: field,
                message: "is \(data.count) bytes, not the listed \(byteCount) (at most \(maxDocumentBytes))")
        }
        guard KeyedHash.sha256Hex(data) == sha256.lowercased() else {
            throw ValidationError(field: field, message: "does not match the listed sha256")
        }
        guard DocumentKind.detect(data)?.rawValue == contentType.lowercased() else {
            throw ValidationError(field: field, message: "is not a \(contentType) file")
        }
        return data
    }
}

extension PracticeExport {
    /// Checks everything a restore will write by the domain's rules, before anything is
    /// written: the practice, owners, patients, clinicians, availability, rooms, types, and that
    /// every appointment is this practice's.
    public func validate(now: Date) throws {
        try practice.validate()
        for owner in owners { try owner.validate() }
        for item in patients { try item.patient.validate(now: now) }
        for assessment in triageAssessments { _ = try assessment.checkedIDs() }
        for arrival in triageArrivals ?? [] { _ = try arrival.checkedPatientID() }
        for document in documents { _ = try document.checkedIDs() }
        guard let schedule else { return }
        for item in schedule.clinicians { try item.clinician.validate() }
        for item in schedule.availabilities { try item.availability.validate() }
        for room in schedule.rooms { try room.validate() }
        for type in schedule.appointmentTypes { try type.validate() }
        if let stray = schedule.appointments.first(where: { $0.appointment.practiceID != practice.id }) {
            throw ValidationError(
                field: "schedule.appointments",
                message: "appointment \(stray.appointment.id) belongs to another practice")
        }
        for item in schedule.appointments {
            if let note = item.notes?.first(where: { $0.appointmentID != item.appointment.id }) {
                throw ValidationError(
                    field: "schedule.appointments", message: "note \(note.id) belongs to another appointment")
            }
        }
    }

    /// The carried audit trail, checked: every entry must be this practice's (an export never
    /// holds another practice's history).
    public func checkedAudit() throws -> [AuditEntry] {
        let practice = practice.id.description
        if let index = (audit ?? []).firstIndex(where: { $0.practiceID != practice }) {
            throw ValidationError(field: "audit[\(index)].practiceID", message: "is not the exported practice")
        }
        return audit ?? []
    }
}

extension AuditRecord {
    /// The audit entry of a practice's export: what it held, counted.
    public static func exported(_ export: PracticeExport, documentContent: Bool) -> AuditRecord {
        let schedule = export.schedule
        let counts =
            "staff=\(export.staff.count) owners=\(export.owners.count) patients=\(export.patients.count)"
            + " documents=\(export.documents.count) clinicians=\(schedule?.clinicians.count ?? 0)"
            + " appointments=\(schedule?.appointments.count ?? 0) audit=\(export.audit?.count ?? 0)"
            + (documentContent ? " with_document_content" : "")
        return AuditRecord(
            action: .practiceExport, resourceType: .practice, resourceID: export.practice.id.description,
            detail: counts)
    }
}
