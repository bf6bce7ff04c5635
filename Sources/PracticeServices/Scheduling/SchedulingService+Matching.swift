import Foundation
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension SchedulingService {
    /// The longest wait a match may be asked to respect: one week (the longest VTL wait is 4 h).
    package static let maxWaitMinutesLimit = 10_080

    /// The length a clinician's earliest free time is looked for with when no appointment type is known.
    package static let matchProbeMinutes = 20

    /// Ranks the practice's clinicians for a case: each candidate's earliest free start within
    /// the search window (for the case's top specialty), today's workload and capacity, and
    /// continuity with the patient.
    package func match(
        scope: AccessScope, specialties: [Specialty], species: Species, complexity: Double, maxWaitMinutes: Int?,
        patientID: UUID?, durationMinutes: Int = matchProbeMinutes
    ) async throws -> (MatchResult, Snapshot) {
        let (snapshot, range) = try await matchSnapshot(scope: scope, maxWaitMinutes: maxWaitMinutes)
        let result = try await rank(
            snapshot: snapshot, scope: scope, specialties: specialties, species: species, complexity: complexity,
            maxWaitMinutes: maxWaitMinutes, patientID: patientID
        ) { clinicianID in
            SlotQuery(range: range, durationMinutes: durationMinutes, clinicianID: clinicianID)
        }
        return (result, snapshot)
    }

    /// The picture a match is made on: from now for at least a week (or the wait, if longer).
    package func matchSnapshot(scope: AccessScope, maxWaitMinutes: Int?) async throws -> (Snapshot, TimeRange) {
        // The search looks at most a week ahead whatever the wait; a longer or negative wait is
        // refused before it can size a search window.
        if let maxWaitMinutes, !(1...Self.maxWaitMinutesLimit).contains(maxWaitMinutes) {
            throw ValidationError(field: "maxWaitMinutes", message: "must be between 1 and \(Self.maxWaitMinutesLimit)")
        }
        let now = clock.now()
        let horizon = max(Double(maxWaitMinutes ?? 0) * 60, 7 * 86_400)
        let range = TimeRange(start: now, end: now.addingTimeInterval(horizon))!
        return (try await snapshot(scope: scope, range: range), range)
    }

    /// Ranks on `snapshot`; each candidate's earliest start is the first slot `earliest` (a
    /// query for that clinician) finds, so an intake that offers slots with the same query
    /// shows as "earliest" exactly the first slot it offers with that clinician.
    package func rank(
        snapshot: Snapshot, scope: AccessScope, specialties: [Specialty], species: Species, complexity: Double,
        maxWaitMinutes: Int?,
        patientID: UUID?, earliest: (UUID) -> SlotQuery
    ) async throws -> MatchResult {
        let now = clock.now()
        let today = snapshot.finder.calendar.day(containing: now)
        let localToday = LocalDate.containing(now, timeZone: snapshot.timeZone)
        var previous: Set<Identifier<Clinician>> = []
        if let patientID { previous = try await store.previousClinicians(patientID: patientID, scope: scope) }
        let candidates = try snapshot.clinicians.map { clinician -> MatchCandidate in
            var query = earliest(clinician.id.rawValue)
            query.limit = 1
            let earliest = try snapshot.finder.slots(for: query).first?.start
            let booked = snapshot.appointments.filter {
                $0.clinicianID == clinician.id.rawValue && $0.status.holdsTime && $0.time.overlaps(today)
            }
            .reduce(0) { $0 + $1.durationMinutes }
            let capacity =
                localToday.flatMap {
                    snapshot.availabilities[clinician.id]?.value.capacityMinutes(
                        on: $0, timeZone: snapshot.timeZone, closures: snapshot.practice.closures)
                } ?? 0
            return MatchCandidate(
                clinician: clinician, earliestStart: earliest, bookedMinutes: booked, capacityMinutes: capacity)
        }
        let matchCase = MatchCase(
            specialties: specialties, species: species, complexity: complexity, maxWaitMinutes: maxWaitMinutes,
            patientID: patientID, previousClinicianIDs: previous)
        return try ClinicianMatcher().rank(matchCase, candidates: candidates, now: now)
    }
}

extension LocalDate {
    /// The local calendar date of `instant` in `timeZone`.
    package static func containing(_ instant: Date, timeZone: TimeZone) -> LocalDate? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }
}
