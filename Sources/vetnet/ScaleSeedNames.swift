import SharedKernel

/// Name lists for generated performance data: common given and family names of a UK practice's
/// clients (with the mix of origins a city practice sees) and popular pet names per species.
/// Long lists keep search prefixes selective, as real names are.
enum ScaleSeedNames {
    static let firstNames = [
        "Oliver", "Amelia", "George", "Isla", "Harry", "Ava", "Noah", "Mia", "Jack", "Emily", "Leo", "Poppy", "Arthur",
        "Sophia",
        "Oscar", "Grace", "Charlie", "Lily", "Thomas", "Freya", "James", "Evie", "William", "Ella", "Henry", "Ruby",
        "Alfie", "Alice",
        "Joshua", "Florence", "Aisha", "Mohammed", "Zofia", "Chen", "Siobhan", "Rhys", "Niamh", "Kwame", "Anika",
        "Matteo", "Daniel",
        "Sarah", "David", "Rachel", "Michael", "Laura", "Paul", "Helen", "Mark", "Claire", "Peter", "Karen", "Andrew",
        "Julie",
        "Stephen", "Nicola", "Richard", "Emma", "Robert", "Hannah", "Christopher", "Rebecca", "Matthew", "Victoria",
        "Simon", "Joanne",
        "Gareth", "Bethan", "Callum", "Eilidh", "Fraser", "Morag", "Declan", "Aoife", "Ciaran", "Roisin", "Priya",
        "Rohan", "Imran",
        "Fatima", "Yusuf", "Zara", "Tomasz", "Agnieszka", "Piotr", "Katarzyna", "Luca", "Giulia", "Pablo", "Lucia",
        "Kofi", "Ama",
        "Wei", "Mei", "Hiroshi", "Yuki", "Dmitri", "Olga", "Ahmed", "Layla", "Samuel", "Naomi", "Benjamin", "Abigail",
        "Lewis",
        "Megan", "Ethan", "Chloe", "Dylan", "Jessica", "Owen", "Lauren", "Harvey", "Phoebe", "Reuben", "Imogen", "Zoë",
        "Renée",
    ]

    static let lastNames = [
        "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright",
        "Thompson", "Evans",
        "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke", "Khan", "Ahmed", "Kowalski",
        "O'Brien", "Murphy",
        "Lewis", "Harris", "Martin", "Cooper", "Morgan", "Patel", "Shah", "Singh", "Hussain", "Ali", "Begum", "Edwards",
        "Hughes",
        "Turner", "Hill", "Moore", "Clark", "Baker", "Harrison", "Morris", "Ward", "Watson", "Young", "King", "Allen",
        "Porter",
        "Scott", "Mitchell", "Phillips", "Campbell", "Anderson", "Bell", "Kelly", "Mason", "Parker", "Carter", "Shaw",
        "Price",
        "Bennett", "Griffiths", "Lloyd", "Cook", "Richardson", "Bailey", "Collins", "Stewart", "Marshall", "Owen",
        "Fraser", "MacLeod",
        "MacDonald", "Reid", "Ross", "Paterson", "Murray", "Graham", "Kennedy", "Doherty", "Byrne", "Walsh", "O'Neill",
        "Gallagher",
        "Nowak", "Wiśniewski", "Lewandowski", "Rossi", "Russo", "Ferrari", "García", "Fernández", "López", "Müller",
        "Schmidt",
        "Nguyen", "Wang", "Li", "Zhang", "Tanaka", "Sato", "Ivanov", "Petrov", "Mensah", "Owusu", "Okafor", "Adeyemi",
        "Chowdhury",
        "Rahman", "Malik", "Iqbal", "Akhtar", "Sharma", "Gupta", "Das", "Pereira", "Santos", "Costa", "Dubois",
        "Lefèvre", "Jansen",
        "de Vries", "Novak", "Horvat", "Kovács", "Nagy", "Popescu", "Andersen", "Nielsen", "Hansen", "Berg",
        "Lindqvist", "Fischer",
        "Weber", "Becker", "Hoffmann", "Schulz", "Keller", "Brooks", "Foster", "Gray", "Hayes", "Holmes", "Hunt",
        "Knight", "Lawrence",
    ]

