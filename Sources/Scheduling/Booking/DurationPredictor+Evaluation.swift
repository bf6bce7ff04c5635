import Foundation
import SharedKernel

/// How the predictor did against the types' defaults on held-out history.
public struct DurationEvaluation: Hashable, Codable, Sendable {
    /// Visits learned from.
    public var trainCount: Int
    /// Visits predicted.
    public var testCount: Int
    /// Mean absolute error of the booked (rounded) prediction, in minutes.
    public var predictorMAE: Double
    /// Mean absolute error of booking the type's default, in minutes.
    public var defaultMAE: Double

    /// Creates an evaluation.
    public init(trainCount: Int, testCount: Int, predictorMAE: Double, defaultMAE: Double) {
        self.trainCount = trainCount
        self.testCount = testCount
        self.predictorMAE = predictorMAE
        self.defaultMAE = defaultMAE
    }

    /// Minutes of error saved per appointment (negative when the predictor is worse).
    public var improvement: Double { defaultMAE - predictorMAE }
}

extension DurationPredictor {
    /// Trains on the older part of `history` and measures both the predictor and the defaults
    /// on the newest `testShare` of it. The split is chronological (ties broken by type,
    /// clinician, species and minutes), so it is deterministic and never lets the predictor
    /// learn from the future it is judged on. Visits of unknown types are skipped.
    public static func evaluate(
        history: [CompletedVisit], types: [AppointmentType], testShare: Double = 0.2,
        minimumSamples: Int = 5, shrinkage: Double = 5, gridMinutes: Int = 5
    ) -> DurationEvaluation {
        let catalogue = Dictionary(types.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = history.filter { catalogue[$0.appointmentTypeID] != nil }.sorted { a, b in
            if a.completedAt != b.completedAt { return a.completedAt < b.completedAt }
            if a.appointmentTypeID != b.appointmentTypeID { return a.appointmentTypeID < b.appointmentTypeID }
            if a.clinicianID != b.clinicianID {
                return UUIDText.lowercase(a.clinicianID) < UUIDText.lowercase(b.clinicianID)
            }
            if a.species != b.species { return a.species.rawValue < b.species.rawValue }
            return a.actualMinutes < b.actualMinutes
        }
        let share = min(1, max(0, testShare))
        let testCount = Int((Double(ordered.count) * share).rounded())
        let train = Array(ordered.dropLast(testCount))
        let test = ordered.suffix(testCount)
        let predictor = DurationPredictor(
            history: train, minimumSamples: minimumSamples, shrinkage: shrinkage, gridMinutes: gridMinutes)
        var predictorError = 0.0
        var defaultError = 0.0
        for visit in test {
            let type = catalogue[visit.appointmentTypeID]!
            let predicted = predictor.predict(type: type, species: visit.species, clinicianID: visit.clinicianID)
                .minutes
            predictorError += Double(abs(predicted - visit.actualMinutes))
            defaultError += Double(abs(type.defaultDurationMinutes - visit.actualMinutes))
        }
        let n = Double(max(1, test.count))
        return DurationEvaluation(
            trainCount: train.count, testCount: test.count,
            predictorMAE: predictorError / n, defaultMAE: defaultError / n)
    }
}
