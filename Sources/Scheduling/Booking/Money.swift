import Foundation
import SharedKernel

/// An amount in a currency's minor units (pence, cents), so fees never suffer binary rounding.
public struct Money: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Amount in minor units, e.g. 4500 for £45.00.
    public var minorUnits: Int
    /// ISO 4217 code, e.g. `GBP`.
    public var currency: String

    /// Creates an amount.
    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// `4500 GBP`.
    public var description: String { "\(minorUnits) \(currency)" }

    /// Adds problems under `field` (`fee.minorUnits`, `fee.currency`).
    public func validate(field: String, into errors: inout FieldErrorCollector) {
        if minorUnits < 0 { errors.add("\(field).minorUnits", "must not be negative") }
        let isCode = currency.count == 3 && currency.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
        if !isCode { errors.add("\(field).currency", "must be a three-letter ISO 4217 code such as GBP") }
    }
}