    static let petNames: [Species: [String]] = [
        .dog: [
            "Bella", "Max", "Luna", "Teddy", "Poppy", "Alfie", "Daisy", "Milo", "Rosie", "Bailey", "Archie", "Willow",
            "Buster", "Nala",
            "Bonnie", "Ruby", "Charlie", "Lola", "Ted", "Molly", "Coco", "Bruno", "Ralph", "Hugo", "Otis", "Winnie",
            "Maple", "Pickle",
            "Biscuit", "Murphy", "Rocky", "Dexter", "Jasper", "Monty", "Reggie", "Bear", "Toby", "Rufus", "Honey",
            "Mabel", "Ziggy",
            "Ollie", "Frankie", "Skye", "Storm", "Bramble", "Fudge", "Pepper", "Scout", "Nova", "Hazel", "Olive",
            "Marley", "Duke",
        ],
        .cat: [
            "Smudge", "Tigger", "Misty", "Oscar", "Cleo", "Simba", "Pepper", "Felix", "Shadow", "Mittens", "Ginger",
            "Luna", "Loki",
            "Salem", "Binx", "Mochi", "Tilly", "Pumpkin", "Sooty", "Socks", "Whiskers", "Jasper", "Nala", "Milo",
            "Willow", "Bagheera",
            "Figaro", "Marmalade", "Pixel", "Tabitha", "Kiki", "Sushi", "Ninja", "Boo", "Puss", "Oreo", "Snowy", "Tom",
            "Jinx", "Zelda",
        ],
        .rabbit: [
            "Thumper", "Clover", "Biscuit", "Hazel", "Flopsy", "Mopsy", "Peter", "Bun", "Cinnamon", "Nutmeg",
            "Dandelion", "Oreo",
            "Cotton", "Bugsy", "Honey", "Pip", "Willow", "Blossom",
        ],
        .ferret: ["Bandit", "Ziggy", "Noodle", "Loki", "Slinky", "Bilbo", "Frodo", "Rascal", "Weasley", "Sox"],
        .bird: [
            "Kiwi", "Sunny", "Rio", "Pip", "Polly", "Tweety", "Mango", "Charlie", "Blue", "Echo", "Skye", "Sky",
            "Peaches", "Coco",
        ],
        .horse: [
            "Duke", "Star", "Bramble", "Blaze", "Shadow", "Storm", "Apollo", "Misty", "Rosie", "Bella", "Jester",
            "Magic",
        ],
        .reptile: [
            "Spike", "Rex", "Sheldon", "Ziggy", "Godzilla", "Norbert", "Yoshi", "Smaug", "Kaa", "Tank", "Shelly",
            "Iggy",
        ],
        .other: ["Nibbles", "Squeak", "Peanut", "Hammy", "Gizmo", "Pebbles", "Whiskers", "Popcorn"],
    ]

    static let breeds: [Species: [String]] = [
        .dog: [
            "Labrador Retriever", "Border Collie", "Cocker Spaniel", "French Bulldog", "Staffordshire Bull Terrier",
            "Jack Russell Terrier",
            "German Shepherd", "Cavapoo", "Dachshund", "Golden Retriever", "Whippet", "Springer Spaniel", "Shih Tzu",
            "Pug", "Beagle",
            "Border Terrier", "Cockapoo", "Miniature Schnauzer", "Boxer", "Greyhound", "Crossbreed",
        ],
        .cat: [
            "Domestic Shorthair", "Domestic Longhair", "British Shorthair", "Maine Coon", "Siamese", "Ragdoll",
            "Bengal", "Persian", "Sphynx",
        ],
        .rabbit: ["Netherland Dwarf", "Lionhead", "Mini Lop", "Rex", "Dutch", "Flemish Giant"],
        .ferret: ["Sable", "Albino", "Cinnamon"],
        .bird: ["Budgerigar", "Cockatiel", "African Grey Parrot", "Canary", "Lovebird"],
        .horse: ["Welsh Cob", "Thoroughbred", "Irish Draught", "Shetland Pony", "Connemara"],
        .reptile: ["Bearded Dragon", "Leopard Gecko", "Hermann's Tortoise", "Corn Snake", "Royal Python"],
        .other: ["Syrian Hamster", "Guinea Pig", "Chinchilla", "Degu", "Rat"],
    ]

    static let colours = [
        "black", "white", "tabby", "ginger", "grey", "brown", "tricolour", "brindle", "cream", "black and white",
        "chocolate",
        "sable", "agouti", "bay", "chestnut", "green", "yellow", "tortoiseshell", "fawn", "red",
    ]

    static let alerts = [
        "bites", "penicillin allergy", "nervous: muzzle for exams", "NSAID intolerance", "aggressive with other dogs",
        "diabetic", "epileptic", "heart murmur",
    ]

    static let streets = [
        "Mill Lane", "Church Street", "Station Road", "Riverside Walk", "Victoria Road", "High Street", "Orchard Close",
        "Meadow Way", "Kingfisher Drive", "Abbey Road", "Park Avenue", "Queen Street", "Chapel Lane", "Green Lane",
    ]
    static let towns: [(String, String)] = [
        ("Leeds", "LS"), ("York", "YO"), ("Harrogate", "HG"), ("Wakefield", "WF"), ("Bradford", "BD"),
        ("Otley", "LS"), ("Ilkley", "LS"), ("Skipton", "BD"),
    ]
}
