import Foundation
import SharedKernel

/// A browser an administrator registered as a shared workstation (a ward or reception iPad):
/// on it, staff unlock with their PIN within ``SharedKernel/SharedDevicePolicy/fullSignInValidity``
/// of a full sign-in there.
public struct SharedDevice: Codable, Hashable, Sendable {
    /// Identifier.
    public let id: UUID
    /// The practice it belongs to.
    public let practiceID: PracticeID
    /// What staff call it ("Ward iPad").
    public let name: String
    /// Seconds without use after which it locks.
    public let idleLockSeconds: Int
    /// When it was registered, and by whom.
    public let registeredAt: Date
    /// The administrator who registered it.
    public let registeredBy: UserID?

    /// Creates the value.
    public init(
        id: UUID, practiceID: PracticeID, name: String, idleLockSeconds: Int, registeredAt: Date, registeredBy: UserID?
    ) {
        self.id = id
        self.practiceID = practiceID
        self.name = name
        self.idleLockSeconds = idleLockSeconds
        self.registeredAt = registeredAt
        self.registeredBy = registeredBy
    }
}

/// A staff member's last full sign-in on a shared device.
public struct DeviceSignIn: Hashable, Sendable {
    /// When.
    public let at: Date
    /// It proved a second factor.
    public let secondFactor: Bool

    /// Creates the value.
    public init(at: Date, secondFactor: Bool) {
        self.at = at
        self.secondFactor = secondFactor
    }
}

/// Where shared devices, staff PINs and full sign-ins on devices are kept. The rules (who may
/// unlock, a PIN's form, the 12 hours) are ``AccountService``'s and the domain's; a store keeps
/// the device's token and the PIN only as hashes.
public protocol SharedDeviceRepository: Sendable {
    /// Registers a device of the scope's practice under `name` (as given: checked and trimmed by
    /// the caller), known by the SHA-256 of its token; audited.
    func registerSharedDevice(name: String, idleLockSeconds: Int, tokenHash: String, scope: AccessScope) async throws
        -> SharedDevice

    /// The practice's devices in use, oldest first.
    func sharedDevices(scope: AccessScope) async throws -> [SharedDevice]

    /// Ends a device's registration (a lost iPad); another practice's id is not found. Audited.
    func revokeSharedDevice(id: UUID, scope: AccessScope) async throws

    /// The device in use of `practiceID` whose token hashes to `tokenHash`, or `nil`.
    func sharedDevice(tokenHash: String, practiceID: PracticeID) async throws -> SharedDevice?

    /// Keeps the bcrypt hash of the caller's PIN (replacing one set before); audited.
    func setPin(hash: String, scope: AccessScope) async throws

    /// The bcrypt hash of the PIN of `userID` in `practiceID`, or `nil`.
    func pinHash(userID: UserID, practiceID: PracticeID) async throws -> String?

    /// Remembers a full sign-in of `userID` on `deviceID` (the latest replaces the one before).
    func recordDeviceSignIn(
        deviceID: UUID, userID: UserID, practiceID: PracticeID, secondFactor: Bool, at: Date
    ) async throws

    /// The latest full sign-in of `userID` on `deviceID`, or `nil`.
    func deviceSignIn(deviceID: UUID, userID: UserID, practiceID: PracticeID) async throws -> DeviceSignIn?
}

extension AuditRecord {
    /// A shared device registered (with the idle time after which it locks).
    public static func sharedDeviceRegistered(_ device: SharedDevice) -> AuditRecord {
        AuditRecord(
            action: .sharedDeviceRegister, resourceType: .sharedDevice, resourceID: UUIDText.lowercase(device.id),
            detail: "idle lock \(device.idleLockSeconds) s")
    }
}
