import Scheduling
import SharedKernel
import Specialists

/// Names and facts the demo practice is drawn from: ordinary names of a UK market town.
package enum DemoPracticeData {
    package static let practiceName = "Riverside Veterinary Hospital"
    package static let timeZone = "Europe/London"
    package static let emailDomain = "riverside-vets.example"

    /// Clinicians: name, credentials, expertise (specialty, proficiency, years), species, cap, complexity ceiling.
    package static let clinicians: [(String, String, [(Specialty, Int, Int)], [Species], Int, Double)] = [
        (
            "Dr Amelia Hart", "BVSc MRCVS DipECVECC", [(.emergencyCriticalCare, 5, 14), (.internalMedicine, 3, 10)],
            [.dog, .cat, .rabbit, .ferret], 14, 1.0
        ),
        (
            "Dr Rajesh Patel", "BVetMed MRCVS DipECVS", [(.orthopedics, 5, 12), (.softTissueSurgery, 4, 12)],
            [.dog, .cat], 8, 1.0
        ),
        (
            "Dr Sophie Turner", "BVM&S MRCVS", [(.generalPractice, 4, 7), (.dermatology, 3, 4)], [.dog, .cat, .rabbit],
            18, 0.6
        ),
        (
            "Dr Tomasz Nowak", "DVM MRCVS DipECVN", [(.neurology, 5, 9), (.internalMedicine, 3, 9)], [.dog, .cat], 10,
            1.0
        ),
        (
            "Dr Hannah Okafor", "BVSc MRCVS CertAVP(Cardio)", [(.cardiology, 4, 8), (.internalMedicine, 4, 8)],
            [.dog, .cat, .ferret], 12, 0.9
        ),
        (
            "Dr Oliver Bennett", "MA VetMB MRCVS", [(.generalPractice, 3, 3), (.dentistry, 3, 2)],
            [.dog, .cat, .rabbit], 18, 0.5
        ),
        (
            "Dr Isabel Moreno", "DVM MRCVS DipECZM", [(.exotics, 5, 11), (.generalPractice, 3, 11)],
            [.rabbit, .ferret, .bird, .reptile, .other], 14, 1.0
        ),
        ("Dr Callum Fraser", "BVMS MRCVS DipECVO", [(.ophthalmology, 5, 10)], [.dog, .cat, .rabbit, .horse], 12, 0.9),
        (
            "Dr Priya Sharma", "BVSc MRCVS DipECVIM-CA (Oncology)", [(.oncology, 5, 8), (.internalMedicine, 4, 8)],
            [.dog, .cat], 10, 1.0
        ),
        (
            "Dr Ewan MacLeod", "BVSc MRCVS CertAVP(EM)",
            [(.emergencyCriticalCare, 4, 6), (.generalPractice, 4, 6), (.theriogenology, 3, 4)], [.dog, .cat, .horse],
            14, 0.8
        ),
    ]

    package static let technicians = ["Chloe Adams", "Liam Walsh", "Megan Price"]
    package static let receptionists = ["Grace Hughes", "Daniel Reid"]
    package static let administrator = "Fiona Campbell"

    package static let firstNames = [
        "Oliver", "Amelia", "George", "Isla", "Harry", "Ava", "Noah", "Mia", "Jack", "Emily", "Leo", "Poppy",
        "Arthur", "Sophia", "Oscar", "Grace", "Charlie", "Lily", "Thomas", "Freya", "James", "Evie", "William",
        "Ella", "Henry", "Ruby", "Alfie", "Alice", "Joshua", "Florence", "Aisha", "Mohammed", "Zofia", "Chen",
        "Siobhan", "Rhys", "Niamh", "Kwame", "Anika", "Matteo",
    ]
    package static let lastNames = [
        "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright",
        "Thompson", "Evans", "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke",
        "Khan", "Ahmed", "Kowalski", "O'Brien", "Murphy", "Lewis", "Harris", "Martin", "Cooper", "Morgan",
    ]
    package static let streets = [
        "Mill Lane", "Church Street", "Station Road", "Riverside Walk", "Victoria Road", "High Street",
        "Orchard Close", "Meadow Way", "Kingfisher Drive", "Abbey Road",
    ]

    package static let petNames: [Species: [String]] = [
        .dog: [
            "Bella", "Max", "Luna", "Teddy", "Poppy", "Alfie", "Daisy", "Milo", "Rosie", "Bailey", "Archie", "Willow",
            "Buster", "Nala",
        ],
        .cat: [
            "Smudge", "Tigger", "Misty", "Oscar", "Cleo", "Simba", "Pepper", "Felix", "Shadow", "Mittens", "Ginger",
        ],
        .rabbit: ["Thumper", "Clover", "Biscuit", "Hazel", "Flopsy"],
        .ferret: ["Bandit", "Ziggy", "Noodle"],
        .bird: ["Kiwi", "Sunny", "Rio", "Pip"],
        .horse: ["Duke", "Star", "Bramble"],
        .reptile: ["Spike", "Rex", "Sheldon"],
    ]
    package static let breeds: [Species: [String]] = [
        .dog: [
            "Labrador Retriever", "Border Collie", "Cocker Spaniel", "French Bulldog", "Staffordshire Bull Terrier",
            "Jack Russell Terrier", "German Shepherd", "Cavapoo", "Dachshund", "Golden Retriever", "Whippet",
        ],
        .cat: [
            "Domestic Shorthair", "Domestic Longhair", "British Shorthair", "Maine Coon", "Siamese", "Ragdoll",
            "Bengal",
        ],
        .rabbit: ["Netherland Dwarf", "Lionhead", "Mini Lop", "Rex"],
        .ferret: ["Sable", "Albino"],
        .bird: ["Budgerigar", "Cockatiel", "African Grey Parrot"],
        .horse: ["Welsh Cob", "Thoroughbred", "Irish Draught"],
        .reptile: ["Bearded Dragon", "Leopard Gecko", "Hermann's Tortoise"],
    ]
    package static let colours: [Species: [String]] = [
        .dog: ["black", "yellow", "chocolate", "tricolour", "brindle", "black and white", "red"],
        .cat: ["tabby", "black", "ginger", "tortoiseshell", "black and white", "grey", "seal point"],
        .rabbit: ["agouti", "white", "black", "grey"],
        .ferret: ["sable", "white"],
        .bird: ["green", "grey", "yellow"],
        .horse: ["bay", "chestnut", "grey"],
        .reptile: ["tan", "orange", "olive"],
    ]
    package static let alerts = [
        "bites", "penicillin allergy", "nervous: muzzle for exams", "NSAID intolerance", "aggressive with other dogs",
    ]

    // MARK: - Schedule

    package static let rooms: [(String, RoomType)] = [
        ("Consult 1", .exam), ("Consult 2", .exam), ("Consult 3", .exam), ("Consult 4", .exam),
        ("Theatre 1", .surgery), ("Theatre 2", .surgery), ("Dental suite", .dental), ("Imaging", .imaging),
        ("Isolation ward", .isolation),
    ]

    package static let appointmentTypes: [AppointmentType] = [
        AppointmentType(
            name: "Consultation", defaultDurationMinutes: 15, bufferAfterMinutes: 5, requiredRoomType: .exam,
            fee: Money(minorUnits: 5_500, currency: "GBP")),
        AppointmentType(
            name: "Vaccination", defaultDurationMinutes: 10, bufferAfterMinutes: 5, requiredRoomType: .exam,
            fee: Money(minorUnits: 6_200, currency: "GBP")),
        AppointmentType(
            name: "Emergency assessment", defaultDurationMinutes: 30, bufferAfterMinutes: 10,
            requiredSpecialty: .emergencyCriticalCare,
            requiredRoomType: .exam, fee: Money(minorUnits: 15_000, currency: "GBP")),
        AppointmentType(
            name: "Orthopaedic consultation", defaultDurationMinutes: 30, bufferAfterMinutes: 5,
            requiredSpecialty: .orthopedics,
            requiredRoomType: .exam, fee: Money(minorUnits: 12_000, currency: "GBP")),
        AppointmentType(
            name: "Neurology consultation", defaultDurationMinutes: 45, bufferAfterMinutes: 5,
            requiredSpecialty: .neurology,
            requiredRoomType: .exam, fee: Money(minorUnits: 14_000, currency: "GBP")),
        AppointmentType(
            name: "Cardiology work-up", defaultDurationMinutes: 45, bufferAfterMinutes: 10,
            requiredSpecialty: .cardiology,
            requiredRoomType: .imaging, fee: Money(minorUnits: 18_000, currency: "GBP")),
        AppointmentType(
            name: "Eye examination", defaultDurationMinutes: 30, bufferAfterMinutes: 5,
            requiredSpecialty: .ophthalmology,
            requiredRoomType: .exam, fee: Money(minorUnits: 9_500, currency: "GBP")),
        AppointmentType(
            name: "Dental procedure", defaultDurationMinutes: 90, bufferAfterMinutes: 15, requiredSpecialty: .dentistry,
            requiredRoomType: .dental, fee: Money(minorUnits: 32_000, currency: "GBP")),
        AppointmentType(
            name: "Soft-tissue surgery", defaultDurationMinutes: 120, bufferAfterMinutes: 30,
            requiredSpecialty: .softTissueSurgery,
            requiredRoomType: .surgery, fee: Money(minorUnits: 95_000, currency: "GBP")),
        AppointmentType(
            name: "Exotics consultation", defaultDurationMinutes: 30, bufferAfterMinutes: 5,
            requiredSpecialty: .exotics,
            requiredRoomType: .exam, fee: Money(minorUnits: 7_500, currency: "GBP")),
        AppointmentType(
            name: "Oncology review", defaultDurationMinutes: 40, bufferAfterMinutes: 5, requiredSpecialty: .oncology,
            requiredRoomType: .exam, fee: Money(minorUnits: 13_000, currency: "GBP")),
    ]

    /// Staggered shifts so the practice is covered 08:00–19:00 on weekdays and Saturday morning.
    package static func availability(for clinician: Identifier<Clinician>, index: Int) -> ClinicianAvailability {
        let early = index % 2 == 0
        let start = early ? 8 * 60 : 10 * 60 + 30
        let end = early ? 16 * 60 + 30 : 19 * 60
        let lunch = early ? 12 * 60 : 14 * 60
        var weekly = (1...5).filter { $0 != (index % 5) + 1 || index < 5 }.map {
            WeeklyInterval(weekday: $0, startMinute: start, endMinute: end)
        }
        if index % 3 == 0 { weekly.append(WeeklyInterval(weekday: 6, startMinute: 9 * 60, endMinute: 13 * 60)) }
        let breaks = (1...5).map { WeeklyInterval(weekday: $0, startMinute: lunch, endMinute: lunch + 45) }
        return ClinicianAvailability(
            clinicianID: clinician, weekly: weekly, breaks: breaks, maxBookedMinutesPerDay: nil)
    }
}
