import Foundation
import SharedKernel

// MARK: - Vitals recorded outside a triage case

/// Vital signs recorded with a visit, read with exactly the triage case's rules: the same
/// keys and units (an unknown key such as `heartrate` is refused, not dropped), the same
/// types, and the same physical limits (§4.1). One set of vitals gives one answer whether it
/// arrives in a triage case or in a visit record.
public struct RecordedVitals: Hashable, Sendable {
    /// The vitals.
    public let vitals: Vitals
    /// Their wire form (`{"heartRate":96,"temperature":{"value":38.6,"unit":"C"}}`), as sent
    /// and checked, for storing.
    public let json: String

    /// Reads member `member` of the JSON object `data` (the bytes the client sent) as vitals;
    /// `nil` when the member is absent or null. Errors name `member.heartRate` and so on; a
    /// document that is not well-formed JSON is reported against `body`.
    public init?(jsonData data: Data, member: String) throws(ValidationError) {
        let root: JSONValue
        do {
            root = try JSONReader.parse([UInt8](data))
        } catch {
            throw ValidationError(field: "body", message: "malformed JSON at byte \(error.offset): \(error.message)")
        }
        guard case .object(let members) = root, let value = members.first(where: { $0.key == member })?.value,
            !value.isNull
        else {
            return nil
        }
        try self.init(value: value, member: member)
    }

    /// Reads vitals stored by ``json``.
    public init(json: String) throws(ValidationError) {
        let value: JSONValue
        do {
            value = try JSONReader.parse(Array(json.utf8))
        } catch {
            throw ValidationError(field: "vitals", message: "malformed JSON at byte \(error.offset): \(error.message)")
        }
        try self.init(value: value, member: "vitals")
    }

    private init(value: JSONValue, member: String) throws(ValidationError) {
        var parser = CaseParser()
        parser.order["vitals"] = [0]
        let vitals = parser.parseVitals(value)
        TriageCase(species: .other, vitals: vitals).collectRangeErrors(into: &parser.errors)
        do {
            try parser.finish()
        } catch {
            throw ValidationError(
                error.errors.map { FieldError(field: Self.rename($0.field, to: member), message: $0.message) })
        }
        self.vitals = vitals
        self.json = value.serialized
    }

    /// `vitals.heartRate` under `member` instead of `vitals`.
    private static func rename(_ field: String, to member: String) -> String {
        guard member != "vitals", field.hasPrefix("vitals") else { return field }
        return member + field.dropFirst("vitals".count)
    }
}

// MARK: - Writing JSON back

extension JSONValue {
    /// Compact JSON text of the value, members in their input order.
    var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        case .string(let value): return Self.quoted(value)
        case .array(let values): return "[" + values.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.serialized }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
