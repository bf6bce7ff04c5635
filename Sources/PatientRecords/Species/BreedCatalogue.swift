import Foundation
import SharedKernel

/// How a recorded breed relates to the catalogue of the patient's species.
public enum BreedMatch: Hashable, Sendable {
    /// A catalogued breed of the patient's species, with its catalogue spelling.
    case catalogued(String)
    /// A catalogued breed of another species ("Siamese" on a dog): worth a second look.
    case otherSpecies(String, Species)
    /// Not in the catalogue: kept exactly as written, and shown as free text.
    case freeText
}

/// The breeds a practice meets most, per species, for pick lists. Free text is always
/// allowed — crosses, rare breeds and local names are real — but is marked as such so that
/// reports grouping by breed know which entries they can trust.
public enum BreedCatalogue {
    /// The catalogue of `species`, alphabetical; empty for species recorded without breeds.
    public static func breeds(of species: Species) -> [String] { catalogue[species] ?? [] }

    /// How `breed` matches the catalogues, compared without case, accents or repeated spaces.
    public static func match(_ breed: String, species: Species) -> BreedMatch {
        let key = normalized(breed)
        guard !key.isEmpty else { return .freeText }
        if let name = breeds(of: species).first(where: { normalized($0) == key }) { return .catalogued(name) }
        for other in Species.allCases where other != species {
            if let name = breeds(of: other).first(where: { normalized($0) == key }) {
                return .otherSpecies(name, other)
            }
        }
        return .freeText
    }

    static func normalized(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static let catalogue: [Species: [String]] = [
        .dog: [
            "Akita", "Alaskan Malamute", "Basset Hound", "Beagle", "Bernese Mountain Dog", "Bichon Frise",
            "Border Collie", "Border Terrier",
            "Boston Terrier", "Boxer", "Bull Terrier", "Bulldog", "Cavalier King Charles Spaniel", "Chihuahua",
            "Cocker Spaniel", "Cockapoo",
            "Dachshund", "Dalmatian", "Dobermann", "English Springer Spaniel", "French Bulldog", "German Shepherd",
            "German Shorthaired Pointer",
            "Golden Retriever", "Great Dane", "Greyhound", "Havanese", "Jack Russell Terrier", "Labrador Retriever",
            "Labradoodle", "Lhasa Apso",
            "Maltese", "Miniature Schnauzer", "Newfoundland", "Pomeranian", "Poodle", "Pug", "Rhodesian Ridgeback",
            "Rottweiler", "Saint Bernard",
            "Shetland Sheepdog", "Shih Tzu", "Siberian Husky", "Staffordshire Bull Terrier", "Vizsla", "Weimaraner",
            "West Highland White Terrier",
            "Whippet", "Yorkshire Terrier", "Mixed breed",
        ],
        .cat: [
            "Abyssinian", "Bengal", "Birman", "British Longhair", "British Shorthair", "Burmese", "Cornish Rex",
            "Devon Rex",
            "Domestic Longhair", "Domestic Shorthair", "Maine Coon", "Norwegian Forest Cat", "Oriental Shorthair",
            "Persian", "Ragdoll",
            "Russian Blue", "Scottish Fold", "Siamese", "Sphynx", "Turkish Van",
        ],
        .rabbit: [
            "Dutch", "English Lop", "Flemish Giant", "French Lop", "Himalayan", "Lionhead", "Mini Lop", "Mini Rex",
            "Netherland Dwarf",
            "Polish", "Rex", "Mixed breed rabbit",
        ],
        .ferret: ["Albino ferret", "Angora ferret", "Polecat ferret", "Sable ferret"],
        .bird: [
            "African Grey Parrot", "Amazon Parrot", "Budgerigar", "Canary", "Cockatiel", "Cockatoo", "Conure",
            "Lovebird", "Macaw",
            "Zebra Finch", "Chicken", "Duck", "Pigeon",
        ],
        .horse: [
            "Appaloosa", "Arabian", "Clydesdale", "Cob", "Connemara", "Friesian", "Highland Pony", "Irish Draught",
            "Quarter Horse",
            "Shetland Pony", "Shire", "Thoroughbred", "Warmblood", "Welsh Pony", "Donkey",
        ],
        .reptile: [
            "Ball Python", "Bearded Dragon", "Corn Snake", "Crested Gecko", "Hermann's Tortoise", "Leopard Gecko",
            "Red-eared Slider",
            "Royal Python", "Spur-thighed Tortoise", "Veiled Chameleon",
        ],
    ]
}
