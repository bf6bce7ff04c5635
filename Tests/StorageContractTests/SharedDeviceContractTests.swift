import Foundation
import SharedKernel
import StoragePorts
import Testing

/// What PIN unlocks on shared devices rely on, held to every adapter alike.
@Suite("Shared device contract (every store adapter)")
struct SharedDeviceContractTests {
    @Test(
        """
        a device is found by its token inside its practice only, until revoked; PINs and full sign-ins are kept per \
        person
        """,
        arguments: Adapter.available)
    func lifecycle(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (practice, admin) = try await store.accounts.createPractice(
                AccountContractTests.practice("Ward North"),
                administrator: FirstAdministrator(
                    email: "lead@ward-north.example", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let (other, otherAdmin) = try await store.accounts.createPractice(
                AccountContractTests.practice("Ward South"),
                administrator: FirstAdministrator(
                    email: "lead@ward-south.example", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let devices = store.sharedDevices
            let scope = AccessScope(practiceID: practice.id, actorID: admin.id, role: .administrator, requestID: "t")
            let otherScope = AccessScope(
                practiceID: other.id, actorID: otherAdmin.id, role: .administrator, requestID: "t")
            let hash = String(repeating: "c", count: 64)
            let device = try await devices.registerSharedDevice(
                name: "Ward iPad", idleLockSeconds: 90, tokenHash: hash, scope: scope)
            #expect(device.name == "Ward iPad" && device.idleLockSeconds == 90 && device.registeredBy == admin.id)
            #expect(try await devices.sharedDevice(tokenHash: hash, practiceID: practice.id)?.id == device.id)
            #expect(try await devices.sharedDevice(tokenHash: hash, practiceID: other.id) == nil)
            #expect(try await devices.sharedDevices(scope: scope).map(\.id) == [device.id])
            #expect(try await devices.sharedDevices(scope: otherScope).isEmpty)
            await #expect(throws: DomainError.self) {
                try await devices.revokeSharedDevice(id: device.id, scope: otherScope)
            }

            #expect(try await devices.pinHash(userID: admin.id, practiceID: practice.id) == nil)
            try await devices.setPin(hash: "$2b$first", scope: scope)
            try await devices.setPin(hash: "$2b$second", scope: scope)
            #expect(try await devices.pinHash(userID: admin.id, practiceID: practice.id) == "$2b$second")
            #expect(try await devices.pinHash(userID: admin.id, practiceID: other.id) == nil)

            let first = Date(timeIntervalSince1970: 1_800_000_000)
            try await devices.recordDeviceSignIn(
                deviceID: device.id, userID: admin.id, practiceID: practice.id, secondFactor: false, at: first)
            try await devices.recordDeviceSignIn(
                deviceID: device.id, userID: admin.id, practiceID: practice.id, secondFactor: true,
                at: first.addingTimeInterval(60))
            #expect(
                try await devices.deviceSignIn(deviceID: device.id, userID: admin.id, practiceID: practice.id)
                    == DeviceSignIn(at: first.addingTimeInterval(60), secondFactor: true))
            #expect(try await devices.deviceSignIn(deviceID: device.id, userID: admin.id, practiceID: other.id) == nil)

            try await devices.revokeSharedDevice(id: device.id, scope: scope)
            #expect(try await devices.sharedDevice(tokenHash: hash, practiceID: practice.id) == nil)
            #expect(try await devices.sharedDevices(scope: scope).isEmpty)
            await #expect(throws: DomainError.self) {
                try await devices.revokeSharedDevice(id: device.id, scope: scope)
            }
            let actions = try await store.audit.auditEntries(
                scope: .system(practice.id), limit: 100, before: nil, resourceType: nil, resourceID: nil
            ).items.map(\.action)
            #expect(actions.contains(AuditAction.sharedDeviceRegister.name))
            #expect(actions.filter { $0 == AuditAction.authPinSet.name }.count == 2)
            #expect(actions.contains(AuditAction.sharedDeviceRevoke.name))
        }
    }
}
