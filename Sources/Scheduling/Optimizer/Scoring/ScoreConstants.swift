// MARK: - Score constants

/// The problem-wide constants of the score: attainable points, total demand and the shares
/// as exact fractions. Shared by the scorer and the optimizer so that both use one definition.
struct ScoreConstants: Sendable {
    /// Σ_r w_r·(assign + quality·maxprof_r + onTime + preference).
    let maxPoints: Int
    /// Σ_r duration_r (the T of the balance term).
    let totalDemand: Int
    /// request_share limited to denominators ≤ 1000.
    let requestShare: ExactFraction
    /// balance_share limited to denominators ≤ 1000.
    let balanceShare: ExactFraction

    init(_ problem: SchedulingProblem) {
        var best: [String: Int] = [:]
        for clinician in problem.clinicians {
            for (skill, level) in clinician.skills { best[skill] = max(best[skill] ?? 0, level) }
        }
        let w = problem.weights
        maxPoints = problem.requests.reduce(0) { sum, r in
            sum + r.weight * (w.assign + w.qualityPerProficiency * (best[r.specialty] ?? 0) + w.onTime + w.preference)
        }
        totalDemand = problem.requests.reduce(0) { $0 + $1.duration }
        requestShare = .limitingDenominator(of: w.requestShare)
        balanceShare = .limitingDenominator(of: w.balanceShare)
    }

    /// Integer coefficients (a, b) such that `score` is an increasing affine function of
    /// `a·points − b·deviation`: score = rs·points/maxPoints + bs·(1 − deviation/(2T)).
    var objectiveCoefficients: (points: Int64, deviation: Int64) {
        let (a, b) = exactObjectiveCoefficients
        // `SchedulingProblem.validate()` refuses problems whose objective does not fit (``objectiveFits(_:)``).
        return (Int64(a), Int64(b))
    }

    /// ``objectiveCoefficients`` before narrowing to 64 bits.
    private var exactObjectiveCoefficients: (points: Int128, deviation: Int128) {
        guard maxPoints > 0, totalDemand > 0 else { return (1, 0) }
        let rs = requestShare
        let bs = balanceShare
        // Multiply the score by maxPoints·2T·rs.den·bs.den: points·rs.num·bs.den·2T − dev·bs.num·rs.den·maxPoints.
        var a = rs.numerator * bs.denominator * Int128(2 * totalDemand)
        var b = bs.numerator * rs.denominator * Int128(maxPoints)
        let g = Int128(ExactFraction.gcd(a.magnitude, b.magnitude))
        a /= g
        b /= g
        return (a, b)
    }

    /// Whether the search's 64-bit objective `a·points − b·deviation` holds for every schedule
    /// of `problem`, with room to spare for the differences the search adds up. Deviation
    /// Σ|booked − target| is at most everything that can be booked plus every target.
    ///
    /// Only meaningful for a problem whose numbers are within ``SchedulingLimits``, where this
    /// arithmetic cannot overflow 128 bits.
    func objectiveFits(_ problem: SchedulingProblem) -> Bool {
        let (a, b) = exactObjectiveCoefficients
        let fixed = problem.fixedBookings.reduce(Int128(0)) { $0 + Int128($1.interval.end - $1.interval.start) }
        let targets = problem.clinicians.reduce(Int128(0)) { $0 + Int128($1.targetMinutes) }
        let maxDeviation = fixed + Int128(totalDemand) + targets
        return a * Int128(maxPoints) + b * maxDeviation <= SchedulingLimits.maxObjective
    }

    /// The exact score of a schedule with these request points and balance deviation.
    func score(points: Int, deviation: Int) -> ExactFraction {
        let sReq = ExactFraction(Int128(points), Int128(maxPoints))
        let sBal =
            totalDemand == 0
            ? ExactFraction(1)
            : ExactFraction(1) - ExactFraction(Int128(deviation), Int128(2 * totalDemand))
        return requestShare * sReq + balanceShare * sBal
    }
}
