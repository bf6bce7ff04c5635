import Foundation
import SharedKernel
import Triage

/// How well one VTL level's maximum wait was kept.
///
/// A triaged patient is *judged* once they have been seen, or once their target time
/// (arrival + maximum wait) has passed unseen — then they have breached it whenever they are
/// seen, or if they left after it. A patient still waiting inside their target is *pending*
/// and not judged yet; one who left unseen inside their target is not judged (nobody failed
/// to see them in time) and counts in the left-without-being-seen rate, as every patient who
/// left does. Waits are measured from arrival to first seen, or to leaving, in minutes; the
/// wait is within target when it is at most the maximum plus
/// ``VTLCompliance/toleranceSeconds`` (so red, 0 min, means seen within a minute).
public struct VTLLevelCompliance: Hashable, Codable, Sendable {
    /// The level.
    public let level: TriageLevel
    /// Its maximum wait (``TriageLevel/maxWaitMinutes``).
    public let maxWaitMinutes: Int
    /// Arrivals at this level in the period.
    public let arrivals: Int
    /// Seen within the maximum wait, among those judged.
    public let withinTarget: Rate
    /// Still waiting with time to spare.
    public let pending: Int
    /// Left without being seen, among the arrivals (a quality indicator of its own).
    public let leftWithoutBeingSeen: Rate
    /// Waits of the patients seen (nearest-rank median, see ``Percentile``), minutes.
    public let medianWaitMinutes: Double?
    /// 90th percentile (nearest rank) of the waits of the patients seen, minutes.
    public let p90WaitMinutes: Double?

    /// Creates the figure.
    public init(
        level: TriageLevel, arrivals: Int, withinTarget: Rate, pending: Int, leftWithoutBeingSeen: Rate,
        medianWaitMinutes: Double?, p90WaitMinutes: Double?
    ) {
        self.level = level
        self.maxWaitMinutes = level.maxWaitMinutes
        self.arrivals = arrivals
        self.withinTarget = withinTarget
        self.pending = pending
        self.leftWithoutBeingSeen = leftWithoutBeingSeen
        self.medianWaitMinutes = medianWaitMinutes
        self.p90WaitMinutes = p90WaitMinutes
    }

    /// Share judged that were seen in time; `nil` when nobody was judged.
    public var compliance: Double? { withinTarget.value }
}

/// A patient who waited longer than their level allows.
public struct VTLBreach: Hashable, Codable, Sendable {
    /// The patient.
    public let patientID: UUID
    /// The level.
    public let level: TriageLevel
    /// Arrival.
    public let arrival: Date
    /// First seen; `nil` when not seen by the time of the analysis.
    public let firstSeenAt: Date?
    /// When the patient left without being seen, if they did.
    public let leftAt: Date?
    /// Minutes waited: to first seen, to leaving unseen, or — still waiting — to the time of
    /// the analysis (so far).
    public let waitMinutes: Double
    /// Minutes beyond the maximum wait.
    public let overByMinutes: Double

    /// Creates a breach.
    public init(
        patientID: UUID, level: TriageLevel, arrival: Date, firstSeenAt: Date?, leftAt: Date? = nil, waitMinutes: Double
    ) {
        self.patientID = patientID
        self.level = level
        self.arrival = arrival
        self.firstSeenAt = firstSeenAt
        self.leftAt = leftAt
        self.waitMinutes = waitMinutes
        self.overByMinutes = waitMinutes - Double(level.maxWaitMinutes)
    }
}

/// VTL compliance of a period: per level, overall, and every breach.
public struct VTLCompliance: Hashable, Codable, Sendable {
    /// Red to blue, every level present (with zeros when nobody arrived at it).
    public let levels: [VTLLevelCompliance]
    /// Within target among all judged arrivals.
    public let overall: Rate
    /// Left without being seen, among all arrivals.
    public let leftWithoutBeingSeen: Rate
    /// Breaches in arrival order.
    public let breaches: [VTLBreach]

    /// Creates the figure.
    public init(levels: [VTLLevelCompliance], overall: Rate, leftWithoutBeingSeen: Rate, breaches: [VTLBreach]) {
        self.levels = levels
        self.overall = overall
        self.leftWithoutBeingSeen = leftWithoutBeingSeen
        self.breaches = breaches
    }

