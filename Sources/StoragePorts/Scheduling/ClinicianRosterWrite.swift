import Foundation
import Scheduling
import SharedKernel
import Specialists

/// A change to the practice's clinicians, decided once for both stores: what is valid, the
/// clinician as it is to be stored, the bookings a retirement leaves to re-plan, the audit
/// entry and the event. The store reads what the decision names (the clinician, locked; a
/// retiring clinician's appointments still to come), checks the references only it can see
/// (the staff account, the appointment types), and writes what this returns.
public struct ClinicianRosterWrite: Sendable {
    /// The clinician as it is to be stored, with its next version.
    public let clinician: Versioned<Clinician>
    /// A new clinician's weekly availability, owned by them; `nil` when none was given.
    public let availability: ClinicianAvailability?
    /// A retiring clinician's appointments still to come, by start, for re-planning.
    public let appointmentsToReplan: [Versioned<Appointment>]
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its event (`clinician.created`, `clinician.updated` or `clinician.retired`).
    public let event: DomainEvent

    /// A new, working clinician with their availability when given; a field error in the
    /// availability is named under `availability.`.
    public static func create(
        _ clinician: Clinician, availability: ClinicianAvailability?, scope: AccessScope, now: Date
    ) throws -> ClinicianRosterWrite {
        var created = clinician
        created.retiredAt = nil
        try created.validate()
        var owned = availability
        if let availability {
            do { try availability.validate() } catch {
                throw ValidationError(
                    error.errors.map { FieldError(field: "availability.\($0.field)", message: $0.message) })
            }
            owned?.clinicianID = created.id
        }
        return ClinicianRosterWrite(
            clinician: Versioned(created, version: 1), availability: owned, appointmentsToReplan: [],
            audit: record(.clinicianCreate, created.id, availability == nil ? nil : "with availability"),
            event: created.changeEvent(
                kind: ClinicianEventKind.created, version: 1, practiceID: scope.practiceID, occurredAt: now))
    }

    /// `change` applied to `current` (not found when `nil`; refused unless `expectedVersion`,
    /// when given, is its version; a retired clinician is refused by the domain).
    public static func update(
        _ change: ClinicianChange, current: Versioned<Clinician>?, expectedVersion: Int?, scope: AccessScope,
        now: Date
    ) throws -> ClinicianRosterWrite {
        let current = try checked(current, expectedVersion)
        let next = try current.value.applying(change)
        return ClinicianRosterWrite(
            clinician: Versioned(next, version: current.version + 1), availability: nil, appointmentsToReplan: [],
            audit: record(.clinicianUpdate, next.id, "fields=\(change.fieldNames.joined(separator: ","))"),
            event: next.changeEvent(
                kind: ClinicianEventKind.updated, version: current.version + 1, practiceID: scope.practiceID,
                occurredAt: now))
    }

    /// `current` retired at `now` (checked as for ``update(_:current:expectedVersion:scope:now:)``);
    /// of `booked` — their appointments awaiting a visit — those still open are to be re-planned.
    public static func retire(
        _ current: Versioned<Clinician>?, expectedVersion: Int?, booked: [Versioned<Appointment>],
        scope: AccessScope, now: Date
    ) throws -> ClinicianRosterWrite {
        let current = try checked(current, expectedVersion)
        let retired = try current.value.retiring(at: now)
        let open = booked.filter { $0.value.isOpen(at: now) }
        return ClinicianRosterWrite(
            clinician: Versioned(retired, version: current.version + 1), availability: nil,
            appointmentsToReplan: open,
            audit: record(.clinicianRetire, retired.id, "open_appointments=\(open.count)"),
            event: retired.changeEvent(
                kind: ClinicianEventKind.retired, version: current.version + 1, practiceID: scope.practiceID,
                occurredAt: now))
    }

    private static func checked(_ current: Versioned<Clinician>?, _ expectedVersion: Int?) throws
        -> Versioned<Clinician>
    {
        guard let current else { throw DomainError.notFound(resource: "clinician") }
        if let expectedVersion, expectedVersion != current.version {
            throw DomainError.versionMismatch(current: current.version)
        }
        return current
    }

    private static func record(_ action: AuditAction, _ id: Identifier<Clinician>, _ detail: String?) -> AuditRecord {
        AuditRecord(action: action, resourceType: .clinician, resourceID: id.description, detail: detail)
    }
}

extension ClinicianRosterWrite {
    /// Refuses a clinician whose staff account or preferred appointment types are not the
    /// practice's own, naming each such field. The store looks them up (`accountFound`: the
    /// account, when one is named, is the practice's; `typesFound`: which of the preferred
    /// types are); what counts as a refusal, and its words, are here.
    public static func checkReferences(of clinician: Clinician, accountFound: Bool, typesFound: Set<UUID>) throws {
        var errors = FieldErrorCollector()
        if clinician.userID != nil, !accountFound {
            errors.add("userId", "is not a staff account of this practice")
        }
        for (index, typeID) in clinician.preferences.preferredAppointmentTypeIDs.enumerated()
        where !typesFound.contains(typeID) {
            errors.add(
                "preferences.preferredAppointmentTypeIds[\(index)]", "is not an appointment type of this practice")
        }
        try errors.throwIfAny()
    }
}
