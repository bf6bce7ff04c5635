import Foundation
import SharedKernel

// MARK: - Legal transitions

extension AppointmentStatus {
    /// The only legal moves:
    /// - `booked → booked` (reschedule), `booked → checkedIn`, `booked → cancelled`, `booked → noShow`;
    /// - `checkedIn → inProgress`, `checkedIn → cancelled` (the owner leaves before being seen,
    ///   or the clinician is called to an emergency; a reason is required as for any cancellation);
    /// - `inProgress → completed`.
    ///
    /// A checked-in patient is never a no-show (they came), an appointment in progress is
    /// completed rather than cancelled (time was spent and is recorded), and the terminal
    /// states `completed`, `cancelled`, `noShow` have no way out: rebooking is a new appointment.
    public static let legalTransitions: [(from: AppointmentStatus, to: AppointmentStatus)] = [
        (.booked, .booked), (.booked, .checkedIn), (.booked, .cancelled), (.booked, .noShow),
        (.checkedIn, .inProgress), (.checkedIn, .cancelled),
        (.inProgress, .completed),
    ]

    /// Whether moving from `self` to `next` is legal.
    public func canTransition(to next: AppointmentStatus) -> Bool {
        Self.legalTransitions.contains { $0.from == self && $0.to == next }
    }

    /// What staff may do with an appointment in this status, in the order offered (clients
    /// read it from the API instead of keeping a copy of the table).
    public var allowedActions: [AppointmentAction] {
        AppointmentAction.allCases.filter { canTransition(to: $0.targetStatus) }
    }
}

/// A kind of ``AppointmentCommand`` by its wire name, without its data: what a client offers.
public enum AppointmentAction: String, CaseIterable, Sendable {
    case checkIn = "check_in"
    case start
    case complete
    case reschedule
    case cancel
    case noShow = "no_show"

    /// The status the action leads to.
    public var targetStatus: AppointmentStatus {
        switch self {
        case .reschedule: return .booked
        case .checkIn: return .checkedIn
        case .start: return .inProgress
        case .complete: return .completed
        case .cancel: return .cancelled
        case .noShow: return .noShow
        }
    }

    /// Whether the server checks the action against the rest of the schedule (other bookings,
    /// closures, the rota): only a move does. Any other action depends on the appointment
    /// alone, so a device that is offline may keep it and send it later.
    public var checksTheSchedule: Bool { self == .reschedule }

    /// The words of the button that takes the action.
    public var label: String {
        switch self {
        case .checkIn: return "Check in"
        case .start: return "Start"
        case .complete: return "Complete"
        case .reschedule: return "Move"
        case .cancel: return "Cancel"
        case .noShow: return "No-show"
        }
    }
}

// MARK: - Commands, decisions, errors

/// What staff ask of an appointment.
public enum AppointmentCommand: Hashable, Sendable {
    /// Move to a new time (and optionally another clinician); stays `booked`.
    case reschedule(to: TimeRange, clinicianID: UUID?)
    /// The patient has arrived.
    case checkIn
    /// The consultation begins.
    case start
    /// The consultation ends; `actualMinutes` overrides the measured time since ``start``.
    case complete(actualMinutes: Int?)
    /// Call the appointment off; the reason must not be blank.
    case cancel(reason: String)
    /// The patient did not come; only at or after the scheduled start.
    case markNoShow

    /// The status the command leads to.
    public var targetStatus: AppointmentStatus { action.targetStatus }

    /// The command's kind.
    public var action: AppointmentAction {
        switch self {
        case .reschedule: return .reschedule
        case .checkIn: return .checkIn
        case .start: return .start
        case .complete: return .complete
        case .cancel: return .cancel
        case .markNoShow: return .noShow
        }
    }
}

/// A decided change: the appointment before (nil for a new booking) and after, and the
/// event kind to publish. The caller persists ``current`` and publishes ``events(occurredAt:)``.
public struct AppointmentDecision: Hashable, Sendable {
    /// State before; `nil` when the decision creates the appointment.
    public var previous: Appointment?
    /// State after.
    public var current: Appointment
    /// Event kind (``AppointmentEventKind``).
    public var eventKind: String

    /// Creates a decision.
    public init(previous: Appointment?, current: Appointment, eventKind: String) {
        self.previous = previous
        self.current = current
        self.eventKind = eventKind
    }
}

/// Why a lifecycle command was refused.
public enum AppointmentLifecycleError: Error, Hashable, Sendable {
    /// The move is not one of ``AppointmentStatus/legalTransitions``.
    case illegalTransition(from: AppointmentStatus, to: AppointmentStatus)
    /// A no-show cannot be recorded before the appointment was due to start.
    case noShowBeforeStart(scheduledStart: Date)
    /// The command's data is invalid (blank reason, new time in the past, bad minutes).
    case invalid(ValidationError)

    /// The shared-kernel error for the HTTP edge (409); `nil` for ``invalid(_:)``, which maps to 422 via
    /// ``validationError``.
    public var domainError: DomainError? {
        switch self {
        case .illegalTransition(let from, let to):
            return .conflict("illegal appointment transition \(from.rawValue) -> \(to.rawValue)")
        case .noShowBeforeStart: return .conflict("a no-show can only be recorded once the appointment was due")
        case .invalid: return nil
        }
    }

    /// The field errors, for ``invalid(_:)``.
    public var validationError: ValidationError? {
        if case .invalid(let error) = self { return error }
        return nil
    }
}
