import Foundation
import SharedKernel

/// Ranks clinicians for a case. Pure: the caller supplies each clinician's earliest free
/// start (from the free-slot finder) and the day's workload.
///
/// Hard filter: a clinician whose complexity ceiling is below the case's complexity is
/// excluded. Everything else is scored 0…1 per ``MatchFactor`` and weighted:
/// - expertise: `max over i of (proficiency / 5) / (i + 1)` for the case's i-th specialty
///   (the first specialty counts fully, the second half, …); 0 without any of them;
/// - species: 1 if the clinician treats the species, else 0;
/// - availability: with a maximum wait, `1 − 0.5 × wait / maxWait` when the earliest start is
///   within it, else 0; without one, `1 / (1 + wait in days)`; 0 when no start is known;
/// - workload: `1 − booked / capacity` (0 with no capacity);
/// - continuity: 1 if the clinician has seen the patient before, else 0.
///
/// Ties are broken deterministically: higher expertise value, earlier start (unknown last),
/// display name, then identifier.
public struct ClinicianMatcher: Sendable {
    /// Factor weights.
    public var weights: MatchWeights

    /// Creates a matcher.
    public init(weights: MatchWeights = .standard) { self.weights = weights }

    /// Ranks `candidates` for `matchCase` as seen at `now`.
    public func rank(_ matchCase: MatchCase, candidates: [MatchCandidate], now: Date) throws(ValidationError)
        -> MatchResult
    {
        try matchCase.validate()
        guard weights.total > 0, weights.values.values.allSatisfy({ $0 >= 0 }) else {
            throw ValidationError(field: "weights", message: "must be non-negative with a positive sum")
        }
        var ranked: [(match: ClinicianMatch, expertise: Double)] = []
        var excluded: [MatchExclusion] = []
        for candidate in candidates {
            let clinician = candidate.clinician
            guard clinician.complexityCeiling >= matchCase.complexity else {
                excluded.append(
                    MatchExclusion(
                        clinicianID: clinician.id, displayName: clinician.displayName,
                        reason:
                            """
                            case complexity \(Self.format(matchCase.complexity)) is above the clinician's ceiling \
                            \(Self.format(clinician.complexityCeiling))
                            """
                    ))
                continue
            }
            let match = score(candidate, for: matchCase, now: now)
            ranked.append((match, match.part(.expertise)?.value ?? 0))
        }
        ranked.sort { lhs, rhs in
            if lhs.match.score != rhs.match.score { return lhs.match.score > rhs.match.score }
            if lhs.expertise != rhs.expertise { return lhs.expertise > rhs.expertise }
            switch (lhs.match.earliestStart, rhs.match.earliestStart) {
            case (let l?, let r?) where l != r: return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if lhs.match.displayName != rhs.match.displayName { return lhs.match.displayName < rhs.match.displayName }
            return lhs.match.clinicianID < rhs.match.clinicianID
        }
        return MatchResult(ranked: ranked.map(\.match), excluded: excluded)
    }

    // MARK: - Scoring

    func score(_ candidate: MatchCandidate, for matchCase: MatchCase, now: Date) -> ClinicianMatch {
        let clinician = candidate.clinician
        let total = weights.total
        var parts: [ScorePart] = []
        func add(_ factor: MatchFactor, _ value: Double, _ detail: String) {
            let weight = weights[factor]
            parts.append(
                ScorePart(
                    factor: factor, weight: weight, value: value, contribution: weight * value / total, detail: detail))
        }

        let expertise = Self.expertise(clinician, specialties: matchCase.specialties)
        add(.expertise, expertise.value, expertise.detail)

        let treats = clinician.species.contains(matchCase.species)
        add(
            .species, treats ? 1 : 0,
            treats ? "treats \(matchCase.species.rawValue)" : "does not list \(matchCase.species.rawValue)")

        let availability = Self.availability(candidate.earliestStart, maxWait: matchCase.maxWaitMinutes, now: now)
        add(.availability, availability.value, availability.detail)

        let free =
            candidate.capacityMinutes > 0
            ? max(0, 1 - Double(candidate.bookedMinutes) / Double(candidate.capacityMinutes)) : 0
        add(.workload, free, "\(candidate.bookedMinutes) of \(candidate.capacityMinutes) minutes booked that day")

        let seen = matchCase.previousClinicianIDs.contains(clinician.id)
        add(.continuity, seen ? 1 : 0, seen ? "has seen this patient before" : "has not seen this patient")

        return ClinicianMatch(
            clinicianID: clinician.id, displayName: clinician.displayName,
            score: parts.reduce(0) { $0 + $1.contribution }, parts: parts,
            earliestStart: candidate.earliestStart, withinMaxWait: availability.within)
    }

    static func expertise(_ clinician: Clinician, specialties: [Specialty]) -> (value: Double, detail: String) {
        var best: (value: Double, detail: String) = (
            0, "no expertise in \(specialties.map(\.rawValue).joined(separator: ", "))"
        )
        for (rank, specialty) in specialties.enumerated() {
            guard let entry = clinician.expertise.first(where: { $0.specialty == specialty }) else { continue }
            let value = Double(min(5, max(0, entry.proficiency))) / 5 / Double(rank + 1)
            if value > best.value {
                best = (value, "\(specialty.displayName) proficiency \(entry.proficiency)/5 (specialty #\(rank + 1))")
            }
        }
        return best
    }

    static func availability(_ start: Date?, maxWait: Int?, now: Date) -> (value: Double, within: Bool, detail: String)
    {
        guard let start else { return (0, false, "no free slot found") }
        let wait = max(0, start.timeIntervalSince(now) / 60)
        let waitText = "earliest start in \(Int(wait.rounded())) min"
        guard let maxWait else { return (1 / (1 + wait / 1440), true, waitText) }
        guard wait <= Double(maxWait) else { return (0, false, "\(waitText), beyond the \(maxWait) min maximum wait") }
        return (1 - 0.5 * wait / Double(maxWait), true, "\(waitText), within the \(maxWait) min maximum wait")
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
