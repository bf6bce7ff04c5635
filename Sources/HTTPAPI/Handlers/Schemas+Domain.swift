import Foundation
import SharedKernel
import StorageSQLite

// Conversions between domain values and the generated wire types, in one place.

extension Components.Schemas.User {
    init(_ account: StaffAccount) {
        self.init(id: account.id.description, practiceId: account.practiceID.description, email: account.email,
                  displayName: account.displayName, role: .init(account.role), disabled: account.disabled,
                  createdAt: account.createdAt, version: account.version)
    }
}

extension Components.Schemas.Role {
    init(_ role: Role) { self = Self(rawValue: role.rawValue)! }
}

extension Role {
    init(_ role: Components.Schemas.Role) { self = Role(rawValue: role.rawValue)! }
}

extension Components.Schemas.Practice {
    init(_ practice: PracticeProfile) {
        func clock(_ minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }
        self.init(id: practice.id.description, name: practice.name, timeZone: practice.timeZone,
                  openingHours: practice.openingHours.map { .init(weekday: $0.weekday, opens: clock($0.opensMinute), closes: clock($0.closesMinute)) },
                  phone: practice.phone, address: practice.address)
    }
}

extension Components.Schemas.AuditEntry {
    init(_ entry: AuditEntry) {
        self.init(sequence: entry.sequence, id: UUIDText.lowercase(entry.id), occurredAt: Timestamp.date(entry.occurredAt) ?? Date(timeIntervalSince1970: 0),
                  practiceId: entry.practiceID, actorId: entry.actorID, action: entry.action, resourceType: entry.resourceType,
                  resourceId: entry.resourceID, outcome: .init(rawValue: entry.outcome.rawValue)!, requestId: entry.requestID,
                  detail: entry.detail, hash: entry.hash)
    }
}
