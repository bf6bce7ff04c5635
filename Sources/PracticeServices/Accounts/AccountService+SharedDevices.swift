import Foundation
import SharedKernel
import StoragePorts

/// The token a registered shared device holds in its `vetnet_workstation` cookie: its
/// practice (which is no secret, and says where to look the token up) and 256 random bits,
/// stored only as their SHA-256.
package struct WorkstationToken: Sendable, Equatable {
    /// The practice the device belongs to.
    package let practiceID: PracticeID
    /// The secret part.
    package let secret: String

    /// A new token for a device of `practiceID`.
    package static func generate(for practiceID: PracticeID) -> WorkstationToken {
        WorkstationToken(practiceID: practiceID, secret: SessionToken.generate())
    }

    /// The cookie's value.
    package var cookieValue: String { "\(practiceID).\(secret)" }
    /// The stored form of the secret.
    package var hash: String { SessionToken.hash(secret) }

    /// The token of a cookie value; `nil` for anything that is not one.
    package static func parse(_ text: String?) -> WorkstationToken? {
        guard let text, text.count <= 120, let dot = text.firstIndex(of: ".") else { return nil }
        guard let uuid = UUIDText.parse(String(text[..<dot])) else { return nil }
        let secret = String(text[text.index(after: dot)...])
        guard secret.count >= 32,
            secret.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        return WorkstationToken(practiceID: PracticeID(uuid), secret: secret)
    }
}

extension AccountService {
    /// A device registered as a shared workstation, with the token for its cookie (given once).
    public struct DeviceRegistration: Sendable {
        /// The device.
        public let device: SharedDevice
        /// The cookie's value (``WorkstationToken``).
        package let cookieValue: String
    }

    /// Registers the caller's browser as a shared workstation of their practice; the caller
    /// holds `manageStaff` (checked by the caller).
    public func registerSharedDevice(name: String, idleLockSeconds: Int?, by caller: Caller) async throws
        -> DeviceRegistration
    {
        let idle = idleLockSeconds ?? SharedDevicePolicy.defaultIdleLockSeconds
        try SharedDevicePolicy.validateRegistration(name: name, idleLockSeconds: idle)
        let token = WorkstationToken.generate(for: caller.account.practiceID)
        let device = try await store.registerSharedDevice(
            name: name.trimmingCharacters(in: .whitespaces), idleLockSeconds: idle, tokenHash: token.hash,
            scope: caller.scope)
        return DeviceRegistration(device: device, cookieValue: token.cookieValue)
    }

    /// The registered device a browser's workstation cookie names, if it is one in use.
    package func sharedDevice(cookie: String?) async throws -> SharedDevice? {
        guard let token = WorkstationToken.parse(cookie) else { return nil }
        return try await store.sharedDevice(tokenHash: token.hash, practiceID: token.practiceID)
    }

    /// Sets the caller's PIN for the practice's shared devices, after checking their password
    /// again and the PIN's form (``SharedKernel/SharedDevicePolicy/validatePin(_:)``).
    public func setPin(_ pin: String, password: String, for caller: Caller, clientAddress: String) async throws {
        try SharedDevicePolicy.validatePin(pin)
        try await checkPassword(of: caller, password: password, clientAddress: clientAddress)
        try await store.setPin(hash: await hasher.hash(pin), scope: caller.scope)
    }

    /// Remembers a full sign-in on the registered device `workstation` names, when it is one
    /// of the account's practice: the PIN works there for the next 12 hours.
    func rememberFullSignIn(_ account: StaffAccount, assurance: SessionAssurance, workstation: String?, at now: Date)
        async throws
    {
        guard !assurance.mustEnrolSecondFactor, let token = WorkstationToken.parse(workstation),
            token.practiceID == account.practiceID,
            let device = try await store.sharedDevice(tokenHash: token.hash, practiceID: token.practiceID)
        else { return }
        try await store.recordDeviceSignIn(
            deviceID: device.id, userID: account.id, practiceID: account.practiceID,
            secondFactor: assurance.secondFactor, at: now)
    }

