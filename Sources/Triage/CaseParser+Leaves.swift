import SharedKernel

// MARK: - Typed leaves of the wire format

extension CaseParser {
    /// Orders an absent required field after everything present in its parent object.
    mutating func missing(_ path: String, under parent: String) {
        order[path] = (order[parent] ?? []) + [Int.max]
    }

    /// The members of an object whose keys are all known; unknown keys are errors.
    mutating func members(of value: JSONValue, at path: String, allowed: [String]) -> [(key: String, value: JSONValue)]?
    {
        let label = path.isEmpty ? "$" : path
        if case .null = value, !path.isEmpty { return nil }
        guard case .object(let members) = value else {
            errors.add(label, "expected an object, found \(value.typeName)")
            return nil
        }
        var known: [(key: String, value: JSONValue)] = []
        let parentOrder = order[path] ?? []
        for (index, member) in members.enumerated() {
            let memberPath = Self.path(of: member.key, under: path)
            order[memberPath] = parentOrder + [index]
            if allowed.contains(member.key) {
                known.append(member)
            } else {
                let hint = Suggestion.closest(to: member.key, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
                errors.add(memberPath, "unknown field: not part of the triage case format and would be ignored\(hint)")
            }
        }
        return known
    }

    /// The dotted path of `key` in the object at `parent`. An empty key is written `[""]`
    /// (`$[""]` at the top level), so that the error about it still names a field.
    static func path(of key: String, under parent: String) -> String {
        if key.isEmpty { return (parent.isEmpty ? "$" : parent) + "[\"\"]" }
        return parent.isEmpty ? key : parent + "." + key
    }

    mutating func number(_ value: JSONValue, _ path: String) -> Double? {
        switch value {
        case .null: return nil
        case .number(let number): return number
        default:
            errors.add(path, "expected a number, found \(value.typeName)")
            return nil
        }
    }

    mutating func integer(_ value: JSONValue, _ path: String) -> Int? {
        guard let number = number(value, path) else { return nil }
        guard number == number.rounded(), abs(number) < 1e9 else {
            errors.add(path, "expected a whole number, found \(Format.decimal(number, places: 3))")
            return nil
        }
        return Int(number)
    }

    mutating func bool(_ value: JSONValue, _ path: String) -> Bool? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag
        default:
            errors.add(path, "expected true or false, found \(value.typeName)")
            return nil
        }
    }

    mutating func string(_ value: JSONValue, _ path: String) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        default:
            errors.add(path, "expected a string, found \(value.typeName)")
            return nil
        }
    }

    /// An enumeration value; `word` reads the text (the raw value by default, or a reading
    /// that also takes accepted aliases), and a refusal lists the canonical words.
    mutating func enumeration<E>(_ value: JSONValue, _ path: String, word: (String) -> E? = { E(rawValue: $0) }) -> E?
    where E: RawRepresentable & CaseIterable, E.RawValue == String {
        guard let text = string(value, path) else { return nil }
        if let match = word(text) { return match }
        let allowed = E.allCases.map(\.rawValue)
        let hint = Suggestion.closest(to: text, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
        errors.add(path, "unknown value '\(text)'; expected one of: \(allowed.joined(separator: ", "))\(hint)")
        return nil
    }
}

// MARK: - Helpers

extension JSONValue {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// "Did you mean" hints for typos in keys, enumeration values and finding ids.
enum Suggestion {
    /// The candidate equal to `text` ignoring case and `_`, or within edit distance 2; `nil` if none.
    static func closest(to text: String, in candidates: [String]) -> String? {
        let folded = fold(text)
        if let exact = candidates.first(where: { fold($0) == folded }) { return exact }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(folded, fold(candidate))
            if distance <= 2, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    private static func fold(_ text: String) -> [Character] {
        Array(text.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    private static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = previous
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
