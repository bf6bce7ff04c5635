import Foundation
import Scheduling
import SharedKernel
import Specialists

/// Translates a practice's calendar into the optimizer's minute-based problem and back.
///
/// Minute 0 is local midnight of the first day, so the optimizer's "day = minute / 1440"
/// is the practice's local day (off by the hour only on the two daylight-saving days).
package struct PracticeProblem: Sendable {
    /// Start of the horizon (local midnight of the first day).
    package let origin: Date
    /// The optimizer's problem.
    package let problem: SchedulingProblem

    /// Rooms types an appointment type can need; types needing none share a pseudo-type
    /// with as many "rooms" as clinicians, so rooms never limit them.
    package static let noRoom = "none"
    /// The skill every clinician has: requests whose type needs no specialty ask for it.
    package static let anySpecialty = "any"

    /// VTL level (1 red … 5 blue) as the optimizer's urgency (5 most urgent) and weight.
    package static func urgency(forLevel level: Int) -> (urgency: Int, weight: Int) {
        let urgency = 6 - min(max(level, 1), 5)
        return (urgency, SchedulingRequest.weight(forUrgency: urgency))
    }

    package func minute(_ date: Date) -> Int { Int((date.timeIntervalSince(origin) / 60).rounded(.down)) }
    package func date(_ minute: Int) -> Date { origin.addingTimeInterval(Double(minute) * 60) }

    /// Builds the problem over `days` local days from `from`'s day: clinicians with their
    /// skills, shifts (availability less breaks and time off), caps and fair-share targets;
    /// rooms by type; the requests; and every time-holding appointment as a fixed booking
    /// (except those in `releasing`, which are being re-planned).
    package init(
        snapshot: SchedulingService.Snapshot, from: Date, days: Int, requests: [SchedulingRequest],
        excluding releasing: Set<Identifier<Appointment>> = [], excludingClinician: UUID? = nil
    ) {
        let origin = snapshot.finder.calendar.day(containing: from).start
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = snapshot.timeZone
        let end = calendar.date(byAdding: .day, value: days, to: origin)!
        let horizon = TimeRange(start: origin, end: end)!
        let toMinute = { (date: Date) in Int((date.timeIntervalSince(origin) / 60).rounded(.down)) }
        let demand = requests.reduce(0) { $0 + $1.duration }

        let shifts = snapshot.clinicians.map { clinician -> [MinuteInterval] in
            guard clinician.id.rawValue != excludingClinician else { return [] }
            return snapshot.workingWindows(clinician.id, overlapping: horizon)
                .map { MinuteInterval(start: toMinute($0.start), end: toMinute($0.end)) }
        }
        let capacity = shifts.map { $0.reduce(0) { $0 + $1.end - $1.start } }
        let totalCapacity = max(capacity.reduce(0, +), 1)
        let clinicians = snapshot.clinicians.enumerated().map { index, clinician in
            SchedulingClinician(
                id: clinician.id.description,
                skills: Dictionary(
                    clinician.expertise.map { ($0.specialty.rawValue, $0.proficiency) }
                        + [(Self.anySpecialty, clinician.expertise.map(\.proficiency).max() ?? 1)],
                    uniquingKeysWith: max),
                maxDaily: clinician.maxAppointmentsPerDay, shifts: shifts[index],
                targetMinutes: demand * capacity[index] / totalCapacity)
        }
        var roomCounts = Dictionary(grouping: snapshot.rooms.filter(\.isActive), by: \.type).mapValues(\.count)
            .map { SchedulingRoomType(id: $0.key.rawValue, count: $0.value) }
        roomCounts.append(SchedulingRoomType(id: Self.noRoom, count: max(snapshot.clinicians.count, 1)))
        let fixed = snapshot.appointments.filter {
            $0.status.holdsTime && !releasing.contains($0.id) && $0.occupiedTime.overlaps(horizon)
        }.map {
            SchedulingFixedBooking(
                id: $0.id.description, clinicianID: Identifier<Clinician>($0.clinicianID).description,
                interval: MinuteInterval(start: toMinute($0.time.start), end: toMinute($0.occupiedTime.end)),
                roomType: $0.roomType?.rawValue)
        }
        // A retired clinician's bookings still hold their rooms and times until the practice
        // re-plans them: they stay fixed, under a clinician with no hours (and no daily cap, so
        // the bookings they already have break no limit), so nothing new is placed with them
        // and the problem still names every booking's clinician.
        let known = Set(clinicians.map(\.id))
        let retired = Set(fixed.map(\.clinicianID)).subtracting(known).sorted().map {
            SchedulingClinician(id: $0, skills: [:], maxDaily: SchedulingLimits.maxCount, shifts: [], targetMinutes: 0)
        }
        self.origin = origin
        self.problem = SchedulingProblem(
            horizon: MinuteInterval(start: 0, end: toMinute(end)), granularity: 5, clinicians: clinicians + retired,
            roomTypes: roomCounts, requests: requests, fixedBookings: fixed)
    }
}