    /// Unlocks a registered shared device for the staff member of `email` with their PIN or
    /// one of their passkeys: a new session, audited with the device. Refused on any other
    /// device (never checking the PIN or passkey), without a PIN, and more than 12 hours after
    /// their last full sign-in on this device; wrong PINs and refused passkeys count against
    /// the sign-in limits of the account and the device. A passkey proves a second factor.
    package func unlock(
        email: String, pin: String?, passkey: PasskeyAssertion? = nil, workstation: String?, clientAddress: String,
        deviceCookie: String?, requestID: String
    ) async throws -> SignedIn {
        let now = store.clock.now()
        let unregistered = ServiceRefusal.unauthorized(
            "A PIN works only on a device the practice registered as shared. Sign in with your password.")
        guard let token = WorkstationToken.parse(workstation) else { throw unregistered }
        let ticket: LoginThrottle.Ticket
        switch try await throttle.reserve(
            account: email, address: clientAddress, device: "workstation " + token.hash, now: now)
        {
        case .refused(let wait, let audit):
            if let audit {
                try await store.recordAudit(
                    AuditRecord(action: .authUnlock, resourceType: .session, outcome: .denied, detail: audit),
                    scope: nil)
            }
            throw ServiceRefusal.tooManyRequests(retryAfterSeconds: wait)
        case .proceed(let reserved, _): ticket = reserved
        }
        let device: SharedDevice
        let account: StaffAccount?
        let pinHash: String?
        do {
            guard let found = try await store.sharedDevice(tokenHash: token.hash, practiceID: token.practiceID) else {
                await throttle.settle(ticket, as: .abandoned)
                throw unregistered
            }
            device = found
            account = try await store.credentials(email: email).first {
                $0.account.practiceID == token.practiceID && !$0.account.disabled
            }?.account
            if let account {
                pinHash = try await store.pinHash(userID: account.id, practiceID: account.practiceID)
            } else {
                pinHash = nil
            }
        } catch let refusal as ServiceRefusal {
            throw refusal
        } catch {
            await throttle.settle(ticket, as: .abandoned)
            throw error
        }
        let place = "shared device '\(device.name)' (\(UUIDText.lowercase(device.id)))"
        var opened: Bool
        var failure = "wrong PIN or no PIN"
        var how = "PIN"
        if let passkey {
            opened = false
            failure = "passkey of another account or none"
            if let account {
                switch try await passkeyProof(passkey, of: account, at: now) {
                case .success(let used):
                    opened = true
                    how = "passkey '\(used.name)' (\(UUIDText.lowercase(used.id)))"
                case .failure(let refusal): failure = "passkey refused: \(refusal.field) \(refusal.reason)"
                }
            }
        } else {
            // An unknown address or one without a PIN costs a check too, so timing tells nothing.
            opened = await hasher.verify(pin ?? "", against: pinHash ?? PasswordHasher.decoyHash) && pinHash != nil
        }
        guard let account, opened else {
            await throttle.settle(ticket, as: .failed)
            try await store.recordAudit(
                AuditRecord(
                    action: .authUnlock, resourceType: .session, resourceID: account?.id.description,
                    outcome: .failure, detail: "\(failure) on \(place)"),
                scope: account.map { Self.scope(of: $0, requestID: requestID) }
                    ?? .system(token.practiceID, requestID: requestID))
            throw ServiceRefusal.unauthorized(
                passkey == nil ? "The email or PIN is incorrect." : "That passkey does not unlock this account.")
        }
        let last = try await store.deviceSignIn(deviceID: device.id, userID: account.id, practiceID: account.practiceID)
        let required = try await store.practice(id: account.practiceID)?.requiresSecondFactor(account.role) ?? false
        let provenNow = passkey != nil
        guard let last, SharedDevicePolicy.pinUsable(fullSignInAt: last.at, now: now),
            !required || last.secondFactor || provenNow
        else {
            await throttle.settle(ticket, as: .abandoned)
            throw ServiceRefusal.fullSignInRequired(
                "Sign in with your password on this device: a PIN works here for 12 hours after a full sign-in.")
        }
        await throttle.settle(ticket, as: .succeeded)
        let assurance = SessionAssurance(secondFactor: last.secondFactor || provenNow)
        let sessionToken = SessionToken.generate()
        let expiresAt = try await store.createSession(
            tokenHash: SessionToken.hash(sessionToken), account: account, assurance: assurance, policy: policy,
            requestID: requestID, detail: "\(how) on \(place)")
        return SignedIn(
            token: sessionToken, expiresAt: expiresAt, account: account, assurance: assurance,
            deviceCookie: devices.remember(email, on: devices.parse(deviceCookie)))
    }
}
