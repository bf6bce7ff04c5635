import Scheduling
import SharedKernel

extension Array where Element == Versioned<Appointment> {
    /// The appointments `select` picks from these (the domain's rules see the values), each
    /// with its stored version, in `select`'s order: what a settings change leaves to re-plan.
    public func picked(by select: ([Appointment]) -> [Appointment]) -> [Versioned<Appointment>] {
        let byID = Dictionary(map { ($0.value.id, $0) }, uniquingKeysWith: { first, _ in first })
        return select(map(\.value)).compactMap { byID[$0.id] }
    }
}
