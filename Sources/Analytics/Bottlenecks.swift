import Foundation
import Scheduling
import SharedKernel
import Specialists

/// Demand on one specialty against the clinician time that can serve it.
public struct SpecialtyLoad: Hashable, Codable, Sendable {
    /// The specialty (general practice: types that require none, served by every clinician).
    public let specialty: Specialty
    /// Minutes already booked (appointments that hold time, inside the window).
    public let bookedMinutes: Double
    /// Minutes of open requests not yet booked.
    public let requestedMinutes: Double
    /// Bookable minutes of the clinicians with this expertise
    /// (`ClinicianAvailability.capacityMinutes(on:timeZone:closures:)` summed over the window's days).
    /// A clinician with several specialties counts towards each, so this is what *could*
    /// serve the specialty if nothing else needed them.
    public let capacityMinutes: Double

    /// Creates a figure.
    public init(specialty: Specialty, bookedMinutes: Double, requestedMinutes: Double, capacityMinutes: Double) {
        self.specialty = specialty
        self.bookedMinutes = bookedMinutes
        self.requestedMinutes = requestedMinutes
        self.capacityMinutes = capacityMinutes
    }

    /// Booked plus requested minutes.
    public var demandMinutes: Double { bookedMinutes + requestedMinutes }
    /// Demand ÷ capacity; `nil` without capacity.
    public var ratio: Double? { capacityMinutes > 0 ? demandMinutes / capacityMinutes : nil }
    /// Minutes of demand beyond capacity (0 when it fits).
    public var shortfallMinutes: Double { max(0, demandMinutes - capacityMinutes) }
    /// Whether demand exceeds capacity (any demand with no capacity at all does).
    public var isBottleneck: Bool { demandMinutes > capacityMinutes }
}

/// Where a clinician's load sits against the target band.
public enum LoadBand: String, Codable, Sendable {
    /// Below the band: idle time on the rota.
    case below
    /// Inside the band.
    case within
    /// Above the band (or booked with no bookable time at all).
    case above
}

/// One clinician's booked time against their bookable time over the window.
public struct ClinicianLoad: Hashable, Codable, Sendable {
    /// The clinician.
    public let clinician: Segment
    /// Minutes booked.
    public let bookedMinutes: Double
    /// Bookable minutes (capacity, capped by the clinician's daily limit).
    public let capacityMinutes: Double
    /// Where the load sits; `nil` for a clinician with neither bookings nor time (not on the rota).
    public let band: LoadBand?

    /// Creates a figure, placing it against `target`.
    public init(clinician: Segment, bookedMinutes: Double, capacityMinutes: Double, target: ClosedRange<Double>) {
        self.clinician = clinician
        self.bookedMinutes = bookedMinutes
        self.capacityMinutes = capacityMinutes
        if capacityMinutes > 0 {
            let load = bookedMinutes / capacityMinutes
            band = load < target.lowerBound ? .below : load > target.upperBound ? .above : .within
        } else {
            band = bookedMinutes > 0 ? .above : nil
        }
    }

    /// Booked ÷ bookable; `nil` without bookable time.
    public var load: Double? { capacityMinutes > 0 ? bookedMinutes / capacityMinutes : nil }
}

/// Where demand outruns capacity over the coming days.
public struct BottleneckReport: Hashable, Codable, Sendable {
    /// First local day of the window.
    public let firstDay: LocalDate
    /// Number of local days.
    public let days: Int
    /// The target load band the clinicians are placed against.
    public let targetLoad: ClosedRange<Double>
    /// Every specialty with demand or capacity, the most overloaded first.
    public let specialties: [SpecialtyLoad]
    /// Every clinician with bookings or time, the most loaded first.
    public let clinicians: [ClinicianLoad]

    /// Creates a report.
    public init(
        firstDay: LocalDate, days: Int, targetLoad: ClosedRange<Double>, specialties: [SpecialtyLoad],
        clinicians: [ClinicianLoad]
    ) {
        self.firstDay = firstDay
        self.days = days
        self.targetLoad = targetLoad
        self.specialties = specialties
        self.clinicians = clinicians
    }

