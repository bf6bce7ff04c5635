import Foundation

/// The rules of shared workstations: a device an administrator registered, on which staff
/// unlock with a short personal PIN instead of their password.
public enum SharedDevicePolicy {
    /// How long a full sign-in (password, and second factor where asked) on a device lets its
    /// holder unlock that device with a PIN.
    public static let fullSignInValidity: TimeInterval = 12 * 60 * 60
    /// The idle time after which a shared device locks, unless its registration says otherwise.
    public static let defaultIdleLockSeconds = 120
    /// The idle times a registration may choose, in seconds.
    public static let idleLockRange = 10...3600
    /// The digits a PIN may have.
    public static let pinLength = 6...12
    /// Longest name of a device.
    public static let maxNameLength = 80

    /// Checks a new PIN: 6 to 12 digits, not one digit repeated, not a run up or down
    /// (`123456`, `987654`): the first guesses anyone tries.
    public static func validatePin(_ pin: String) throws(ValidationError) {
        let digits = pin.compactMap { $0.isASCII ? $0.wholeNumberValue : nil }
        guard digits.count == pin.count, pinLength.contains(pin.count) else {
            throw ValidationError(
                field: "pin", message: "must be \(pinLength.lowerBound) to \(pinLength.upperBound) digits")
        }
        if Set(digits).count == 1 { throw ValidationError(field: "pin", message: "must not repeat one digit") }
        let steps = zip(digits, digits.dropFirst()).map { ($1 - $0 + 10) % 10 }
        if Set(steps).count == 1, steps[0] == 1 || steps[0] == 9 {
            throw ValidationError(field: "pin", message: "must not be a run of digits such as 123456")
        }
    }

    /// Checks a registration's name and idle time.
    public static func validateRegistration(name: String, idleLockSeconds: Int) throws(ValidationError) {
        var errors = FieldErrorCollector()
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { errors.add("name", "must not be empty") }
        if trimmed.count > maxNameLength { errors.add("name", "must be at most \(maxNameLength) characters") }
        if !idleLockRange.contains(idleLockSeconds) {
            errors.add(
                "idleLockSeconds", "must be between \(idleLockRange.lowerBound) and \(idleLockRange.upperBound) seconds"
            )
        }
        try errors.throwIfAny()
    }

    /// Whether a full sign-in at `signedInAt` still lets its holder unlock with a PIN at `now`.
    public static func pinUsable(fullSignInAt signedInAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(signedInAt) < fullSignInValidity && signedInAt <= now.addingTimeInterval(60)
    }
}
