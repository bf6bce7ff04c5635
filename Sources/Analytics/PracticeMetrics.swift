import Foundation
import Scheduling
import SharedKernel
import Specialists
import Triage

/// The practice's figures over one period, overall and broken down.
public struct PracticeMetrics: Hashable, Codable, Sendable {
    /// The instants measured.
    public let interval: DateInterval
    /// The instant the figures were judged at (unseen triage patients count as breaches once
    /// their target time is before it).
    public let asOf: Date
    /// The whole practice.
    public let practice: SegmentMetrics
    /// Every clinician of the history (and unknown ones with appointments in the period).
    public let clinicians: [SegmentMetrics]
    /// Specialties with appointments or with clinicians who have the expertise.
    public let specialties: [SegmentMetrics]
    /// Every appointment type of the history (and unknown ones with appointments).
    public let appointmentTypes: [SegmentMetrics]
    /// Every room of the history (and unknown ones with appointments).
    public let rooms: [SegmentMetrics]
    /// Species with appointments in the period.
    public let species: [SegmentMetrics]
    /// All active rooms together: minutes booked in them against opening hours × active rooms.
    public let roomUtilization: Utilization
    /// Triage waits against the VTL maximum waits.
    public let vtl: VTLCompliance
    /// The efficiency score and its parts.
    public let efficiency: EfficiencyScore
    /// What had to be skipped.
    public let dataQuality: DataQuality

    /// Creates the figures.
    public init(
        interval: DateInterval, asOf: Date, practice: SegmentMetrics, clinicians: [SegmentMetrics],
        specialties: [SegmentMetrics],
        appointmentTypes: [SegmentMetrics], rooms: [SegmentMetrics], species: [SegmentMetrics],
        roomUtilization: Utilization,
        vtl: VTLCompliance, efficiency: EfficiencyScore, dataQuality: DataQuality
    ) {
        self.interval = interval
        self.asOf = asOf
        self.practice = practice
        self.clinicians = clinicians
        self.specialties = specialties
        self.appointmentTypes = appointmentTypes
        self.rooms = rooms
        self.species = species
        self.roomUtilization = roomUtilization
        self.vtl = vtl
        self.efficiency = efficiency
        self.dataQuality = dataQuality
    }

    /// The breakdown along `dimension` (the practice alone for ``Dimension/practice``).
    public func segments(_ dimension: Dimension) -> [SegmentMetrics] {
        switch dimension {
        case .practice: return [practice]
        case .clinician: return clinicians
        case .specialty: return specialties
        case .appointmentType: return appointmentTypes
        case .room: return rooms
        case .species: return species
        }
    }

    /// The figures of `segment`, matched by dimension and id.
    public func metrics(for segment: Segment) -> SegmentMetrics? {
        segments(segment.dimension).first { $0.segment.dimension == segment.dimension && $0.segment.id == segment.id }
    }
}

