import Foundation
import SharedKernel

/// The plausible body weights of each species, used to refuse typing slips such as a cat
/// entered as 45 kg (meant: 4.5 kg) or a dog entered in grams as kilograms.
///
/// The bounds are deliberately wide: they stop absurd entries, not unusual animals.
///
/// | species | minimum  | maximum  | why the bounds                                              |
/// |---------|----------|----------|-------------------------------------------------------------|
/// | dog     | 0.05 kg  | 120 kg   | newborn toy breeds to the heaviest mastiffs                 |
/// | cat     | 0.05 kg  | 15 kg    | newborn kittens to very obese or giant-breed adults         |
/// | rabbit  | 0.02 kg  | 12 kg    | newborn kits to Flemish giants                              |
/// | ferret  | 0.1 kg   | 3.5 kg   | weaned kits to large hobs                                   |
/// | bird    | 0.002 kg | 20 kg    | hummingbirds to large ratite chicks and swans               |
/// | horse   | 20 kg    | 1500 kg  | miniature foals to draught breeds                           |
/// | reptile | 0.001 kg | 300 kg   | hatchling geckos to large tortoises and crocodilians        |
/// | other   | 0.001 kg | 2000 kg  | anything else (insects excluded, livestock included)        |
///
/// Both bounds are inclusive.
public enum SpeciesWeightRange {
    /// The inclusive plausible range for `species`, in kilograms.
    public static func kilograms(for species: Species) -> ClosedRange<Decimal> {
        switch species {
        case .dog: return kg("0.05")...kg("120")
        case .cat: return kg("0.05")...kg("15")
        case .rabbit: return kg("0.02")...kg("12")
        case .ferret: return kg("0.1")...kg("3.5")
        case .bird: return kg("0.002")...kg("20")
        case .horse: return kg("20")...kg("1500")
        case .reptile: return kg("0.001")...kg("300")
        case .other: return kg("0.001")...kg("2000")
        }
    }

    /// Whether `measurement` is plausible for `species`.
    public static func contains(_ measurement: WeightMeasurement, for species: Species) -> Bool {
        let kilograms = measurement.kilograms
        // Decimal's NaN compares as below every number, so a range would claim to contain it.
        return !kilograms.isNaN && self.kilograms(for: species).contains(kilograms)
    }

    /// Decimal literals go through text: a `Double` literal such as 0.05 is not exactly 0.05.
    private static func kg(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
    }
}
