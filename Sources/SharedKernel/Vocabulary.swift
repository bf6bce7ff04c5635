/// Species VetNet records. The VTL was validated on dogs and cats only; the others are
/// triaged with the same catalogue but flagged as not validated.
public enum Species: String, CaseIterable, Codable, Sendable {
    case dog, cat, rabbit, ferret, bird, horse, reptile, other

    /// Exotic species, routed to the exotics service and counted in case complexity.
    public var isExotic: Bool {
        switch self {
        case .rabbit, .ferret, .bird, .reptile: return true
        case .dog, .cat, .horse, .other: return false
        }
    }
}

/// Clinical services a case can be routed to and a clinician can be expert in.
/// The list follows the routing table of the triage specification (§7).
public enum Specialty: String, CaseIterable, Codable, Sendable {
    case emergencyCriticalCare = "emergency_critical_care"
    case orthopedics
    case softTissueSurgery = "soft_tissue_surgery"
    case neurology
    case cardiology
    case ophthalmology
    case dermatology
    case internalMedicine = "internal_medicine"
    case oncology
    case dentistry
    case behavior
    case exotics
    case theriogenology
    case generalPractice = "general_practice"

    /// Human-readable name for lists and explanations.
    public var displayName: String {
        switch self {
        case .emergencyCriticalCare: return "Emergency & critical care"
        case .orthopedics: return "Orthopedic surgery"
        case .softTissueSurgery: return "Soft-tissue surgery"
        case .neurology: return "Neurology"
        case .cardiology: return "Cardiology"
        case .ophthalmology: return "Ophthalmology"
        case .dermatology: return "Dermatology"
        case .internalMedicine: return "Internal medicine"
        case .oncology: return "Oncology"
        case .dentistry: return "Dentistry"
        case .behavior: return "Behaviour"
        case .exotics: return "Exotics"
        case .theriogenology: return "Theriogenology"
        case .generalPractice: return "General practice"
        }
    }
}
