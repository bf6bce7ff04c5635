import Foundation
import PatientRecords
import SharedKernel

/// Owners, patients and the patient search: the records every screen starts from.
///
/// Every method acts within the scope's practice: another practice's owner or patient is
/// not found, and never appears in a search. Writes are validated by the domain first,
/// audited and recorded in the event log in the same transaction as the change.
///
/// Search is prefix matching, case- and accent-insensitive, over patient and owner names,
/// phone digits, the record number and the microchip. A query's text is matched literally:
/// it is cut into words at anything that is not a letter or digit, and every word must
/// begin some indexed word, so quotes, `*`, `OR` and the like are never query syntax.
/// Results are ordered by patient name (by code point, as stored) then id, and every adapter
/// returns the same pages for the same data.
public protocol PatientDirectory: Sendable {
    /// Creates an owner (validated, audited, idempotent per key); a replay returns the first
    /// result with `replayed` set.
    func createOwner(_ owner: Owner, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws -> (
        Versioned<Owner>, replayed: Bool
    )

    /// One owner of the practice (audited read); ``SharedKernel/DomainError/notFound(resource:)`` otherwise.
    func owner(scope: AccessScope, id: Identifier<Owner>) async throws -> Versioned<Owner>

    /// Creates a patient with the practice's next record number (`P-000001`, …), assigned in
    /// the same transaction; its owners must belong to the practice. A microchip already
    /// recorded for another patient of the practice is a ``SharedKernel/UniquenessConflict``.
    func createPatient(_ patient: Patient, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws -> (
        Versioned<Patient>, replayed: Bool
    )

    /// One patient of the practice (audited read); ``SharedKernel/DomainError/notFound(resource:)`` otherwise.
    func patient(scope: AccessScope, id: Identifier<Patient>) async throws -> Versioned<Patient>

    /// Replaces a patient's details under optimistic concurrency (`expectedVersion`, when
    /// given, must be the stored version); the record number never changes.
    func updatePatient(_ patient: Patient, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<Patient>

    /// A page of the practice's patients matching `query`, ordered by name then id; `cursor`
    /// is the `nextCursor` of the previous page. Audited as one `patient.search` (the text is
    /// not logged: it may hold a name).
    func searchPatients(scope: AccessScope, query: PatientQuery, limit: Int, after cursor: String?) async throws
        -> Page<PatientSummary>
}

extension PatientDirectory {
    /// Creates an owner without an idempotency key (seeding and tests).
    @discardableResult
    public func createOwner(_ owner: Owner, scope: AccessScope) async throws -> Owner {
        try await createOwner(owner, scope: scope, idempotencyKey: nil).0.value
    }

    /// Creates a patient without an idempotency key (seeding and tests).
    @discardableResult
    public func createPatient(_ patient: Patient, scope: AccessScope) async throws -> Patient {
        try await createPatient(patient, scope: scope, idempotencyKey: nil).0.value
    }
}
