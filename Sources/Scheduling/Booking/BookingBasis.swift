import Foundation
import SharedKernel

/// Why an appointment booked from an intake was booked as it was: the triage assessment, its
/// level, and what the matching said about the clinician booked — as shown at the intake, not
/// as a re-ranking made later would put it.
public struct BookingBasis: Codable, Hashable, Sendable {
    /// The triage assessment the booking was made from.
    public var assessmentID: UUID
    /// Its VTL level, 1 (red) … 5 (blue).
    public var triageLevel: Int
    /// Where the booked clinician stood in the intake's ranking (1 = best match); `nil` when
    /// staff booked someone the ranking did not offer.
    public var rankedPosition: Int?
    /// The booked clinician's match score, 0…1, when they were ranked.
    public var score: Double?
    /// The parts of that score, each with the sentence explaining it.
    public var reasons: [BookingReason]

    /// Creates a basis.
    public init(
        assessmentID: UUID, triageLevel: Int, rankedPosition: Int? = nil, score: Double? = nil,
        reasons: [BookingReason] = []
    ) {
        self.assessmentID = assessmentID
        self.triageLevel = triageLevel
        self.rankedPosition = rankedPosition
        self.score = score
        self.reasons = reasons
    }

    /// The basis of booking `clinicianID` from an intake whose ranking listed `ranked`, best
    /// first. `triageLevel` is the level of the assessment the booking names, `nil` when it is
    /// not one of the patient's in the practice: refused naming `assessmentId`.
    public static func booking(_ clinicianID: UUID, assessmentID: UUID, triageLevel: Int?, ranked: [RankedCandidate])
        throws(ValidationError) -> BookingBasis
    {
        guard let triageLevel else {
            throw ValidationError(field: "assessmentId", message: "is not a triage assessment of this patient")
        }
        guard let index = ranked.firstIndex(where: { $0.clinicianID == clinicianID }) else {
            return BookingBasis(assessmentID: assessmentID, triageLevel: triageLevel)
        }
        let candidate = ranked[index]
        return BookingBasis(
            assessmentID: assessmentID, triageLevel: triageLevel, rankedPosition: index + 1, score: candidate.score,
            reasons: candidate.reasons)
    }
}

/// One factor of a match score as the intake explained it.
public struct BookingReason: Codable, Hashable, Sendable {
    /// The factor (`expertise`, `species`, `availability`, `workload`, `continuity`).
    public var factor: String
    /// What it added to the score.
    public var contribution: Double
    /// The sentence explaining it ("Cardiology proficiency 5/5 (specialty #1)").
    public var detail: String

    /// Creates a reason.
    public init(factor: String, contribution: Double, detail: String) {
        self.factor = factor
        self.contribution = contribution
        self.detail = detail
    }
}

/// A clinician as an intake ranked them.
public struct RankedCandidate: Codable, Hashable, Sendable {
    /// The clinician (`Identifier<Clinician>.rawValue`).
    public var clinicianID: UUID
    /// Their score.
    public var score: Double
    /// Its parts.
    public var reasons: [BookingReason]

    /// Creates a candidate.
    public init(clinicianID: UUID, score: Double, reasons: [BookingReason]) {
        self.clinicianID = clinicianID
        self.score = score
        self.reasons = reasons
    }
}
