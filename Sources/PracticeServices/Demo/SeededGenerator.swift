import SharedKernel

/// The demo practice, its history and the scale practice are drawn from SplitMix64, so they
/// are the same on every machine.
package typealias SeededGenerator = SplitMix64
