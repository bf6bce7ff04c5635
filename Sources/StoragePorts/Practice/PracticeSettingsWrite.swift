import Foundation
import Scheduling
import SharedKernel

/// A change to a practice's settings, decided once for both stores: the version check, the
/// practice after the change, the bookings it strands, its audit entry and its event. The
/// store reads the practice (locked) and, where the decision needs them, the appointments
/// still to come, then writes what this names.
public struct PracticeSettingsWrite: Sendable {
    /// The practice as it is to be stored, with its next version.
    public let practice: Versioned<PracticeProfile>
    /// Appointments still to come that the change leaves outside the opening hours, by start.
    public let stranded: [Versioned<Appointment>]
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its event (`practice.settings_changed`, `practice.closure_added` or `practice.closure_removed`).
    public let event: DomainEvent

    /// Applies `change` to `current` (refused unless `expectedVersion`, when given, is its
    /// version); `open` are the practice's appointments still to come at `now`.
    public static func update(
        _ change: PracticeSettingsChange, current: Versioned<PracticeProfile>, expectedVersion: Int?,
        open: [Versioned<Appointment>], scope: AccessScope, now: Date
    ) throws -> PracticeSettingsWrite {
        try check(current, expectedVersion)
        let next = try current.value.applying(change, openAppointments: open.count)
        let stranded =
            change.openingHours == nil
            ? [] : open.picked(by: { ScheduleImpact.appointments($0, outsideOpeningOf: next, now: now) })
        return PracticeSettingsWrite(
            practice: Versioned(next, version: current.version + 1), stranded: stranded,
            audit: record(
                .practiceUpdate, scope,
                "fields=\(change.fieldNames.joined(separator: ",")) stranded_appointments=\(stranded.count)"),
            event: next.changeEvent(
                kind: PracticeEventKind.settingsChanged, version: current.version + 1, occurredAt: now))
    }

    /// Adds `closure` to `current` (version checked as for ``update(_:current:expectedVersion:open:scope:now:)``).
    public static func addClosure(
        _ closure: PracticeClosure, current: Versioned<PracticeProfile>, expectedVersion: Int?, scope: AccessScope,
        now: Date
    ) throws -> PracticeSettingsWrite {
        try check(current, expectedVersion)
        let next = try current.value.adding(closure)
        return PracticeSettingsWrite(
            practice: Versioned(next, version: current.version + 1), stranded: [],
            audit: record(
                .practiceClosureAdd, scope,
                "closure=\(closure.id) first=\(closure.firstDay) last=\(closure.lastDay) yearly=\(closure.recursYearly)"
            ),
            event: next.changeEvent(
                kind: PracticeEventKind.closureAdded, version: current.version + 1, closure: closure, occurredAt: now))
    }

    /// Removes the closure `id` from `current` (version checked; an unknown closure is not found).
    public static func removeClosure(
        _ id: Identifier<PracticeClosure>, current: Versioned<PracticeProfile>, expectedVersion: Int?,
        scope: AccessScope, now: Date
    ) throws -> PracticeSettingsWrite {
        try check(current, expectedVersion)
        let next = try current.value.removingClosure(id)
        return PracticeSettingsWrite(
            practice: Versioned(next, version: current.version + 1), stranded: [],
            audit: record(.practiceClosureRemove, scope, "closure=\(id)"),
            event: next.changeEvent(
                kind: PracticeEventKind.closureRemoved, version: current.version + 1,
                closure: current.value.closures.first { $0.id == id }, occurredAt: now))
    }

    /// What an added closure (`id`, looked up in the stored `practice`, so a replay finds the
    /// first request's) strands of `open`, and — the first time only, when it strands any —
    /// the audit entry saying so. A closure removed again since is not found.
    public static func closureAdded(
        _ id: String, in practice: Versioned<PracticeProfile>, open: [Versioned<Appointment>], replayed: Bool,
        scope: AccessScope, now: Date
    ) throws -> (addition: ClosureAddition, audit: AuditRecord?) {
        guard let added = practice.value.closures.first(where: { $0.id.description == id }) else {
            throw DomainError.notFound(resource: "closure")
        }
        let zone = TimeZone(identifier: practice.value.timeZone) ?? .gmt
        let affected = open.picked(by: { ScheduleImpact.appointments($0, closedBy: added, timeZone: zone, now: now) })
        let audit =
            replayed || affected.isEmpty
            ? nil
            : record(.practiceClosureAffected, scope, "closure=\(added.id) affected_appointments=\(affected.count)")
        return (ClosureAddition(practice: practice, closure: added, appointmentsToReplan: affected), audit)
    }

    private static func check(_ current: Versioned<PracticeProfile>, _ expectedVersion: Int?) throws {
        if let expectedVersion, expectedVersion != current.version {
            throw DomainError.versionMismatch(current: current.version)
        }
    }

    private static func record(_ action: AuditAction, _ scope: AccessScope, _ detail: String) -> AuditRecord {
        AuditRecord(
            action: action, resourceType: .practice, resourceID: scope.practiceID.description, detail: detail)
    }
}
