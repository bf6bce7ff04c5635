import Foundation
import Scheduling
import SharedKernel
import Triage

extension PracticeAnalytics {
    /// `metric` of `segment` in each day, ISO week or calendar month of `period`, judged at `asOf`.
    ///
    /// Buckets follow the period's zone (a daylight-saving day is one bucket of 23 or 25
    /// hours); each bucket is measured exactly as ``metrics(for:asOf:)`` would measure it as
    /// a period of its own, with working time and the duration model resolved once for the
    /// whole series. A segment the history does not know yields empty buckets (zero counts,
    /// `nil` shares), not an error.
    public func timeSeries(
        _ metric: MetricKind, over period: AnalyticsPeriod, by size: BucketSize,
        segment: Segment = .practice, asOf: Date
    ) -> TimeSeries {
        timeSeries(metric, over: period, by: size, segments: [segment], asOf: asOf)[0]
    }

    /// `metric` of each of `segments` over the buckets of `period`, as
    /// ``timeSeries(_:over:by:segment:asOf:)`` measures one, with working time and the duration
    /// model resolved once for all of them (a chart of every clinician costs one resolution,
    /// not one per clinician).
    public func timeSeries(
        _ metric: MetricKind, over period: AnalyticsPeriod, by size: BucketSize,
        segments: [Segment], asOf: Date
    ) -> [TimeSeries] {
        let (from, to) = bounds(of: period)
        let interval = DateInterval(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to))
        let buckets = DayGrid(covering: interval, timeZone: period.timeZone).buckets(size, clippedTo: interval)
        let layout = SegmentLayout(catalogue)
        // Working time and the duration model cost more than a bucket's tally: resolved only for
        // the metrics that read them (left empty otherwise, which those metrics never look at).
        let capacity = metric.usesCapacity ? capacity(from: from, to: to) : capacity(from: from, to: from)
        var predictions =
            metric == .durationModelError
            ? PredictionCache(predictor: durationModel(before: from), catalogue: catalogue)
            : PredictionCache.disabled
        let asOfSeconds = asOf.timeIntervalSince1970.isFinite ? asOf.timeIntervalSince1970 : to
        return segments.map { segment in
            let index = segmentIndex(segment, layout: layout)
            // Arrivals carry no clinician, type or room: triage figures exist for the practice and per species only.
            let triageScope: (applies: Bool, species: Species?) =
                switch segment.dimension {
                case .practice: (true, nil)
                case .species: (Species(rawValue: segment.id) != nil, Species(rawValue: segment.id))
                default: (false, nil)
                }
            let points = buckets.map { bucket -> TimeSeriesPoint in
                let start = bucket.start.timeIntervalSince1970
                let end = bucket.end.timeIntervalSince1970
                var quality = DataQuality()
                var figures: SegmentMetrics?
                if let index, metric.usesAppointments {
                    let tallies = tally(
                        from: start, to: end, only: index, layout: layout, predictions: &predictions, quality: &quality)
                    figures = segmentMetrics(
                        index, tallies: tallies, layout: layout, capacity: capacity, from: start, to: end)
                    if metric == .roomUtilization, index == 0 {
                        let rooms = combinedRoomUtilization(
                            tallies: tallies, layout: layout, capacity: capacity, from: start, to: end)
                        return TimeSeriesPoint(bucket: bucket, value: rooms.ratio.map(MetricValue.ratio))
                    }
                }
                var vtl: VTLCompliance?
                if metric.usesTriage, triageScope.applies {
                    vtl = vtlCompliance(
                        from: start, to: end, asOf: asOfSeconds, species: triageScope.species, quality: &quality)
                }
                return TimeSeriesPoint(bucket: bucket, value: value(of: metric, figures: figures, vtl: vtl))
            }
            return TimeSeries(metric: metric, segment: segment, bucketSize: size, points: points)
        }
    }

    /// Several metrics of one segment over the buckets of `period`, each exactly as
    /// ``timeSeries(_:over:by:segment:asOf:)`` measures it, in one pass: each bucket is tallied
    /// once and every metric read from the same figures (a dashboard's trend or a report of
    /// twenty columns costs about what one series costs).
    public func timeSeries(
        _ metrics: [MetricKind], over period: AnalyticsPeriod, by size: BucketSize,
        segment: Segment = .practice, asOf: Date
    ) -> [TimeSeries] {
        guard !metrics.isEmpty else { return [] }
        let (from, to) = bounds(of: period)
        let interval = DateInterval(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to))
        let buckets = DayGrid(covering: interval, timeZone: period.timeZone).buckets(size, clippedTo: interval)
        let layout = SegmentLayout(catalogue)
        let index = segmentIndex(segment, layout: layout)
        let capacity =
            metrics.contains(where: \.usesCapacity) ? capacity(from: from, to: to) : capacity(from: from, to: from)
        var predictions =
            metrics.contains(.durationModelError)
            ? PredictionCache(predictor: durationModel(before: from), catalogue: catalogue)
            : PredictionCache.disabled
        let asOfSeconds = asOf.timeIntervalSince1970.isFinite ? asOf.timeIntervalSince1970 : to
        let needsAppointments = metrics.contains(where: \.usesAppointments)
        let needsTriage = metrics.contains(where: \.usesTriage)
        let triageScope: (applies: Bool, species: Species?) =
            switch segment.dimension {
            case .practice: (true, nil)
            case .species: (Species(rawValue: segment.id) != nil, Species(rawValue: segment.id))
            default: (false, nil)
            }
        var points = Array(repeating: [TimeSeriesPoint](), count: metrics.count)
        for bucket in buckets {
            let start = bucket.start.timeIntervalSince1970
            let end = bucket.end.timeIntervalSince1970
            var quality = DataQuality()
            var figures: SegmentMetrics?
            var rooms: Utilization?
            if let index, needsAppointments {
                let tallies = tally(
                    from: start, to: end, only: index, layout: layout, predictions: &predictions, quality: &quality)
                figures = segmentMetrics(
                    index, tallies: tallies, layout: layout, capacity: capacity, from: start, to: end)
                if index == 0, metrics.contains(.roomUtilization) {
                    rooms = combinedRoomUtilization(
                        tallies: tallies, layout: layout, capacity: capacity, from: start, to: end)
                }
            }
            var vtl: VTLCompliance?
            if needsTriage, triageScope.applies {
                vtl = vtlCompliance(
                    from: start, to: end, asOf: asOfSeconds, species: triageScope.species, quality: &quality)
            }
            for (position, metric) in metrics.enumerated() {
                let value: MetricValue? =
                    metric == .roomUtilization
                    ? rooms?.ratio.map(MetricValue.ratio)
                    : self.value(
                        of: metric, figures: metric.usesAppointments || metric == .efficiencyScore ? figures : nil,
                        vtl: metric.usesTriage ? vtl : nil)
                points[position].append(TimeSeriesPoint(bucket: bucket, value: value))
            }
        }
        return metrics.indices.map {
            TimeSeries(metric: metrics[$0], segment: segment, bucketSize: size, points: points[$0])
        }
    }

    /// Position of `segment` in `layout`, if the history knows it.
    func segmentIndex(_ segment: Segment, layout: SegmentLayout) -> Int? {
        switch segment.dimension {
        case .practice:
            return 0
        case .clinician:
            return UUIDText.parse(segment.id).flatMap(catalogue.knownClinician).map { layout.clinicianBase + $0 }
        case .specialty:
            return Specialty(rawValue: segment.id).flatMap { Visit.specialties.firstIndex(of: $0) }.map {
                layout.specialtyBase + $0
            }
        case .appointmentType:
            return UUIDText.parse(segment.id).flatMap(catalogue.knownType).map { layout.typeBase + $0 }
        case .room:
            return UUIDText.parse(segment.id).flatMap(catalogue.knownRoom).map { layout.roomBase + $0 }
        case .species:
            return Species(rawValue: segment.id).flatMap { Visit.speciesList.firstIndex(of: $0) }.map {
                layout.speciesBase + $0
            }
        }
    }

    /// Reads `metric` from a segment's figures and (for triage metrics) VTL compliance.
    func value(of metric: MetricKind, figures: SegmentMetrics?, vtl: VTLCompliance?) -> MetricValue? {
        switch metric {
        case .appointments: return .count(figures?.appointments.total ?? 0)
        case .completedAppointments: return .count(figures?.appointments.completed ?? 0)
        case .cancellations: return .count(figures?.appointments.cancelled ?? 0)
        case .noShows: return .count(figures?.appointments.noShow ?? 0)
        case .noShowRate: return figures?.noShows.value.map(MetricValue.ratio)
        case .lateCancellationRate: return figures?.lateCancellations.value.map(MetricValue.ratio)
        case .utilization: return figures?.utilization?.ratio.map(MetricValue.ratio)
        case .roomUtilization: return nil
        case .bookedMinutes: return .minutes(figures?.bookedMinutes ?? 0)
        case .meanDurationDifference: return figures?.duration.meanDifferenceMinutes.map(MetricValue.minutes)
        case .durationModelError: return figures?.duration.modelMAE.map(MetricValue.minutes)
        case .meanLeadTime: return figures?.leadTime.meanHours.map(MetricValue.hours)
        case .newPatients: return .count(figures?.patients.new ?? 0)
        case .returningPatients: return .count(figures?.patients.returning ?? 0)
        case .revenue: return .money(figures?.revenue ?? [])
        case .triageArrivals:
            return vtl.map { .count($0.levels.reduce(0) { $0 + $1.arrivals }) }
        case .vtlCompliance(let level):
            return (level.flatMap { vtl?.level($0)?.withinTarget.value } ?? (level == nil ? vtl?.overall.value : nil))
                .map(MetricValue.ratio)
        case .vtlBreaches(let level):
            return vtl.map { compliance in
                .count(compliance.breaches.filter { level == nil || $0.level == level }.count)
            }
        case .medianWait(let level): return vtl?.level(level)?.medianWaitMinutes.map(MetricValue.minutes)
        case .p90Wait(let level): return vtl?.level(level)?.p90WaitMinutes.map(MetricValue.minutes)
        case .efficiencyScore:
            guard let figures else { return nil }
            return efficiencyScore(practice: figures, vtl: vtl).value.map(MetricValue.score)
        }
    }
}
