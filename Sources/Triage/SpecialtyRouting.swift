import SharedKernel

// MARK: - Specialty routing (§7)

/// Ranks the services a case should go to, with reasons.
///
/// Evidence and points: each fired discriminator gives its first routing service
/// 2 + 4 × urgency points and the others 1; each complaint keyword 2 points; an exotic
/// species 6 points to exotics (the species decides who can treat it safely). Red and
/// orange cases put emergency & critical care first whatever the points (§7). With no
/// evidence at all the case goes to general practice.
enum SpecialtyRouting {
    static func rank(level: TriageLevel, fired: [FiredDiscriminator], complaint: String?, species: Species)
        -> [SpecialtyRecommendation]
    {
        let specialties = Specialty.allCases
        var points = [Double](repeating: 0, count: specialties.count)
        var reasons = [[String]](repeating: [], count: specialties.count)
        func add(_ specialty: Specialty, _ value: Double, _ reason: String) {
            let index = specialty.index
            points[index] += value
            reasons[index].append(reason)
        }

        for firing in fired {
            for (position, specialty) in firing.discriminator.routing.enumerated() {
                add(
                    specialty, position == 0 ? 2 + 4 * firing.level.urgency : 1,
                    "fired " + firing.id.rawValue + " (" + firing.level.colour + ", " + firing.subcategory.rawValue
                        + ")")
            }
        }
        if let complaint {
            for hit in ComplaintKeywords.matches(in: complaint) {
                add(hit.specialty, 2, "complaint mentions \"" + hit.word + "\"")
            }
        }
        if species.isExotic {
            add(.exotics, 6, species.rawValue + " is an exotic species")
        }

        var order = specialties.indices.filter { points[$0] > 0 }
        order.sort { points[$0] != points[$1] ? points[$0] > points[$1] : $0 < $1 }
        if level <= .orange {
            let emergency = Specialty.emergencyCriticalCare.index
            order.removeAll { $0 == emergency }
            order.insert(emergency, at: 0)
            reasons[emergency].insert("level " + level.colour + ": emergency & critical care first", at: 0)
        }
        if order.isEmpty {
            let general = Specialty.generalPractice.index
            order = [general]
            reasons[general] = ["no presentation points to a specific service"]
        }
        return order.enumerated().map { rank, index in
            SpecialtyRecommendation(
                specialty: specialties[index], rank: rank + 1, score: points[index], reasons: reasons[index])
        }
    }
}

extension Specialty {
    /// Position in `allCases`, for array-indexed tallies.
    var index: Int {
        switch self {
        case .emergencyCriticalCare: return 0
        case .orthopedics: return 1
        case .softTissueSurgery: return 2
        case .neurology: return 3
        case .cardiology: return 4
        case .ophthalmology: return 5
        case .dermatology: return 6
        case .internalMedicine: return 7
        case .oncology: return 8
        case .dentistry: return 9
        case .behavior: return 10
        case .exotics: return 11
        case .theriogenology: return 12
        case .generalPractice: return 13
        }
    }
}
