import Foundation
import PracticeServices
import SharedKernel

/// Checks a value against a JSON Schema of the OpenAPI document — the keywords the document
/// uses: `$ref`, `allOf`/`anyOf`/`oneOf`, `type` (with `null` for optional values), `enum`,
/// `const`, numeric bounds, string lengths, `pattern`, `format` (`uuid`, `date`,
/// `date-time`), array sizes and `uniqueItems`, `required`, `properties`, `minProperties`,
/// `maxProperties` and `additionalProperties`. Every failure names the value's path (`requests[2].duration`).
///
/// A property marked `x-confirmation: true` (the `"confirm": "purge"` of a purge) is the
/// caller's deliberate consent to an irreversible action, not part of the request's shape:
/// leaving it out or sending another value is a refusal of the action (422), not a malformed
/// request (400).
///
/// Running the document's own schemas on every request keeps the contract and the server
/// from drifting apart: a bound stated in `openapi.yaml` is a bound the server enforces.
struct SchemaValidator: Sendable {
    /// The whole document, for resolving `$ref`.
    let document: JSONNode

    /// Deeper schemas than this are refused rather than followed (a recursive `$ref`).
    private static let maxDepth = 48

    /// Appends a ``FieldError`` for every way `value` breaks `schema`.
    func validate(_ value: JSONNode, against schema: JSONNode, path: String, into errors: inout SchemaFindings) {
        check(value, schema, path: path, depth: 0, into: &errors)
    }

    /// Whether `value` satisfies `schema` (no messages).
    func accepts(_ value: JSONNode, _ schema: JSONNode, depth: Int) -> Bool {
        var findings = SchemaFindings()
        check(value, schema, path: "", depth: depth, into: &findings)
        return findings.errors.isEmpty
    }

