import Foundation
import SharedKernel

// MARK: - Bookings a change leaves stranded

extension Appointment {
    /// Whether the appointment is still to happen at `now`: booked or checked in, not yet over.
    /// These are the ones a change of clinician or of opening times must move; those in progress,
    /// completed, cancelled or missed are history.
    public func isOpen(at now: Date) -> Bool {
        (status == .booked || status == .checkedIn) && time.end > now
    }
}

/// Which bookings a change to the practice or a clinician strands. Pure: the caller reads the
/// appointments and reports the answer for re-planning; nothing is moved or cancelled silently.
public enum ScheduleImpact {
    /// Open appointments (see ``Appointment/isOpen(at:)``) that fall, even partly, into a time
    /// `closure` keeps the practice closed, in start order.
    public static func appointments(
        _ appointments: [Appointment], closedBy closure: PracticeClosure, timeZone: TimeZone,
        now: Date
    ) -> [Appointment] {
        appointments.filter { appointment in
            appointment.isOpen(at: now)
                && !closure.closedIntervals(overlapping: appointment.time, timeZone: timeZone).isEmpty
        }
        .sorted { $0.time.start < $1.time.start }
    }

    /// Open appointments that no longer lie wholly inside the practice's opening hours less its
    /// closures (after the hours or closures changed), in start order.
    public static func appointments(
        _ appointments: [Appointment], outsideOpeningOf practice: PracticeProfile, now: Date
    ) -> [Appointment] {
        guard let zone = TimeZone(identifier: practice.timeZone) else { return [] }
        let calendar = PracticeCalendar(timeZone: zone)
        return appointments.filter { appointment in
            guard appointment.isOpen(at: now) else { return false }
            let open = practice.closures.removingClosedTime(
                from: calendar.openIntervals(practice.openingHours, overlapping: appointment.time), timeZone: zone)
            return !open.contains { $0.contains(appointment.time) }
        }
        .sorted { $0.time.start < $1.time.start }
    }
}
