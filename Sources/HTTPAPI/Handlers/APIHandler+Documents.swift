import Foundation
import OpenAPIRuntime
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSupport

extension APIHandler {
    func listDocuments(_ input: Operations.ListDocuments.Input) async throws -> Operations.ListDocuments.Output {
        let caller = try await authorize(
            .readRecords, action: .recordDocumentList, resourceType: .patient, resourceID: input.path.patientId)
        let documents = try await store.documents(
            patientID: try Self.identifier(input.path.patientId, resource: "patient"), scope: caller.scope)
        return .ok(.init(body: .json(.init(items: documents.map(Components.Schemas.Document.init)))))
    }

    func uploadDocument(_ input: Operations.UploadDocument.Input) async throws -> Operations.UploadDocument.Output {
        let caller = try await authorize(
            .writeRecords, action: .recordDocumentUpload, resourceType: .patient, resourceID: input.path.patientId)
        let (type, body): (String, HTTPBody) =
            switch input.body {
            case .pdf(let body): ("application/pdf", body)
            case .png(let body): ("image/png", body)
            case .jpeg(let body): ("image/jpeg", body)
            }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        // Checked before a byte of the body is read; then the body is encrypted to disk as it
        // arrives, so an upload holds one 64 KiB chunk in memory, not the whole document.
        let upload = try await store.beginDocument(
            patientID: patientID, fileName: input.query.fileName, declaredType: type, scope: caller.scope)
        do {
            for try await chunk in body { try upload.append(chunk) }
        } catch let tooLarge as DocumentTooLarge {
            throw APIError.payloadTooLarge(limit: tooLarge.limit)
        }
        let info = try await store.addDocument(
            upload, patientID: patientID, fileName: input.query.fileName, declaredType: type, scope: caller.scope)
        return .created(.init(body: .json(.init(info))))
    }

    func downloadDocument(_ input: Operations.DownloadDocument.Input) async throws -> Operations.DownloadDocument.Output
    {
        let caller = try await authorize(
            .readRecords, action: .recordDocumentDownload, resourceType: .document, resourceID: input.path.documentId)
        let id = try UUIDText.parse(input.path.documentId).orNotFound("document")
        let (info, data) = try await store.document(
            id: id, patientID: try Self.identifier(input.path.patientId, resource: "patient"), scope: caller.scope)
        let body = HTTPBody(data)
        switch DocumentKind(rawValue: info.contentType) {
        case .png: return .ok(.init(body: .png(body)))
        case .jpeg: return .ok(.init(body: .jpeg(body)))
        case .pdf, nil: return .ok(.init(body: .pdf(body)))
        }
    }

    func purgeArchived(_ input: Operations.PurgeArchived.Input) async throws -> Operations.PurgeArchived.Output {
        let caller = try await authorize(.administerData, action: .patientPurge, resourceType: .patient)
        // The contract refuses a missing or different confirmation before the handler runs;
        // checked again here because nothing may be deleted without it.
        guard case .json(let body) = input.body, body.confirm == .purge else {
            throw ValidationError(field: "confirm", message: #"is required to confirm this action ("purge")"#)
        }
        // Without a period in the request, the practice's own retention setting applies.
        var retention = input.query.retentionYears
        if retention == nil { retention = try await store.practice(scope: caller.scope).retentionYears }
        let summary = try await store.purgeArchivedPatients(
            scope: caller.scope, retentionYears: retention ?? RetentionPeriod.standard.years)
        return .ok(
            .init(
                body: .json(
                    .init(
                        purged: summary.patients, retentionYears: summary.retention.years,
                        appointments: summary.appointments,
                        futureAppointments: summary.futureAppointments, assessments: summary.assessments,
                        documents: summary.documents))))
    }
}

extension Components.Schemas.Document {
    init(_ info: DocumentInfo) {
        self.init(
            id: UUIDText.lowercase(info.id), patientId: info.patientID.description, fileName: info.fileName,
            contentType: info.contentType,
            byteCount: info.byteCount, sha256: info.sha256, createdAt: info.createdAt)
    }
}
