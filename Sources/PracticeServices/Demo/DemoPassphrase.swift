import Foundation

/// The demo accounts' random passphrase: five words drawn independently and uniformly from
/// 256 short, distinct, lower-case words, then two digits, joined by hyphens
/// (`otter-maple-quartz-heron-lagoon-07`): easy to read aloud and type.
///
/// Entropy: 256^5 × 100 = 2^40 × 100 ≈ 2^46.6, about 46.6 bits — beyond reach of online
/// guessing (ten attempts per account per 15 minutes) and costly offline against bcrypt at
/// cost 12. The words must stay distinct (a test checks) or the figure is overstated.
package enum DemoPassphrase {
    /// How many words a passphrase has.
    package static let wordCount = 5
    /// How many values the trailing number takes (00–99).
    package static let numberChoices = 100

    /// Bits of entropy of one passphrase: log2(words^wordCount × numberChoices).
    package static var entropyBits: Double {
        Double(wordCount) * log2(Double(words.count)) + log2(Double(numberChoices))
    }

    /// A fresh passphrase from the system's cryptographic random source.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let chosen = (0..<wordCount).map { _ in words.randomElement(using: &generator)! }
        let number = Int.random(in: 0..<numberChoices, using: &generator)
        return (chosen + [String(format: "%02d", number)]).joined(separator: "-")
    }

    /// 256 words, 3–8 letters each, no two alike.
    package static let words = [
        "acorn", "alder", "amber", "anchor", "angle", "apple", "apron", "arbor", "arch", "arrow", "aspen", "atlas",
        "autumn",
        "badger", "bagel", "bamboo", "banjo", "barley", "barn", "basil", "basin", "beacon", "bean", "beech", "berry",
        "birch",
        "bison", "blanket", "bloom", "bluff", "bobcat", "bonnet", "boulder", "bramble", "brass", "bread", "breeze",
        "brick",
        "bridge", "brook", "broom", "bucket", "buffalo", "bugle", "bunny", "butter", "cabin", "cactus", "camel",
        "candle",
        "canoe", "canyon", "carrot", "castle", "cedar", "cello", "chalk", "cherry", "chess", "chestnut", "cider",
        "cinder",
        "citrus", "clover", "cobalt", "cocoa", "comet", "compass", "copper", "coral", "cotton", "cougar", "coyote",
        "crane",
        "crater", "cricket", "crow", "cypress", "daisy", "dawn", "delta", "desert", "dingo", "dolphin", "donkey",
        "dove",
        "dragon", "drum", "dune", "eagle", "easel", "elm", "ember", "emerald", "falcon", "fennel", "fern", "ferry",
        "fiddle",
        "fig", "finch", "fjord", "flint", "flute", "forest", "fossil", "fox", "gannet", "garden", "garnet", "gecko",
        "ginger",
        "glacier", "goose", "gopher", "granite", "grape", "gravel", "grove", "gull", "hammock", "harbor", "harp",
        "hawk",
        "hazel", "heather", "hedge", "heron", "hickory", "honey", "hornet", "husky", "igloo", "indigo", "iris",
        "island",
        "ivory", "ivy", "jackal", "jade", "jasmine", "jelly", "juniper", "kayak", "kelp", "kettle", "kiwi", "koala",
        "ladder",
        "lagoon", "lantern", "larch", "lark", "laurel", "lemon", "lentil", "lilac", "lily", "linen", "lion", "lobster",
        "locket",
        "lotus", "lynx", "magnet", "mango", "maple", "marble", "meadow", "melon", "mint", "mitten", "mole", "moose",
        "moss",
        "muffin", "nectar", "newt", "nutmeg", "oak", "oasis", "ocean", "olive", "onion", "opal", "orbit", "orchid",
        "osprey",
        "otter", "owl", "oyster", "paddle", "panda", "panther", "papaya", "parrot", "peach", "pebble", "pelican",
        "pepper",
        "pine", "plum", "pond", "poppy", "prairie", "puffin", "pumpkin", "quail", "quartz", "quill", "rabbit", "radish",
        "raven",
        "reed", "rhubarb", "ribbon", "river", "robin", "rocket", "saddle", "saffron", "sage", "salmon", "sandal",
        "sequoia",
        "shell", "sierra", "silver", "sparrow", "spruce", "squash", "starling", "stone", "summit", "swan", "tangelo",
        "tapir",
        "teapot", "thistle", "thunder", "tiger", "timber", "toucan", "trout", "tulip", "tundra", "turnip", "valley",
        "velvet",
        "violet", "walnut", "walrus", "willow", "wombat", "yarrow", "zebra",
    ]
}
