import Foundation
import SharedKernel

/// How long a patient stays archived before a purge may remove their record: whole years,
/// 1 to 100. Zero would purge a patient archived a moment ago (archiving would become an
/// irreversible delete), and a negative period would reach into the future.
public struct RetentionPeriod: Hashable, Sendable {
    /// The years a purge may be asked to keep archived records.
    public static let allowedYears = 1...100
    /// The period used when none is given.
    public static let standard = RetentionPeriod(checkedYears: 7)

    /// Whole years.
    public let years: Int

    /// A period of `years`; refused naming `retentionYears` outside 1–100.
    public init(years: Int) throws {
        guard Self.allowedYears.contains(years) else {
            throw ValidationError(
                field: "retentionYears",
                message: "must be between \(Self.allowedYears.lowerBound) and \(Self.allowedYears.upperBound) years")
        }
        self.years = years
    }

    private init(checkedYears: Int) { years = checkedYears }

    /// The period in seconds (years of 365.25 days).
    public var seconds: TimeInterval { Double(years) * 365.25 * 86_400 }

    /// The latest archiving time a purge at `now` may remove.
    public func cutoff(now: Date) -> Date { now.addingTimeInterval(-seconds) }
}