    /// The figure for `level`.
    public func level(_ level: TriageLevel) -> VTLLevelCompliance? { levels.first { $0.level == level } }
}

extension VTLCompliance {
    /// How much later than its maximum wait a patient may be first seen and still count as
    /// seen within target, and how far a first-seen time may precede the arrival before it is
    /// a data error rather than two devices' clocks: one minute. Red's maximum wait is zero
    /// ("immediately"), and treatment recorded seconds after triage is immediate care, not a
    /// breach; without a tolerance red compliance would read 0 % or 100 % by clock skew alone.
    public static let toleranceSeconds: Double = 60
}

// MARK: - Computation

extension PracticeAnalytics {
    /// VTL compliance of the arrivals in `[from, to)` (of one species, if given), judged at `asOf`.
    func vtlCompliance(from: Double, to: Double, asOf: Double, species: Species? = nil, quality: inout DataQuality)
        -> VTLCompliance
    {
        var waits: [[Double]] = Array(repeating: [], count: TriageLevel.allCases.count)
        var arrivalsAt = Array(repeating: 0, count: waits.count)
        var within = arrivalsAt
        var judged = arrivalsAt
        var pending = arrivalsAt
        var left = arrivalsAt
        var breaches: [VTLBreach] = []
        for index in arrivalRange(from, to) {
            let arrival = arrivals[index]
            if let species, arrival.species != species { continue }
            let level = arrival.level.rawValue - 1
            let arrived = arrivalTimes[index]
            let maxWait = arrival.level.maxWaitSeconds
            arrivalsAt[level] += 1
            let tolerance = VTLCompliance.toleranceSeconds
            if let seen = arrival.firstSeenAt?.timeIntervalSince1970, seen.isFinite {
                guard seen >= arrived - tolerance else {
                    quality.seenBeforeArrival += 1
                    continue
                }
                // Seen a few seconds "before" arriving is two clocks apart: no wait at all.
                let wait = max(0, seen - arrived)
                waits[level].append(wait / 60)
                judged[level] += 1
                if wait <= maxWait + tolerance {
                    within[level] += 1
                } else {
                    breaches.append(
                        VTLBreach(
                            patientID: arrival.patientID, level: arrival.level, arrival: arrival.arrival,
                            firstSeenAt: arrival.firstSeenAt, waitMinutes: wait / 60))
                }
            } else if let gone = arrival.leftAt?.timeIntervalSince1970, gone.isFinite, gone <= asOf {
                // The wait stopped when they left: it no longer grows with the time of the analysis.
                left[level] += 1
                let wait = max(0, gone - arrived)
                if wait > maxWait + tolerance {
                    judged[level] += 1
                    breaches.append(
                        VTLBreach(
                            patientID: arrival.patientID, level: arrival.level, arrival: arrival.arrival,
                            firstSeenAt: nil, leftAt: arrival.leftAt, waitMinutes: wait / 60))
                }
            } else if asOf - arrived > maxWait + tolerance {
                judged[level] += 1
                breaches.append(
                    VTLBreach(
                        patientID: arrival.patientID, level: arrival.level, arrival: arrival.arrival,
                        firstSeenAt: nil, waitMinutes: (asOf - arrived) / 60))
            } else {
                pending[level] += 1
            }
        }
        let levels = TriageLevel.allCases.map { level in
            let i = level.rawValue - 1
            return VTLLevelCompliance(
                level: level, arrivals: arrivalsAt[i], withinTarget: Rate(count: within[i], total: judged[i]),
                pending: pending[i], leftWithoutBeingSeen: Rate(count: left[i], total: arrivalsAt[i]),
                medianWaitMinutes: Percentile.median(waits[i]),
                p90WaitMinutes: Percentile.nearestRank(90, of: waits[i]))
        }
        return VTLCompliance(
            levels: levels, overall: Rate(count: within.reduce(0, +), total: judged.reduce(0, +)),
            leftWithoutBeingSeen: Rate(count: left.reduce(0, +), total: arrivalsAt.reduce(0, +)), breaches: breaches)
    }
}
