import Foundation
import SharedKernel

/// A way of breaking the practice's figures down.
public enum Dimension: String, CaseIterable, Codable, Sendable {
    /// The whole practice.
    case practice
    /// Per clinician (the appointment's clinician).
    case clinician
    /// Per specialty the appointment type requires; types requiring none count as general
    /// practice, which every clinician can serve.
    case specialty
    /// Per appointment type.
    case appointmentType
    /// Per allocated room (appointments without a room are in no room segment).
    case room
    /// Per species of the patient (appointments of unknown species are in no species segment).
    case species
}

/// One slice of the practice: a dimension and the value it is cut at.
///
/// `id` is the stable key (a lower-case UUID, a specialty or species raw value, or
/// `practice`); `name` is what a person reads. Ids that point at nothing the history knows
/// (an appointment of a deleted type) keep their id and read "Unknown …".
public struct Segment: Hashable, Codable, Sendable, Comparable {
    /// The dimension.
    public var dimension: Dimension
    /// Stable key within the dimension.
    public var id: String
    /// Human-readable name.
    public var name: String

    /// Creates a segment.
    public init(dimension: Dimension, id: String, name: String) {
        self.dimension = dimension
        self.id = id
        self.name = name
    }

    /// The whole practice.
    public static let practice = Segment(dimension: .practice, id: "practice", name: "Practice")

    /// The segment of a specialty.
    public static func specialty(_ specialty: Specialty) -> Segment {
        Segment(dimension: .specialty, id: specialty.rawValue, name: specialty.displayName)
    }

    /// The segment of a species.
    public static func species(_ species: Species) -> Segment {
        Segment(dimension: .species, id: species.rawValue, name: species.rawValue.capitalized)
    }

    /// Orders by dimension, then name, then id, so lists read alphabetically and stay stable.
    public static func < (lhs: Segment, rhs: Segment) -> Bool {
        let l = Dimension.allCases.firstIndex(of: lhs.dimension)!
        let r = Dimension.allCases.firstIndex(of: rhs.dimension)!
        if l != r { return l < r }
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        return lhs.id < rhs.id
    }
}
