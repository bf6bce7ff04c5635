import Foundation

/// A CBOR data item (RFC 8949), as far as WebAuthn's attestation objects and COSE keys use
/// them: definite lengths only, no floats beyond skipping them.
package indirect enum CBOR: Sendable {
    case unsigned(UInt64)
    /// A negative integer: the value is `-1 - n`.
    case negative(UInt64)
    case bytes(Data)
    case text(String)
    case array([CBOR])
    case map([(key: CBOR, value: CBOR)])
    case bool(Bool)
    case null
    /// Any other simple value or float (skipped, never interpreted).
    case other

    /// The value of an integer item that fits in `Int`.
    package var int: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n < UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    /// The entry of a map under the integer key `key` (COSE keys use those).
    package subscript(int key: Int) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key.int == key }?.value
    }

    /// The entry of a map under the text key `key` (attestation objects use those).
    package subscript(text key: String) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first {
            if case .text(let text) = $0.key { return text == key }
            return false
        }?.value
    }

    /// The bytes of a byte-string item.
    package var data: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }
}

/// Reads CBOR items one after another from bytes that come from a browser: every length is
/// checked against what is left, nesting is bounded, and anything malformed is an error, never
/// a trap.
package struct CBORReader {
    /// Why the bytes are not a CBOR item this reader accepts.
    package struct Malformed: Error, Sendable {
        /// What was wrong.
        package let reason: String
    }

    private let bytes: [UInt8]
    /// Where the next item starts.
    package private(set) var offset = 0

    /// The deepest nesting read (WebAuthn's structures nest three or four levels).
    static let maximumDepth = 16

    /// A reader at the start of `data`.
    package init(_ data: Data) { self.bytes = Array(data) }

    /// Whether every byte was read.
    package var atEnd: Bool { offset == bytes.count }

    /// Reads the next item.
    package mutating func read() throws(Malformed) -> CBOR { try read(depth: 0) }

    private mutating func read(depth: Int) throws(Malformed) -> CBOR {
        guard depth <= Self.maximumDepth else { throw Malformed(reason: "nested too deeply") }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22, 23: return .null
            case 24: _ = try take(1)
            case 25: _ = try take(2)
            case 26: _ = try take(4)
            case 27: _ = try take(8)
            case 31: throw Malformed(reason: "indefinite lengths are not accepted")
            default: break
            }
            return .other
        }
        let argument = try argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Data(try take(argument)))
        case 3:
            guard let text = String(bytes: try take(argument), encoding: .utf8) else {
                throw Malformed(reason: "a text string is not UTF-8")
            }
            return .text(text)
        case 4:
            // Each item takes at least one byte: a count beyond what is left cannot be right.
            guard argument <= UInt64(bytes.count - offset) else {
                throw Malformed(reason: "an array runs past the end")
            }
            var items: [CBOR] = []
            for _ in 0..<argument { items.append(try read(depth: depth + 1)) }
            return .array(items)
        case 5:
            guard argument <= UInt64(bytes.count - offset) / 2 else {
                throw Malformed(reason: "a map runs past the end")
            }
            var entries: [(key: CBOR, value: CBOR)] = []
            for _ in 0..<argument {
                let key = try read(depth: depth + 1)
                entries.append((key, try read(depth: depth + 1)))
            }
            return .map(entries)
        default: // 6: a tag, whose meaning is not needed here: its content is what counts
            return try read(depth: depth + 1)
        }
    }

    private mutating func argument(_ info: UInt8) throws(Malformed) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try take(1).reduce(0) { $0 << 8 | UInt64($1) }
        case 25: return try take(2).reduce(0) { $0 << 8 | UInt64($1) }
        case 26: return try take(4).reduce(0) { $0 << 8 | UInt64($1) }
        case 27: return try take(8).reduce(0) { $0 << 8 | UInt64($1) }
        default: throw Malformed(reason: "indefinite or reserved lengths are not accepted")
        }
    }

    private mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed(reason: "ends in the middle of an item") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: UInt64) throws(Malformed) -> ArraySlice<UInt8> {
        guard count <= UInt64(bytes.count - offset) else { throw Malformed(reason: "a length runs past the end") }
        let end = offset + Int(count)
        defer { offset = end }
        return bytes[offset..<end]
    }
}
