import Foundation
import PatientRecords
import SharedKernel
import StorageSQLite
import Testing

@Suite("Retention purge")
struct PurgeTests {
    @Test("only patients archived longer than the retention period are purged, with their notes, and each purge is audited")
    func purge() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let old = try await fixture.store.createPatient(Patient(name: "Old", species: .dog, ownerID: owner.id), scope: scope)
        let recent = try await fixture.store.createPatient(Patient(name: "Recent", species: .dog, ownerID: owner.id), scope: scope)
        let active = try await fixture.store.createPatient(Patient(name: "Active", species: .dog, ownerID: owner.id), scope: scope)
        try await fixture.store.addRecordEntry(.note(ClinicalNote(patientID: old.id, author: NoteAuthor(id: fixture.adminA.id, displayName: "A"),
                                                                  createdAt: fixture.clock.clock.now(), subjective: "s", objective: "o",
                                                                  assessment: "a", plan: "p")), patientID: old.id, scope: scope)
        var archived = old
        archived.status = .archived
        _ = try await fixture.store.updatePatient(archived, scope: scope, expectedVersion: nil)
        fixture.clock.advance(8 * 365 * 86_400)
        var archivedRecently = recent
        archivedRecently.status = .archived
        _ = try await fixture.store.updatePatient(archivedRecently, scope: scope, expectedVersion: nil)

        let purged = try await fixture.store.purgeArchivedPatients(scope: scope, retention: 7 * 365.25 * 86_400)
        #expect(purged == 1)
        await #expect(throws: DomainError.notFound(resource: "patient")) { _ = try await fixture.store.patient(scope: scope, id: old.id) }
        _ = try await fixture.store.patient(scope: scope, id: recent.id)
        _ = try await fixture.store.patient(scope: scope, id: active.id)
        let audit = try await fixture.store.auditEntries(scope: scope, limit: 200, before: nil).items
        #expect(audit.filter { $0.action == "patient.purge" }.map(\.resourceID) == [old.id.description])
        #expect(try await fixture.store.verifyAuditChain().isIntact)
    }
}
