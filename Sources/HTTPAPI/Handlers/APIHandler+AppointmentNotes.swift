import Foundation
import Scheduling
import SharedKernel
import StoragePorts

extension APIHandler {
    // MARK: - Appointment notes

    func listAppointmentNotes(_ input: Operations.ListAppointmentNotes.Input) async throws
        -> Operations.ListAppointmentNotes.Output
    {
        let caller = try await authorize(
            .book, action: .appointmentNotesRead, resourceType: .appointment, resourceID: input.path.appointmentId)
        let id: Identifier<Appointment> = try Self.identifier(input.path.appointmentId, resource: "appointment")
        let notes = try await store.appointmentNotes(scope: caller.scope, appointmentID: id)
        return .ok(.init(body: .json(.init(items: notes.map(Components.Schemas.AppointmentNote.init)))))
    }

    func addAppointmentNote(_ input: Operations.AddAppointmentNote.Input) async throws
        -> Operations.AddAppointmentNote.Output
    {
        let caller = try await authorize(
            .book, action: .appointmentNoteAdd, resourceType: .appointment, resourceID: input.path.appointmentId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let id: Identifier<Appointment> = try Self.identifier(input.path.appointmentId, resource: "appointment")
        let note = try AppointmentNote.write(
            body.text, on: id, authorID: caller.account.id.description, authorName: caller.account.displayName,
            at: store.clock.now())
        let stored = try await store.addAppointmentNote(
            note, scope: caller.scope,
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(.init(body: .json(.init(stored))))
    }
}

extension Components.Schemas.AppointmentNote {
    init(_ note: AppointmentNote) {
        self.init(
            id: UUIDText.lowercase(note.id), appointmentId: note.appointmentID.description, authorName: note.authorName,
            text: note.text,
            createdAt: note.createdAt)
    }
}
