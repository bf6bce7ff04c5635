// MARK: - Seeded random numbers

/// SplitMix64: a tiny, fast, well-distributed generator whose sequence is fixed by its seed,
/// so a search run, the demo practice and a property test replay exactly on every machine
/// (`SystemRandomNumberGenerator` cannot be seeded).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `items` (which must not be empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}
