import Foundation
import Scheduling
import SharedKernel

// MARK: - Counts and rates

/// Appointments scheduled to start in the period, by status.
public struct StatusCounts: Hashable, Codable, Sendable {
    /// Booked, patient not yet arrived (or the outcome never recorded).
    public var booked = 0
    /// Checked in.
    public var checkedIn = 0
    /// In progress.
    public var inProgress = 0
    /// Completed.
    public var completed = 0
    /// Cancelled.
    public var cancelled = 0
    /// No-shows.
    public var noShow = 0

    /// No appointments.
    public init() {}

    /// All appointments.
    public var total: Int { booked + checkedIn + inProgress + completed + cancelled + noShow }

    /// Appointments whose outcome is known: the patient came (checked in, in progress,
    /// completed) or did not (no-show). The no-show rate's denominator.
    public var decided: Int { checkedIn + inProgress + completed + noShow }

    /// The count for `status`.
    public subscript(status: AppointmentStatus) -> Int {
        get {
            switch status {
            case .booked: return booked
            case .checkedIn: return checkedIn
            case .inProgress: return inProgress
            case .completed: return completed
            case .cancelled: return cancelled
            case .noShow: return noShow
            }
        }
        set {
            switch status {
            case .booked: booked = newValue
            case .checkedIn: checkedIn = newValue
            case .inProgress: inProgress = newValue
            case .completed: completed = newValue
            case .cancelled: cancelled = newValue
            case .noShow: noShow = newValue
            }
        }
    }
}

/// `count` out of `total`, with the share; the share is `nil` (not 0, not NaN) when there is
/// nothing to divide by, so "no data" never reads as "perfect" or "zero".
public struct Rate: Hashable, Codable, Sendable {
    /// Cases counted.
    public let count: Int
    /// Cases they are counted among.
    public let total: Int
    /// `count ÷ total`, 0…1; `nil` when `total` is 0.
    public let value: Double?

    /// Creates a rate.
    public init(count: Int, total: Int) {
        self.count = count
        self.total = total
        self.value = total > 0 ? Double(count) / Double(total) : nil
    }
}

// MARK: - Time use

/// Booked time against the time that could be booked.
///
/// Booked minutes are the scheduled minutes of appointments that hold time (booked, checked
/// in, in progress, completed — cancellations and no-shows release theirs), buffers
/// excluded, clipped to the period: an appointment from 23:30 to 00:30 gives 30 minutes to
/// each day. The ratio may exceed 1 when work is booked outside working hours.
public struct Utilization: Hashable, Codable, Sendable {
    /// Booked minutes.
    public let bookedMinutes: Double
    /// Minutes that could be booked (working windows, or opening hours for a room).
    public let availableMinutes: Double
    /// `booked ÷ available`; `nil` without available time.
    public let ratio: Double?

    /// Creates a utilization figure.
    public init(bookedMinutes: Double, availableMinutes: Double) {
        self.bookedMinutes = bookedMinutes
        self.availableMinutes = availableMinutes
        self.ratio = availableMinutes > 0 ? bookedMinutes / availableMinutes : nil
    }
}

/// How long completed appointments took against the time booked for them, and how a
/// duration model would have done.
public struct DurationAccuracy: Hashable, Codable, Sendable {
    /// Completed appointments with a recorded length of at least one minute.
    public let count: Int
    /// Mean booked length, minutes.
    public let meanPlannedMinutes: Double?
    /// Mean recorded length, minutes.
    public let meanActualMinutes: Double?
    /// Mean of `actual − planned`: positive when appointments overrun.
    public let meanDifferenceMinutes: Double?
    /// Mean of `|actual − planned|`: how far off the booked length is, either way.
    public let meanAbsoluteDifferenceMinutes: Double?
    /// Completed appointments the duration model could predict (known type and species).
    public let modelCount: Int
    /// Mean absolute error of the model's booked length (rounded to its grid), minutes.
    public let modelMAE: Double?

    /// Creates the figure from sums.
    public init(
        count: Int, plannedMinutes: Int, actualMinutes: Int, absoluteDifferenceMinutes: Int,
        modelCount: Int, modelAbsoluteErrorMinutes: Int
    ) {
        self.count = count
        let n = Double(count)
        meanPlannedMinutes = count > 0 ? Double(plannedMinutes) / n : nil
        meanActualMinutes = count > 0 ? Double(actualMinutes) / n : nil
        meanDifferenceMinutes = count > 0 ? Double(actualMinutes - plannedMinutes) / n : nil
        meanAbsoluteDifferenceMinutes = count > 0 ? Double(absoluteDifferenceMinutes) / n : nil
        self.modelCount = modelCount
        modelMAE = modelCount > 0 ? Double(modelAbsoluteErrorMinutes) / Double(modelCount) : nil
    }
}

/// Time from making a booking to the appointment's start, over appointments with a known
/// booking time. A booking entered after its start (a walk-in recorded late) counts as 0.
public struct LeadTime: Hashable, Codable, Sendable {
    /// Appointments measured.
    public let count: Int
    /// Mean, hours.
    public let meanHours: Double?
    /// Median (nearest rank, see ``Percentile``), hours.
    public let medianHours: Double?

    /// Creates the figure.
    public init(count: Int, meanHours: Double?, medianHours: Double?) {
        self.count = count
        self.meanHours = meanHours
        self.medianHours = medianHours
    }
}

/// Distinct patients who came to an appointment in the period (checked in, in progress or
/// completed), split by whether their first visit to the practice falls inside the period.
public struct PatientMix: Hashable, Codable, Sendable {
    /// First visit in the period (or after its start).
    public let new: Int
    /// First visit before the period.
    public let returning: Int
    /// No first-visit date known.
    public let unknown: Int

    /// Creates the figure.
    public init(new: Int, returning: Int, unknown: Int) {
        self.new = new
        self.returning = returning
        self.unknown = unknown
    }

    /// All distinct patients seen.
    public var total: Int { new + returning + unknown }
}

// MARK: - Money

/// An amount of money in major units (pounds, euros) as an exact decimal.
public struct CurrencyAmount: Hashable, Codable, Sendable {
    /// ISO 4217 code.
    public let currency: String
    /// Amount in major units, exact.
    public let amount: Decimal

    /// Creates an amount.
    public init(currency: String, amount: Decimal) {
        self.currency = currency
        self.amount = amount
    }

    /// The amount of `minorUnits` of `currency`, scaled by its ISO 4217 minor-unit digits.
    public init(currency: String, minorUnits: Decimal) {
        self.currency = currency
        let digits = Self.minorUnitDigits(currency)
        var scaled = minorUnits
        for _ in 0..<digits { scaled /= 10 }
        self.amount = scaled
    }

    /// ISO 4217 minor-unit digits: 2 unless the code is one of the few with 0 or 3.
    public static func minorUnitDigits(_ currency: String) -> Int {
        if zeroDigitCurrencies.contains(currency) { return 0 }
        if threeDigitCurrencies.contains(currency) { return 3 }
        return 2
    }

    private static let zeroDigitCurrencies: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF",
        "XPF",
    ]
    private static let threeDigitCurrencies: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
}