    /// The schema a `$ref` points at (`#/components/schemas/Name`).
    func resolve(_ schema: JSONNode) -> JSONNode {
        var current = schema
        for _ in 0..<8 {
            guard let reference = current["$ref"]?.string, reference.hasPrefix("#/") else { return current }
            var target: JSONNode? = document
            for part in reference.dropFirst(2).split(separator: "/") {
                target =
                    target?[part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")]
            }
            guard let target else { return .object([:]) }
            current = target
        }
        return current
    }

    private func check(
        _ value: JSONNode, _ rawSchema: JSONNode, path: String, depth: Int, into errors: inout SchemaFindings
    ) {
        guard depth < Self.maxDepth else { return errors.add(name(path), "is nested too deeply", shape: true) }
        let schema = resolve(rawSchema)
        guard case .object = schema else { return }
        let field = name(path)

        for part in schema["allOf"]?.array ?? [] { check(value, part, path: path, depth: depth + 1, into: &errors) }
        if let options = schema["anyOf"]?.array, !options.contains(where: { accepts(value, $0, depth: depth + 1) }) {
            // Report the closest option's reasons: the one with the fewest complaints.
            return errors.merge(closestReasons(value, options, path: path, depth: depth))
        }
        if let options = schema["oneOf"]?.array {
            let matching = options.filter { accepts(value, $0, depth: depth + 1) }.count
            if matching == 0 { return errors.merge(closestReasons(value, options, path: path, depth: depth)) }
            if matching > 1 { return errors.add(field, "matches more than one of the allowed forms", shape: true) }
        }

        let shape = !Self.isConfirmation(schema)
        if let allowed = Self.types(of: schema), !value.typeNames.contains(where: allowed.contains) {
            return errors.add(field, "must be \(Self.describe(allowed))", shape: shape)
        }
        if let options = schema["enum"]?.array, !options.contains(value) {
            let listed = options.compactMap { $0.string ?? $0.number.map { String($0) } }.joined(separator: ", ")
            return errors.add(
                field, shape ? "must be one of: \(listed)" : "must be \(listed) to confirm this action", shape: shape)
        }
        if let constant = schema["const"], constant != value {
            return errors.add(field, "must be \(constant.string ?? "the documented constant")", shape: true)
        }

        switch value {
        case .number(let number): checkNumber(number, schema, field: field, into: &errors)
        case .string(let text): checkString(text, schema, field: field, into: &errors)
        case .array(let items): checkArray(items, schema, path: path, depth: depth, into: &errors)
        case .object(let members): checkObject(members, schema, path: path, depth: depth, into: &errors)
        case .null, .bool: break
        }
    }

    private func checkNumber(_ number: Double, _ schema: JSONNode, field: String, into errors: inout SchemaFindings) {
        if let minimum = schema["minimum"]?.number, number < minimum {
            errors.add(field, "must be at least \(Self.format(minimum))")
        }
        if let maximum = schema["maximum"]?.number, number > maximum {
            errors.add(field, "must be at most \(Self.format(maximum))")
        }
        if let bound = schema["exclusiveMinimum"]?.number, number <= bound {
            errors.add(field, "must be greater than \(Self.format(bound))")
        }
        if let bound = schema["exclusiveMaximum"]?.number, number >= bound {
            errors.add(field, "must be less than \(Self.format(bound))")
        }
        // Whole numbers travel as doubles; beyond 2^53 they are no longer exact, so an
        // "integer" that large is refused instead of being rounded into something else.
        if Self.types(of: schema) == ["integer"], abs(number) > 9_007_199_254_740_991 {
            errors.add(field, "is too large")
        }
    }

    private func checkString(_ text: String, _ schema: JSONNode, field: String, into errors: inout SchemaFindings) {
        // JSON Schema counts characters as code points.
        let length = text.unicodeScalars.count
        if let minimum = schema["minLength"]?.number, Double(length) < minimum {
            errors.add(
                field, minimum == 1 ? "must not be empty" : "must be at least \(Self.format(minimum)) characters")
        }
        if let maximum = schema["maxLength"]?.number, Double(length) > maximum {
            errors.add(field, "must be at most \(Self.format(maximum)) characters")
        }
        if let pattern = schema["pattern"]?.string, !PatternCache.shared.matches(pattern, text) {
            errors.add(field, schema["x-pattern-message"]?.string ?? "has an invalid format")
        }
        switch schema["format"]?.string {
        case "uuid" where UUIDText.parse(text) == nil:
            errors.add(field, "must be a UUID")
        case "date-time" where Timestamp.date(text) == nil:
            errors.add(field, "must be an RFC 3339 date-time such as 2026-11-23T09:30:00Z")
        case "date" where !Self.isCalendarDate(text):
            errors.add(field, "must be a date such as 2026-11-23")
        default: break
        }
    }

    private func checkArray(
        _ items: [JSONNode], _ schema: JSONNode, path: String, depth: Int, into errors: inout SchemaFindings
    ) {
        let field = name(path)
        if let minimum = schema["minItems"]?.number, Double(items.count) < minimum {
            errors.add(field, "must have at least \(Self.format(minimum)) item\(minimum == 1 ? "" : "s")")
        }
        if let maximum = schema["maxItems"]?.number, Double(items.count) > maximum {
            return errors.add(field, "must have at most \(Self.format(maximum)) items")
        }
        if schema["uniqueItems"]?.bool == true {
            for index in items.indices where items[..<index].contains(items[index]) {
                errors.add("\(field)[\(index)]", "repeats an earlier item")
            }
        }
        guard let itemSchema = schema["items"] else { return }
        for (index, item) in items.enumerated() {
            check(item, itemSchema, path: "\(path)[\(index)]", depth: depth + 1, into: &errors)
        }
    }

    private func checkObject(
        _ members: [String: JSONNode], _ schema: JSONNode, path: String, depth: Int, into errors: inout SchemaFindings
    ) {
        let properties = schema["properties"]?.object ?? [:]
        for key in (schema["required"]?.array ?? []).compactMap(\.string) where members[key] == nil {
            let property = properties[key].map(resolve) ?? .object([:])
            if Self.isConfirmation(property) {
                let value = property["enum"]?.array?.first?.string.map { #" ("\#($0)")"# } ?? ""
                errors.add(join(path, key), "is required to confirm this action\(value)")
            } else {
                errors.add(join(path, key), "is required", shape: true)
            }
        }
        if let minimum = schema["minProperties"]?.number, Double(members.count) < minimum {
            errors.add(name(path), "must have at least \(Self.format(minimum)) \(minimum == 1 ? "entry" : "entries")")
        }
        if let maximum = schema["maxProperties"]?.number, Double(members.count) > maximum {
            errors.add(name(path), "must have at most \(Self.format(maximum)) entries")
        }
        // Sorted so the same body always yields its errors in the same order.
        for key in members.keys.sorted() {
            let member = members[key]!
            if let propertySchema = properties[key] {
                check(member, propertySchema, path: join(path, key), depth: depth + 1, into: &errors)
            } else if let additional = schema["additionalProperties"] {
                if additional == .bool(false) {
                    errors.add(join(path, key), "is not a known field", shape: true)
                } else if case .object = additional {
                    check(member, additional, path: join(path, key), depth: depth + 1, into: &errors)
                }
            }
        }
    }

    /// Whether `schema` is a confirmation (`x-confirmation: true`).
    private static func isConfirmation(_ schema: JSONNode) -> Bool {
        schema["x-confirmation"] == .bool(true)
    }

    private func closestReasons(_ value: JSONNode, _ options: [JSONNode], path: String, depth: Int) -> SchemaFindings {
        var best: SchemaFindings?
        for option in options {
            var reasons = SchemaFindings()
            check(value, option, path: path, depth: depth + 1, into: &reasons)
            if reasons.errors.count < best?.errors.count ?? .max { best = reasons }
        }
        var fallback = SchemaFindings()
        fallback.add(name(path), "is not in any allowed form", shape: true)
        return best ?? fallback
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    private func name(_ path: String) -> String { path.isEmpty ? "body" : path }

    private static func types(of schema: JSONNode) -> Set<String>? {
        if let single = schema["type"]?.string { return [single] }
        if let several = schema["type"]?.array { return Set(several.compactMap(\.string)) }
        return nil
    }

    private static func describe(_ types: Set<String>) -> String {
        let names = [
            "string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
            "array": "an array", "object": "an object", "null": "null",
        ]
        return types.sorted().compactMap { names[$0] }.joined(separator: " or ")
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]),
            parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, (1...12).contains(month), day >= 1
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }
}

/// What a check found: every bad field, and whether any of them is a matter of shape —
/// a wrong JSON type, a missing or unknown field, a value outside an enumeration — which the
/// API answers with 400 like any unreadable request, rather than a value out of bounds (422).
struct SchemaFindings: Sendable {
    /// Every bad field, in the order found.
    private(set) var errors: [FieldError] = []
    /// Whether any finding is about the request's shape.
    private(set) var shape = false

    /// Records a bad field.
    mutating func add(_ field: String, _ message: String, shape: Bool = false) {
        errors.append(FieldError(field: field, message: message))
        self.shape = self.shape || shape
    }

    /// Records everything `other` found.
    mutating func merge(_ other: SchemaFindings) {
        errors += other.errors
        shape = shape || other.shape
    }
}

/// Compiled `pattern` expressions, shared by every request (compiling one per request would
/// cost more than the check).
final class PatternCache: @unchecked Sendable {
    // @unchecked: the dictionary is only touched under `lock`; NSRegularExpression is immutable
    // and documented thread-safe for matching.
    static let shared = PatternCache()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression?] = [:]

    /// Whether `pattern` (ECMA 262 as the document writes it; unanchored) finds a match in `text`.
    func matches(_ pattern: String, _ text: String) -> Bool {
        let expression: NSRegularExpression? = lock.withLock {
            if let cached = compiled[pattern] { return cached }
            let made = try? NSRegularExpression(pattern: pattern)
            compiled[pattern] = made
            return made
        }
        guard let expression else { return true }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