extension PracticeAnalytics {
    /// The practice's figures over `period`, judged at `asOf`.
    ///
    /// Linear in the appointments and arrivals of the period (after a binary search), plus
    /// the availability of each clinician resolved once.
    public func metrics(for period: AnalyticsPeriod, asOf: Date) -> PracticeMetrics {
        let (from, to) = bounds(of: period)
        let layout = SegmentLayout(catalogue)
        let capacity = capacity(from: from, to: to)
        var predictions = PredictionCache(predictor: durationModel(before: from), catalogue: catalogue)
        var quality = DataQuality()
        quality.unreadableAppointments = unreadableAppointments
        let tallies = tally(from: from, to: to, only: nil, layout: layout, predictions: &predictions, quality: &quality)
        let asOfSeconds = asOf.timeIntervalSince1970.isFinite ? asOf.timeIntervalSince1970 : to
        let vtl = vtlCompliance(from: from, to: to, asOf: asOfSeconds, quality: &quality)
        let build = { (index: Int) in
            self.segmentMetrics(index, tallies: tallies, layout: layout, capacity: capacity, from: from, to: to)
        }

        let practice = build(0)
        let clinicians = catalogue.clinicianIDs.indices
            .filter { $0 < catalogue.knownClinicians || tallies[layout.clinicianBase + $0].hasActivity }
            .map { build(layout.clinicianBase + $0) }
        let specialties = Visit.specialties.indices.map { build(layout.specialtyBase + $0) }
            .filter { $0.appointments.total > 0 || $0.bookedMinutes > 0 || ($0.utilization?.availableMinutes ?? 0) > 0 }
        let types = catalogue.typeIDs.indices
            .filter { $0 < catalogue.knownTypes || tallies[layout.typeBase + $0].hasActivity }
            .map { build(layout.typeBase + $0) }
        let rooms = catalogue.roomIDs.indices
            .filter { $0 < catalogue.knownRooms || tallies[layout.roomBase + $0].hasActivity }
            .map { build(layout.roomBase + $0) }
        let species = Visit.speciesList.indices.filter { tallies[layout.speciesBase + $0].hasActivity }
            .map { build(layout.speciesBase + $0) }

        let roomUtilization = combinedRoomUtilization(
            tallies: tallies, layout: layout, capacity: capacity, from: from, to: to)
        let efficiency = efficiencyScore(practice: practice, vtl: vtl)
        return PracticeMetrics(
            interval: DateInterval(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to)),
            asOf: asOf, practice: practice, clinicians: clinicians.sorted { $0.segment < $1.segment },
            specialties: specialties, appointmentTypes: types.sorted { $0.segment < $1.segment },
            rooms: rooms.sorted { $0.segment < $1.segment }, species: species, roomUtilization: roomUtilization,
            vtl: vtl, efficiency: efficiency, dataQuality: quality)
    }

    /// The period's instants as seconds, clamped to the years the calendar is trusted in and
    /// to at most ``DayGrid/maximumDays`` days, so an absurd period cannot stall the caller.
    func bounds(of period: AnalyticsPeriod) -> (Double, Double) {
        let from = max(period.interval.start, DayGrid.earliest).timeIntervalSince1970
        let to = min(period.interval.end, DayGrid.latest).timeIntervalSince1970
        return (from, min(max(from, to), from + Double(DayGrid.maximumDays) * 86_400))
    }

    /// The efficiency score of the practice's figures and VTL compliance.
    func efficiencyScore(practice: SegmentMetrics, vtl: VTLCompliance?) -> EfficiencyScore {
        let fit: Double? = {
            guard let absolute = practice.duration.meanAbsoluteDifferenceMinutes,
                let planned = practice.duration.meanPlannedMinutes,
                planned > 0
            else { return nil }
            return max(0, 1 - absolute / planned)
        }()
        return EfficiencyScore(
            values: [
                .utilization: practice.utilization?.ratio.map { min(1, $0) },
                .attendance: practice.noShows.value.map { 1 - $0 },
                .slotRetention: practice.lateCancellations.value.map { 1 - $0 },
                .durationFit: fit,
                .triageCompliance: vtl?.overall.value,
            ], weights: options.efficiencyWeights)
    }

    // MARK: - From tallies to figures

    /// Minutes the segment at `index` could have been booked in `[from, to)`; `nil` for
    /// dimensions that own no time.
    func availableSeconds(_ index: Int, layout: SegmentLayout, capacity: CapacityIndex, from: Double, to: Double)
        -> Double?
    {
        if index == 0 {
            return capacity.clinicianWindows.reduce(0) { $0 + $1.seconds(from: from, to: to) }
        } else if index < layout.specialtyBase {
            return capacity.clinicianWindows[index - layout.clinicianBase].seconds(from: from, to: to)
        } else if index < layout.typeBase {
            return catalogue.specialtyMembers[index - layout.specialtyBase]
                .reduce(0) { $0 + capacity.clinicianWindows[$1].seconds(from: from, to: to) }
        } else if index < layout.roomBase {
            return nil
        } else if index < layout.speciesBase {
            let room = catalogue.rooms[index - layout.roomBase]
            // Out-of-service and unknown rooms offer no time.
            return room?.isActive == true ? capacity.openHours.seconds(from: from, to: to) : 0
        }
        return nil
    }

    func segment(at index: Int, layout: SegmentLayout) -> Segment {
        if index == 0 { return .practice }
        if index < layout.specialtyBase { return catalogue.clinicianSegment(index - layout.clinicianBase) }
        if index < layout.typeBase { return .specialty(Visit.specialties[index - layout.specialtyBase]) }
        if index < layout.roomBase { return catalogue.typeSegment(index - layout.typeBase) }
        if index < layout.speciesBase { return catalogue.roomSegment(index - layout.roomBase) }
        return .species(Visit.speciesList[index - layout.speciesBase])
    }

    func segmentMetrics(
        _ index: Int, tallies: [Tally], layout: SegmentLayout, capacity: CapacityIndex,
        from: Double, to: Double
    ) -> SegmentMetrics {
        let tally = tallies[index]
        let booked = tally.bookedSeconds / 60
        let utilization = availableSeconds(index, layout: layout, capacity: capacity, from: from, to: to)
            .map { Utilization(bookedMinutes: booked, availableMinutes: $0 / 60) }
        let leadCount = tally.leadHours.count
        // Only currencies something was earned in: a practice pricing in two currencies should
        // not show a zero line in the other on every segment.
        let revenue = catalogue.currencies.indices.compactMap { currency -> CurrencyAmount? in
            guard !tally.revenue.isEmpty else { return nil }
            let minor = tally.revenueCarry[currency] + Decimal(tally.revenue[currency])
            return minor == 0 ? nil : CurrencyAmount(currency: catalogue.currencies[currency], minorUnits: minor)
        }
        return SegmentMetrics(
            segment: segment(at: index, layout: layout),
            appointments: tally.statuses,
            utilization: utilization,
            bookedMinutes: booked,
            noShows: Rate(count: tally.statuses.noShow, total: tally.statuses.decided),
            lateCancellations: Rate(count: tally.lateCancellations, total: tally.statuses.total),
            cancellationsWithoutTime: tally.cancellationsWithoutTime,
            duration: DurationAccuracy(
                count: tally.durationCount, plannedMinutes: tally.plannedMinutes, actualMinutes: tally.actualMinutes,
                absoluteDifferenceMinutes: tally.absoluteDifference, modelCount: tally.modelCount,
                modelAbsoluteErrorMinutes: tally.modelError),
            leadTime: LeadTime(
                count: leadCount, meanHours: leadCount > 0 ? tally.leadSum / Double(leadCount) : nil,
                medianHours: Percentile.median(tally.leadHours)),
            patients: PatientMix(
                new: tally.newPatients, returning: tally.returningPatients, unknown: tally.unknownPatients),
            revenue: revenue)
    }

    /// Booked minutes in the active known rooms against opening hours times their number.
    func combinedRoomUtilization(
        tallies: [Tally], layout: SegmentLayout, capacity: CapacityIndex, from: Double, to: Double
    ) -> Utilization {
        var booked = 0.0
        var active = 0
        for room in 0..<catalogue.knownRooms where catalogue.rooms[room]?.isActive == true {
            booked += tallies[layout.roomBase + room].bookedSeconds
            active += 1
        }
        return Utilization(
            bookedMinutes: booked / 60,
            availableMinutes: Double(active) * capacity.openHours.seconds(from: from, to: to) / 60)
    }
}