    /// Specialties whose demand exceeds capacity.
    public var bottlenecks: [SpecialtyLoad] { specialties.filter(\.isBottleneck) }
    /// Clinicians above the target band.
    public var overloaded: [ClinicianLoad] { clinicians.filter { $0.band == .above } }
    /// Clinicians below the target band.
    public var underloaded: [ClinicianLoad] { clinicians.filter { $0.band == .below } }
}

extension PracticeAnalytics {
    /// Demand against capacity over the `days` whole local days starting with the day of `asOf`.
    ///
    /// Whole days on both sides, so the morning already past counts its bookings against
    /// the day's full capacity. Every open request counts as demand in the window: it is
    /// waiting to be booked now. `days` is clamped to 1–366.
    public func bottlenecks(asOf: Date, days: Int) -> BottleneckReport {
        let count = min(366, max(1, days))
        // Clamped so the window's days stay inside the years the calendar is trusted in.
        let finite = asOf.timeIntervalSince1970.isFinite ? asOf : DayGrid.earliest
        let instant = min(max(finite, DayGrid.earliest), DayGrid.latest.addingTimeInterval(-400 * 86_400))
        let today = DayGrid(covering: DateInterval(start: instant, duration: 1), timeZone: timeZone).days[0]
        let first = today.date
        let last = first.adding(days: count - 1)
        let from = today.start
        let to =
            AnalyticsPeriod(from: first, through: last, timeZone: timeZone)?.interval.end.timeIntervalSince1970
            ?? today.end

        // Capacity per clinician: the Specialists context's own daily figure, day by day.
        let capacity = catalogue.availabilities.map { availability -> Double in
            guard let availability else { return 0 }
            return (0..<count).reduce(0) {
                $0
                    + Double(
                        availability.capacityMinutes(on: first.adding(days: $1), timeZone: timeZone, closures: closures)
                    )
            }
        }
        var clinicianBooked = Array(repeating: 0.0, count: catalogue.clinicianIDs.count)
        var specialtyBooked = Array(repeating: 0.0, count: Visit.specialties.count)
        for index in visitRange(overlapping: from, to) {
            let visit = visits[index]
            guard visit.hasValidTime, visit.holdsTime else { continue }
            let minutes = (min(visit.end, to) - max(visit.start, from)) / 60
            guard minutes > 0 else { continue }
            clinicianBooked[Int(visit.clinician)] += minutes
            if visit.specialty >= 0 { specialtyBooked[Int(visit.specialty)] += minutes }
        }
        var requested = Array(repeating: 0.0, count: Visit.specialties.count)
        for request in openRequests where request.minutes > 0 {
            requested[Visit.specialties.firstIndex(of: request.specialty ?? .generalPractice)!] += Double(
                request.minutes)
        }

        let specialties = Visit.specialties.indices.map { index in
            SpecialtyLoad(
                specialty: Visit.specialties[index], bookedMinutes: specialtyBooked[index],
                requestedMinutes: requested[index],
                capacityMinutes: catalogue.specialtyMembers[index].reduce(0) { $0 + capacity[$1] })
        }
        .filter { $0.demandMinutes > 0 || $0.capacityMinutes > 0 }
        .sorted { Self.moreLoaded($0.ratio, $0.demandMinutes, than: $1.ratio, $1.demandMinutes) }
        let clinicians = catalogue.clinicianIDs.indices.map { index in
            ClinicianLoad(
                clinician: catalogue.clinicianSegment(index), bookedMinutes: clinicianBooked[index],
                capacityMinutes: capacity[index], target: options.targetLoad)
        }
        .filter { $0.band != nil }
        .sorted { Self.moreLoaded($0.load, $0.bookedMinutes, than: $1.load, $1.bookedMinutes) }
        return BottleneckReport(
            firstDay: first, days: count, targetLoad: options.targetLoad, specialties: specialties,
            clinicians: clinicians)
    }

    /// Orders by load, treating "demand with no capacity" as the most loaded of all.
    static func moreLoaded(_ a: Double?, _ demandA: Double, than b: Double?, _ demandB: Double) -> Bool {
        switch (a, b) {
        case (let a?, let b?): return a != b ? a > b : demandA > demandB
        case (nil, _?): return demandA > 0
        case (_?, nil): return !(demandB > 0)
        case (nil, nil): return demandA > demandB
        }
    }
}
