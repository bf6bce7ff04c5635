import Foundation
import PracticeServices
import SharedKernel
import StoragePorts

// Conversions between domain values and the generated wire types, in one place.

extension Components.Schemas.User {
    init(_ account: StaffAccount) {
        self.init(
            id: account.id.description, practiceId: account.practiceID.description, email: account.email,
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
    init(_ practice: PracticeProfile, version: Int? = nil) {
        self.init(
            id: practice.id.description, name: practice.name, timeZone: practice.timeZone,
            openingHours: practice.openingHours.map {
                .init(
                    weekday: $0.weekday, opens: WallClock.text($0.opensMinute), closes: WallClock.text($0.closesMinute))
            },
            phone: practice.phone, address: practice.address,
            closures: practice.closures.map(Components.Schemas.Closure.init),
            slotGridMinutes: practice.slotGridMinutes, defaultBufferMinutes: practice.defaultBufferMinutes,
            services: practice.services.map(\.rawValue), retentionYears: practice.retentionYears,
            secondFactorRoles: practice.secondFactorRoles.map(Components.Schemas.Role.init), version: version)
    }

    init(_ stored: Versioned<PracticeProfile>) { self.init(stored.value, version: stored.version) }
}

extension Components.Schemas.Closure {
    init(_ closure: PracticeClosure) {
        self.init(
            id: closure.id.description, firstDay: closure.firstDay.description, lastDay: closure.lastDay.description,
            from: WallClock.text(closure.fromMinute), until: WallClock.text(closure.untilMinute),
            wholeDay: closure.isWholeDay,
            recursYearly: closure.recursYearly, reason: closure.reason)
    }
}

/// Wall-clock times on the wire: `HH:mm`, with `24:00` for the midnight that ends a day.
enum WallClock {
    /// `09:05` for 545; `24:00` for 1440.
    static func text(_ minute: Int) -> String {
        let clamped = min(max(minute, 0), 1440)
        return String(format: "%02d:%02d", clamped / 60, clamped % 60)
    }

    /// Minutes after midnight of `HH:mm` (`24:00` allowed when `allowEndOfDay`); the field is
    /// named when the text is not such a time.
    static func minutes(_ text: String, field: String, allowEndOfDay: Bool, errors: inout FieldErrorCollector) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60,
            hours < 24 || (allowEndOfDay && hours == 24 && minutes == 0)
        else {
            errors.add(
                field,
                allowEndOfDay
                    ? "must be a local time HH:mm from 00:00 to 24:00"
                    : "must be a local time HH:mm from 00:00 to 23:59")
            return nil
        }
        return hours * 60 + minutes
    }
}

extension Components.Schemas.AuditEntry {
    init(_ entry: AuditEntry) {
        self.init(
            sequence: entry.sequence, id: UUIDText.lowercase(entry.id),
            occurredAt: Timestamp.date(entry.occurredAt) ?? Date(timeIntervalSince1970: 0),
            practiceId: entry.practiceID, actorId: entry.actorID, action: entry.action,
            resourceType: entry.resourceType,
            resourceId: entry.resourceID, outcome: .init(rawValue: entry.outcome.rawValue)!, requestId: entry.requestID,
            detail: entry.detail, hash: entry.hash)
    }
}
