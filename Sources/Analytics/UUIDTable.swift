import Foundation

/// UUID → position, by open addressing.
///
/// Indexing a year of appointments looks up about half a million UUIDs (patient, clinician,
/// type, room of each). The ids are random already, so a multiply-shift of their bits spreads
/// them as well as the standard library's seeded SipHash does, at a fraction of the cost.
struct UUIDTable: Sendable {
    private var keys: [UUID]
    private var values: [Int32]
    private var mask: Int
    private(set) var count = 0

    /// An empty table sized for about `capacity` ids.
    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), count: size)
        values = Array(repeating: -1, count: size)
        mask = size - 1
    }

    /// The position stored for `id`.
    func find(_ id: UUID) -> Int32? {
        var slot = Self.hash(id) & mask
        while values[slot] >= 0 {
            if keys[slot] == id { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Stores `value` for `id` unless the table has it already.
    mutating func insert(_ id: UUID, _ value: Int32) {
        if (count + 1) * 2 > values.count { grow() }
        var slot = Self.hash(id) & mask
        while values[slot] >= 0 {
            if keys[slot] == id { return }
            slot = (slot + 1) & mask
        }
        keys[slot] = id
        values[slot] = value
        count += 1
    }

    private mutating func grow() {
        var bigger = UUIDTable(capacity: values.count)
        for slot in values.indices where values[slot] >= 0 { bigger.insert(keys[slot], values[slot]) }
        self = bigger
    }

    private static func hash(_ id: UUID) -> Int {
        withUnsafeBytes(of: id.uuid) { bytes in
            let low = bytes.loadUnaligned(as: UInt64.self)
            let high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: mixed >> 20)
        }
    }
}

/// The order of ids where records tie on time: by their bytes, which is also the order of
/// their lower-case text.
enum UUIDOrder {
    /// Whether `a` comes before `b`.
    static func less(_ a: UUID, _ b: UUID) -> Bool {
        let (aHigh, aLow) = words(a)
        let (bHigh, bLow) = words(b)
        return aHigh != bHigh ? aHigh < bHigh : aLow < bLow
    }

    /// Whether (`startA`, `a`) comes before (`startB`, `b`).
    static func precedes(_ startA: Double, _ a: UUID, _ startB: Double, _ b: UUID) -> Bool {
        startA != startB ? startA < startB : less(a, b)
    }

    private static func words(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }
}
