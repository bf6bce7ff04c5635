import SharedKernel

// MARK: - Seeded random numbers per worker

extension SplitMix64 {
    /// A generator for one worker in one epoch, decorrelated from its neighbours, so a search
    /// run can be replayed exactly.
    init(seed: UInt64, epoch: Int, worker: Int) {
        var mixer = SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        var s = mixer.next()
        s ^= UInt64(truncatingIfNeeded: epoch) &* 0xBF58_476D_1CE4_E5B9
        s ^= UInt64(truncatingIfNeeded: worker) &* 0x94D0_49BB_1331_11EB
        mixer = SplitMix64(seed: s)
        self.init(seed: mixer.next())
    }

    /// A number in `0..<bound` (multiply-shift; the bias is far below anything that matters here).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int((UInt128(next()) * UInt128(bound)) >> 64)
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { below(denominator) < numerator }
}
