import Foundation
import SharedKernel

// MARK: - Domain events

/// Event kinds the booking context publishes.
public enum AppointmentEventKind {
    /// A new appointment.
    public static let booked = "appointment.booked"
    /// Rescheduled to another time or clinician.
    public static let moved = "appointment.moved"
    /// Called off.
    public static let cancelled = "appointment.cancelled"
    /// The patient arrived.
    public static let checkedIn = "appointment.checked_in"
    /// The consultation began (lets the board show who is with whom).
    public static let started = "appointment.started"
    /// Finished, with the actual duration.
    public static let completed = "appointment.completed"
    /// The patient did not come.
    public static let noShow = "appointment.no_show"
    /// The booking reason or staff notes changed (the event never carries the text).
    public static let notesChanged = "appointment.notes_changed"
    /// A note was added (the event names the note and its author, never the text).
    public static let noteAdded = "appointment.note_added"

    /// Every kind, for subscribers and documentation.
    public static let all = [booked, moved, cancelled, checkedIn, started, completed, noShow, notesChanged, noteAdded]
}

extension AppointmentDecision {
    /// The events this decision should publish. Pure: the caller publishes them on the
    /// ``EventBus`` after persisting. Payloads carry identifiers, times and status only —
    /// never the cancellation reason, which may hold clinical detail.
    public func events(occurredAt: Date) -> [DomainEvent] {
        let appointment = current
        var payload: [String: String] = [
            "appointmentID": appointment.id.description,
            "patientID": UUIDText.lowercase(appointment.patientID),
            "clinicianID": UUIDText.lowercase(appointment.clinicianID),
            "appointmentTypeID": appointment.appointmentTypeID.description,
            "status": appointment.status.rawValue,
            "start": Timestamp.string(appointment.time.start),
            "end": Timestamp.string(appointment.time.end),
        ]
        if let previous, eventKind == AppointmentEventKind.moved {
            payload["previousStart"] = Timestamp.string(previous.time.start)
            payload["previousEnd"] = Timestamp.string(previous.time.end)
            if previous.clinicianID != appointment.clinicianID {
                payload["previousClinicianID"] = UUIDText.lowercase(previous.clinicianID)
            }
        }
        if let minutes = appointment.actualMinutes, eventKind == AppointmentEventKind.completed {
            payload["actualMinutes"] = String(minutes)
        }
        return [
            DomainEvent(
                practiceID: appointment.practiceID, kind: eventKind, occurredAt: occurredAt,
                resourceID: appointment.id.description, payload: payload)
        ]
    }
}

/// Event kinds of whole-schedule work. Each appointment the work books or moves publishes
/// its own event in the same transaction as the change; these summarise the run, so a
/// front desk can say "the afternoon was re-planned" rather than show a burst of moves.
public enum ScheduleEventKind {
    /// An optimizer plan was applied.
    public static let optimized = "schedule.optimized"
    /// A clinician's day was re-planned and the moves applied.
    public static let replanned = "schedule.replanned"

    /// Every kind, for subscribers and documentation.
    public static let all = [optimized, replanned]
}
