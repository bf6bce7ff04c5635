import Foundation

/// A JSON value as the contract checks see it: the document itself and request bodies are
/// both read into this one shape, so a schema is walked the same way as the value it checks.
indirect enum JSONNode: Sendable, Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before number: Foundation's decoder refuses to read a number as a Bool and
        // a Bool as a number, so the JSON type survives.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONNode].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONNode].self))
        }
    }

    /// Reads a JSON document.
    static func parse(_ data: Data) throws -> JSONNode {
        try JSONDecoder().decode(JSONNode.self, from: data)
    }

    /// The member `key` of an object.
    subscript(key: String) -> JSONNode? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
    var array: [JSONNode]? {
        if case .array(let value) = self { return value }
        return nil
    }
    var object: [String: JSONNode]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The JSON type name as a schema spells it (`integer` for whole numbers).
    var typeNames: [String] {
        switch self {
        case .null: return ["null"]
        case .bool: return ["boolean"]
        case .number(let value): return value.rounded() == value && value.isFinite ? ["integer", "number"] : ["number"]
        case .string: return ["string"]
        case .array: return ["array"]
        case .object: return ["object"]
        }
    }
}
