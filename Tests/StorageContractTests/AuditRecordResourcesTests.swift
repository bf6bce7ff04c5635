import Foundation
import Scheduling
import SharedKernel
import Testing
import Triage

@testable import StoragePorts

/// The entries both stores write about a resource name it one way: a practice searching its
/// trail for a patient finds every entry about them, whichever store wrote it and however the
/// request spelled the id.
@Suite("Audit entries name their resource one way")
struct AuditRecordResourcesTests {
    @Test("a patient, a document and a device are named by their lower-case id under their kind")
    func namesInLowerCase() throws {
        let id = try #require(UUID(uuidString: "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"))
        let read = AuditRecord.patient(.recordRead, id)
        #expect(read.resourceType == "patient" && read.resourceID == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        #expect(AuditRecord.document(.recordDocumentDownload, id).resourceID == read.resourceID)
        #expect(AuditRecord.sharedDevice(.sharedDeviceRevoke, id).resourceType == "shared_device")
        #expect(AuditRecord.sharedDevice(.sharedDeviceList).resourceID == nil)
    }

    @Test("a search keeps only how many it found; a board move and a removed passkey say which")
    func details() {
        let search = AuditRecord.patientSearch(results: 3)
        #expect(search.detail == "results=3" && search.resourceID == nil)
        let patientID = UUID()
        #expect(AuditRecord.triageQueueMoved(patientID, to: .inTreatment).detail == "status=inTreatment")
        let passkey = UUID()
        let removed = AuditRecord.passkeyRemoved(passkey, from: UserID())
        #expect(removed.resourceType == "user" && removed.detail == "passkey=\(UUIDText.lowercase(passkey))")
        let room = Room(id: Identifier(), name: "Exam 2", type: .exam, isActive: false)
        #expect(AuditRecord.roomUpdated(room.id, to: room).detail == "out_of_service")
    }
}
