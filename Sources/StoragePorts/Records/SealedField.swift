import Foundation
import SharedKernel
import StorageSupport

/// A column of the medical record or of an owner's contact details that is kept sealed at
/// rest, named `table.column` as both stores name it.
///
/// Every such value is sealed under the record key with `<practice>/<table.column>/<row id>`
/// as its context, so a sealed value copied onto another row, column or practice does not
/// open, and both stores hold the same format: a practice moved between them opens its record.
public enum SealedField: String, Sendable, CaseIterable {
    case visitRecord = "visit.record"
    case problemName = "problem.name"
    case allergySubstance = "allergy.substance"
    case allergyReaction = "allergy.reaction"
    case medicationDrug = "medication.drug"
    case medicationConcentration = "medication.concentration_mg_per_ml"
    case medicationDose = "medication.dose_mg_per_kg"
    case medicationFrequency = "medication.frequency"
    case vaccinationVaccine = "vaccination.vaccine"
    case vaccinationBatch = "vaccination.batch"
    case triageCase = "triage_assessment.case_json"
    case triageResult = "triage_assessment.result_json"
    case triageOverrideReason = "triage_override.reason"
    /// The override an ER board entry carries (the board's row is the patient's).
    case queueOverride = "triage_queue.override_json"
    case correctionChange = "record_correction.change_json"
    case ownerEmail = "owner.email"
    case ownerPhones = "owner.phones"
    case ownerAddress = "owner.address"
    case ownerNotes = "owner.notes"
}

extension SealedField {
    /// Where a single sealed value lives: its table (the ER board's is named by each store,
    /// `boardTable`), the column naming its row within the practice, and its column; `nil` for
    /// an owner's contact details, which are sealed together with their search tokens.
    public func location(boardTable: String) -> (table: String, key: String, column: String)? {
        let parts = rawValue.split(separator: ".", maxSplits: 1).map(String.init)
        switch self {
        case .ownerEmail, .ownerPhones, .ownerAddress, .ownerNotes: return nil
        case .queueOverride: return (boardTable, "patient_id", parts[1])
        default: return (parts[0], "id", parts[1])
        }
    }
}

/// Seals and opens the ``SealedField`` values of one practice.
///
/// A sealed value is text — `sealed:v1:` and the AES-GCM box in base64 — so it fits the text
/// columns the values had before; a value without that prefix is one written before sealing
/// began and is read as it stands, until `vetnet seal-records` (or the store's opening pass)
/// seals it.
public struct FieldSeal: Sendable {
    /// The prefix of every sealed value.
    public static let prefix = "sealed:v1:"

    let cipher: RecordCipher
    /// The practice whose values this seals.
    public let practiceID: PracticeID

    /// A seal for `practiceID`'s values under `cipher`.
    public init(cipher: RecordCipher, practiceID: PracticeID) {
        self.cipher = cipher
        self.practiceID = practiceID
    }

    /// Whether `stored` is a sealed value (rather than text written before sealing began).
    public static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    private func context(_ field: SealedField, id: String) -> String {
        "\(practiceID)/\(field.rawValue)/\(id.lowercased())"
    }

    /// The sealed form of `text`, the value of `field` in the row `id`.
    public func seal(_ text: String, _ field: SealedField, id: String) throws -> String {
        Self.prefix + (try cipher.seal(Data(text.utf8), context: context(field, id: id))).base64EncodedString()
    }

    /// The sealed form of an optional value; `nil` stays `nil` (an absent value is not a secret).
    public func sealIfPresent(_ text: String?, _ field: SealedField, id: String) throws -> String? {
        try text.map { try seal($0, field, id: id) }
    }

    /// The text of a stored value of `field` in the row `id`. Throws ``StoreCorruption``
    /// naming the column when a sealed value does not open under this key and context.
    public func open(_ stored: String, _ field: SealedField, id: String) throws -> String {
        guard Self.isSealed(stored) else { return stored }
        guard let box = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
            let text = try? cipher.open(box, context: context(field, id: id))
        else {
            throw StoreCorruption(column: field.rawValue, reason: "does not open under the record key")
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The text of an optional stored value.
    public func openIfPresent(_ stored: String?, _ field: SealedField, id: String) throws -> String? {
        try stored.map { try open($0, field, id: id) }
    }

    /// The sealed JSON of `value`.
    public func seal(json value: some Encodable, _ field: SealedField, id: String) throws -> String {
        try seal(String(decoding: try JSONEncoder().encode(value), as: UTF8.self), field, id: id)
    }

    /// The value whose JSON `stored` seals; ``StoreCorruption`` naming the column when it does
    /// not open or is not that value.
    public func open<T: Decodable>(json stored: String, as type: T.Type, _ field: SealedField, id: String) throws -> T {
        let text = try open(stored, field, id: id)
        guard let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) else {
            throw StoreCorruption(column: field.rawValue, reason: "not the value this column holds")
        }
        return value
    }
}
