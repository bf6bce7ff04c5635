import Foundation
import SharedKernel

/// Where an appointment is in its life. Raw values are the wire and store spelling.
public enum AppointmentStatus: String, CaseIterable, Codable, Sendable {
    /// On the schedule, patient not yet arrived.
    case booked
    /// Patient has arrived.
    case checkedIn = "checked_in"
    /// With the clinician.
    case inProgress = "in_progress"
    /// Finished; the actual duration is recorded.
    case completed
    /// Called off, with a reason.
    case cancelled
    /// The patient did not come.
    case noShow = "no_show"

    /// Whether the appointment still holds its clinician's and room's time. Cancelled and
    /// no-show appointments release it, so the rest of a missed slot can take a walk-in.
    public var holdsTime: Bool {
        switch self {
        case .booked, .checkedIn, .inProgress, .completed: return true
        case .cancelled, .noShow: return false
        }
    }

    /// Whether no further transition is possible.
    public var isTerminal: Bool { self == .completed || self == .cancelled || self == .noShow }

    /// Whether the patient came: checked in, being seen, or seen (a visit for "first visit" and
    /// "last seen").
    public var isAttended: Bool { self == .checkedIn || self == .inProgress || self == .completed }

    /// Whether the patient is still expected: booked or checked in, not yet being seen (what a
    /// closure or a retired clinician leaves to re-plan, and "next appointment").
    public var isAwaitingVisit: Bool { self == .booked || self == .checkedIn }

    /// Whether the appointment is still open: not finished, cancelled or missed.
    public var isOpen: Bool { !isTerminal }

    /// The words staff read for the status (the catalogue serves them to every client).
    public var label: String {
        switch self {
        case .booked: return "Booked"
        case .checkedIn: return "Checked in"
        case .inProgress: return "In progress"
        case .completed: return "Completed"
        case .cancelled: return "Cancelled"
        case .noShow: return "No-show"
        }
    }

    /// The statuses for which `property` holds, as an SQL list (`'booked', 'checked_in'`): how a
    /// store's query asks for a set the domain defines, instead of keeping its own copy.
    public static func sqlList(where property: (AppointmentStatus) -> Bool) -> String {
        allCases.filter(property).map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}

/// A booked appointment: who, with whom, when, where, and its lifecycle record.
///
/// Patients and clinicians live in other contexts, so they are referenced by UUID (the caller
/// passes `Identifier.rawValue`). Buffer and room type are copied from the appointment type
/// when booking, so changing the type later never moves existing bookings.
public struct Appointment: Hashable, Codable, Sendable {
    /// Identifier.
    public var id: Identifier<Appointment>
    /// The practice (tenant).
    public var practiceID: PracticeID
    /// The patient.
    public var patientID: UUID
    /// The clinician.
    public var clinicianID: UUID
    /// The kind of appointment.
    public var appointmentTypeID: Identifier<AppointmentType>
    /// Room type it needs, if any.
    public var roomType: RoomType?
    /// The specific room, once allocated.
    public var roomID: Identifier<Room>?
    /// Scheduled time, `[start, end)`.
    public var time: TimeRange
    /// Minutes kept free after ``time`` for the clinician and room.
    public var bufferAfterMinutes: Int
    /// Current status.
    public var status: AppointmentStatus
    /// When the patient checked in.
    public var checkedInAt: Date?
    /// When the consultation started.
    public var startedAt: Date?
    /// When it was completed.
    public var completedAt: Date?
    /// Actual length in minutes, recorded on completion (feeds the duration predictor).
    public var actualMinutes: Int?
    /// Why it was cancelled.
    public var cancellationReason: String?

    /// Creates an appointment in any state (for loading from a store); new bookings go through
    /// ``Appointment/book(id:practiceID:patientID:clinicianID:type:start:durationMinutes:roomID:now:)``.
    public init(
        id: Identifier<Appointment> = .init(), practiceID: PracticeID, patientID: UUID, clinicianID: UUID,
        appointmentTypeID: Identifier<AppointmentType>, roomType: RoomType? = nil, roomID: Identifier<Room>? = nil,
        time: TimeRange, bufferAfterMinutes: Int = 0, status: AppointmentStatus = .booked,
        checkedInAt: Date? = nil, startedAt: Date? = nil, completedAt: Date? = nil,
        actualMinutes: Int? = nil, cancellationReason: String? = nil
    ) {
        self.id = id
        self.practiceID = practiceID
        self.patientID = patientID
        self.clinicianID = clinicianID
        self.appointmentTypeID = appointmentTypeID
        self.roomType = roomType
        self.roomID = roomID
        self.time = time
        self.bufferAfterMinutes = bufferAfterMinutes
        self.status = status
        self.checkedInAt = checkedInAt
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.actualMinutes = actualMinutes
        self.cancellationReason = cancellationReason
    }

    /// Scheduled length in whole minutes.
    public var durationMinutes: Int { Int((time.duration / 60).rounded(.up)) }

    /// The time the appointment keeps its clinician and room from other bookings: its
    /// scheduled time plus the buffer after it.
    public var occupiedTime: TimeRange {
        TimeRange(start: time.start, end: time.end.addingTimeInterval(TimeInterval(bufferAfterMinutes * 60)))!
    }
}
