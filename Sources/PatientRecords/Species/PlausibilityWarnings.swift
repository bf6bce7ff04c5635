import Foundation
import SharedKernel

/// Something on a record that is possible but unlikely enough to be a typing slip: shown to
/// staff next to the field, never a reason to refuse saving (a 31-year-old cat exists).
public struct PlausibilityWarning: Codable, Hashable, Sendable {
    /// The field concerned (`birthDate`, `breed`).
    public var field: String
    /// What looks wrong and what to check.
    public var message: String

    /// Creates a warning.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// The oldest age at which each species is commonly seen, in years. An older patient is
/// possible (record holders exist) but far more often the date of birth is wrong.
public enum SpeciesLifespan {
    /// Typical maximum age in years, `nil` when the species varies too much to say.
    public static func typicalMaximumYears(_ species: Species) -> Int? {
        switch species {
        case .dog: return 20
        case .cat: return 25
        case .rabbit: return 14
        case .ferret: return 11
        case .bird: return 80
        case .horse: return 40
        case .reptile: return 100
        case .other: return nil
        }
    }
}

extension Patient {
    /// The record's plausibility warnings at `now`: an age above the species' typical
    /// maximum, a breed of another species, and a breed that is not in the catalogue (kept as
    /// written, flagged as free text).
    public func plausibilityWarnings(now: Date, calendar: Calendar = RecordCalendar.utc) -> [PlausibilityWarning] {
        var warnings: [PlausibilityWarning] = []
        if let birthDate, let maximum = SpeciesLifespan.typicalMaximumYears(species),
            let years = calendar.dateComponents([.year], from: birthDate, to: now).year, years > maximum
        {
            warnings.append(
                PlausibilityWarning(
                    field: "birthDate",
                    message:
                        """
                        an age of \(years) years is above the typical maximum for a \(species.rawValue) (\(maximum) \
                        years); check the date of birth
                        """
                ))
        }
        if let breed, !breed.trimmingCharacters(in: .whitespaces).isEmpty {
            switch BreedCatalogue.match(breed, species: species) {
            case .catalogued:
                break
            case .otherSpecies(let name, let other):
                warnings.append(
                    PlausibilityWarning(
                        field: "breed",
                        message: "\(name) is a \(other.rawValue) breed, but the patient is a \(species.rawValue)"))
            case .freeText where !BreedCatalogue.breeds(of: species).isEmpty:
                warnings.append(
                    PlausibilityWarning(
                        field: "breed",
                        message: "not in the \(species.rawValue) breed catalogue; kept as written (free text)"))
            case .freeText:
                break
            }
        }
        return warnings
    }

    /// Whether the breed is one of the species' catalogued breeds (`nil` without a breed).
    public var breedIsCatalogued: Bool? {
        guard let breed, !breed.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        if case .catalogued = BreedCatalogue.match(breed, species: species) { return true }
        return false
    }
}
