import Foundation
import SharedKernel

extension PracticeAnalytics {
    /// The segments of `dimension` the history knows, in reading order: its clinicians,
    /// appointment types and rooms; the specialties some type requires or some clinician
    /// has (general practice always); every species; the practice itself.
    public func knownSegments(_ dimension: Dimension) -> [Segment] {
        switch dimension {
        case .practice:
            return [.practice]
        case .clinician:
            return (0..<catalogue.knownClinicians).map(catalogue.clinicianSegment).sorted()
        case .specialty:
            return Visit.specialties.indices.filter { index in
                Visit.specialties[index] == .generalPractice || !catalogue.specialtyMembers[index].isEmpty
                    || catalogue.typeSpecialty.prefix(catalogue.knownTypes).contains(Int8(index))
            }.map { .specialty(Visit.specialties[$0]) }
        case .appointmentType:
            return (0..<catalogue.knownTypes).map(catalogue.typeSegment).sorted()
        case .room:
            return (0..<catalogue.knownRooms).map(catalogue.roomSegment).sorted()
        case .species:
            return Visit.speciesList.map(Segment.species)
        }
    }

    /// The segment of `dimension` whose id is `id` (UUIDs in any case), if the history knows it.
    public func segment(_ dimension: Dimension, id: String) -> Segment? {
        let key = UUIDText.parse(id).map(UUIDText.lowercase) ?? id
        return knownSegments(dimension).first { $0.id == key }
    }

    /// The currencies the practice's appointment types charge in, sorted.
    public var currencies: [String] { catalogue.currencies.sorted() }
}
