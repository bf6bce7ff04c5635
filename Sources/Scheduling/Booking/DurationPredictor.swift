import Foundation
import SharedKernel

/// A finished appointment as the duration predictor learns from it.
public struct CompletedVisit: Hashable, Codable, Sendable {
    /// The kind of appointment.
    public var appointmentTypeID: Identifier<AppointmentType>
    /// The patient's species.
    public var species: Species
    /// Case complexity 0–1 (kept with the history for later models; the shrinkage means do not use it).
    public var complexity: Double
    /// Who saw the patient.
    public var clinicianID: UUID
    /// Recorded length (``Appointment/actualMinutes``).
    public var actualMinutes: Int
    /// When it ended; orders the history for the held-out evaluation.
    public var completedAt: Date

    /// Creates a visit.
    public init(
        appointmentTypeID: Identifier<AppointmentType>, species: Species, complexity: Double, clinicianID: UUID,
        actualMinutes: Int, completedAt: Date
    ) {
        self.appointmentTypeID = appointmentTypeID
        self.species = species
        self.complexity = complexity
        self.clinicianID = clinicianID
        self.actualMinutes = actualMinutes
        self.completedAt = completedAt
    }
}

/// Which levels of the history a prediction used, most general first.
public enum DurationLevel: String, Codable, Sendable {
    /// All visits of the type.
    case type
    /// Visits of the type for the species.
    case species
    /// The clinician's pace on the type, relative to the species level.
    case clinician
}

/// A predicted duration and how it was reached.
public struct DurationPrediction: Hashable, Codable, Sendable {
    /// Minutes to book: ``rawMinutes`` rounded up to the grid.
    public var minutes: Int
    /// The unrounded estimate.
    public var rawMinutes: Double
    /// Levels with enough history that contributed; empty means the type's default was used.
    public var levels: [DurationLevel]

    /// Creates a prediction.
    public init(minutes: Int, rawMinutes: Double, levels: [DurationLevel]) {
        self.minutes = minutes
        self.rawMinutes = rawMinutes
        self.levels = levels
    }
}

/// Predicts appointment durations from the practice's own history with hierarchical shrinkage:
///
/// 1. type mean, pulled towards the type's default: `(Σx + k·default) / (n + k)`;
/// 2. type + species mean, pulled towards (1) the same way;
/// 3. the clinician's pace on the type — the mean of `actual / level-2 estimate` over their
///    visits — pulled towards 1, multiplies (2).
///
/// A level is only used with at least `minimumSamples` visits; `k` (`shrinkage`) says how many
/// visits' worth of trust the level above gets. The result is rounded up to the booking grid,
/// because running over costs the next client more than finishing early.
public struct DurationPredictor: Sendable {
    /// Fewest visits for a level to count.
    public let minimumSamples: Int
    /// Prior weight `k`, in visits.
    public let shrinkage: Double
    /// Grid the prediction is rounded up to.
    public let gridMinutes: Int

    private let typeStats: [Identifier<AppointmentType>: Stats]
    private let speciesStats: [SpeciesKey: Stats]
    private let clinicianVisits: [ClinicianKey: [CompletedVisit]]

    /// Learns from `history`.
    public init(history: [CompletedVisit], minimumSamples: Int = 5, shrinkage: Double = 5, gridMinutes: Int = 5) {
        self.minimumSamples = max(1, minimumSamples)
        self.shrinkage = max(0, shrinkage)
        self.gridMinutes = max(1, gridMinutes)
        let usable = history.filter { $0.actualMinutes > 0 }
        typeStats = usable.reduce(into: [:]) { $0[$1.appointmentTypeID, default: Stats()].add($1.actualMinutes) }
        speciesStats = usable.reduce(into: [:]) {
            $0[SpeciesKey(type: $1.appointmentTypeID, species: $1.species), default: Stats()].add($1.actualMinutes)
        }
        clinicianVisits = Dictionary(grouping: usable) {
            ClinicianKey(type: $0.appointmentTypeID, clinician: $0.clinicianID)
        }
    }

    /// The duration to book for `type` with this species and (optionally) clinician.
    public func predict(type: AppointmentType, species: Species, clinicianID: UUID?) -> DurationPrediction {
        var levels: [DurationLevel] = []
        var estimate = speciesEstimate(type: type, species: species, levels: &levels)
        if let clinicianID, let visits = clinicianVisits[ClinicianKey(type: type.id, clinician: clinicianID)],
            visits.count >= minimumSamples
        {
            var ignored: [DurationLevel] = []
            let ratios = visits.map {
                Double($0.actualMinutes) / speciesEstimate(type: type, species: $0.species, levels: &ignored)
            }
            let pace = (ratios.reduce(0, +) + shrinkage) / (Double(ratios.count) + shrinkage)
            estimate *= pace
            levels.append(.clinician)
        }
        let rounded = Int((estimate / Double(gridMinutes)).rounded(.up)) * gridMinutes
        return DurationPrediction(minutes: max(gridMinutes, rounded), rawMinutes: estimate, levels: levels)
    }

    private func speciesEstimate(type: AppointmentType, species: Species, levels: inout [DurationLevel]) -> Double {
        var estimate = Double(type.defaultDurationMinutes)
        if let stats = typeStats[type.id], stats.count >= minimumSamples {
            estimate = stats.shrunk(towards: estimate, weight: shrinkage)
            levels.append(.type)
        }
        if let stats = speciesStats[SpeciesKey(type: type.id, species: species)], stats.count >= minimumSamples {
            estimate = stats.shrunk(towards: estimate, weight: shrinkage)
            levels.append(.species)
        }
        return estimate
    }
}

// MARK: - Aggregates

private struct Stats: Sendable {
    var count = 0
    var sum = 0.0

    mutating func add(_ minutes: Int) {
        count += 1
        sum += Double(minutes)
    }

    func shrunk(towards prior: Double, weight: Double) -> Double { (sum + weight * prior) / (Double(count) + weight) }
}

private struct SpeciesKey: Hashable, Sendable {
    let type: Identifier<AppointmentType>
    let species: Species
}

private struct ClinicianKey: Hashable, Sendable {
    let type: Identifier<AppointmentType>
    let clinician: UUID
}
