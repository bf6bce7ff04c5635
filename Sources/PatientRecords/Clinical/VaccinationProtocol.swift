import Foundation
import SharedKernel

/// The vaccines a practice gives a species and how often, as published guidance: the data
/// that proposes a vaccination's next due date (staff may always change it).
///
/// Intervals are the adult revaccination intervals of the cited guidance. A young animal's
/// primary course is given every 2–4 weeks until at least 16 weeks of age (WSAVA 2024), so a
/// dose given before 16 weeks proposes the next one ``primaryCourseIntervalDays`` later.
/// Rabies intervals depend on the licensed product and local law; the shorter, one-year
/// interval is proposed, because a reminder a little early is safe and one too late is not.
public struct VaccinationProtocol: Sendable, Hashable {
    /// One vaccine of a protocol.
    public struct Vaccine: Sendable, Hashable {
        /// The name shown to staff.
        public let name: String
        /// Other names and abbreviations it is recorded under (matched without case).
        public let aliases: [String]
        /// Whether every animal of the species should have it (otherwise by lifestyle and risk).
        public let core: Bool
        /// Days from one adult dose to the next.
        public let intervalDays: Int
        /// What staff should know about the interval.
        public let note: String?
    }

    /// The species the protocol is for.
    public let species: Species
    /// The guidance it follows.
    public let source: String
    /// Its vaccines, core first.
    public let vaccines: [Vaccine]

    /// Days between doses of a primary course (WSAVA 2024: every 2–4 weeks until 16 weeks or older).
    public static let primaryCourseIntervalDays = 28
    /// The age below which a dose is part of the primary course.
    public static let primaryCourseEndsAtWeeks = 16

    /// The protocol for `species`, or `nil` for species without published core vaccines here
    /// (birds, horses, reptiles and others: staff enter the due date themselves).
    public static func protocolFor(_ species: Species) -> VaccinationProtocol? {
        all.first { $0.species == species }
    }

    /// The vaccine of this protocol that `name` names: its name or an alias, without case or
    /// surrounding spaces, or a product name with one of them among its words ("Nobivac DHP",
    /// "Versican Plus L4"). Words are cut at anything not a letter or digit, so an alias
    /// matches only as whole words: "Pi" is not found inside "DHPPi".
    public func vaccine(named name: String) -> Vaccine? {
        let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !wanted.isEmpty else { return nil }
        if let exact = vaccines.first(where: { ([$0.name] + $0.aliases).contains { $0.lowercased() == wanted } }) {
            return exact
        }
        let words = Self.words(wanted)
        return vaccines.first { vaccine in
            vaccine.aliases.contains { alias in
                let aliasWords = Self.words(alias.lowercased())
                guard !aliasWords.isEmpty, aliasWords.count <= words.count else { return false }
                return (0...(words.count - aliasWords.count)).contains {
                    Array(words[$0..<($0 + aliasWords.count)]) == aliasWords
                }
            }
        }
    }

    /// The words of a lower-cased name, cut at anything not a letter or digit.
    private static func words(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The proposed next due day of `vaccine` given on `administered` to a patient born on
    /// `birthDate`: the primary course's interval while the patient is under 16 weeks, the
    /// adult interval otherwise (and when the birth date is unknown).
    public static func nextDue(
        after administered: Date, of vaccine: Vaccine, birthDate: Date?,
        calendar: Calendar = RecordCalendar.utc
    ) -> (date: Date, intervalDays: Int) {
        var interval = vaccine.intervalDays
        if let birthDate,
            let days = calendar.dateComponents(
                [.day], from: calendar.startOfDay(for: birthDate),
                to: calendar.startOfDay(for: administered)
            ).day,
            days >= 0, days < primaryCourseEndsAtWeeks * 7
        {
            interval = primaryCourseIntervalDays
        }
        let due =
            calendar.date(byAdding: .day, value: interval, to: calendar.startOfDay(for: administered)) ?? administered
        return (due, interval)
    }

    /// The protocols, one per species that has one.
    public static let all: [VaccinationProtocol] = [
        VaccinationProtocol(
            species: .dog,
            source:
                """
                WSAVA 2024 guidelines for the vaccination of dogs and cats (Squires et al., J Small Anim Pract \
                2024;65:277–316)
                """,
            vaccines: [
                Vaccine(
                    name: "DHP (distemper, adenovirus, parvovirus)",
                    aliases: [
                        "DHP", "DHPP", "DAPP", "DA2P", "DHPPi", "distemper", "parvovirus", "parvo", "adenovirus", "CDV",
                        "CPV", "CAV-2",
                    ],
                    core: true, intervalDays: 1_095, note: "Every 3 years after the booster at 6 to 12 months of age."),
                Vaccine(
                    name: "Rabies", aliases: ["rabies"], core: true, intervalDays: 365,
                    note: "Core where required by law; 3 years for products licensed for it."),
                Vaccine(
                    name: "Leptospirosis", aliases: ["lepto", "L2", "L4", "leptospira"], core: false, intervalDays: 365,
                    note: "Yearly: immunity is short-lived."),
                Vaccine(
                    name: "Kennel cough (Bordetella, parainfluenza)",
                    aliases: ["kennel cough", "KC", "bordetella", "parainfluenza", "CPiV", "Pi"], core: false,
                    intervalDays: 365, note: nil),
            ]),
        VaccinationProtocol(
            species: .cat,
            source:
                """
                WSAVA 2024 guidelines for the vaccination of dogs and cats (Squires et al., J Small Anim Pract \
                2024;65:277–316)
                """,
            vaccines: [
                Vaccine(
                    name: "FVRCP (panleukopenia, herpesvirus, calicivirus)",
                    aliases: [
                        "FVRCP", "RCP", "FPV", "FHV", "FCV", "panleukopenia", "feline enteritis", "cat flu", "Tricat",
                    ],
                    core: true, intervalDays: 1_095,
                    note:
                        """
                        Every 3 years after the booster at 6 to 12 months; yearly for herpes and calici in high-risk \
                        cats.
                        """
                ),
                Vaccine(
                    name: "Rabies", aliases: ["rabies"], core: true, intervalDays: 365,
                    note: "Core where required by law; 3 years for products licensed for it."),
                Vaccine(
                    name: "FeLV (feline leukaemia)",
                    aliases: ["FeLV", "feline leukaemia", "feline leukemia", "leukaemia", "leukemia"],
                    core: false, intervalDays: 365,
                    note: "Every 2 to 3 years after the first annual booster in adults at lower risk."),
            ]),
        VaccinationProtocol(
            species: .rabbit,
            source:
                """
                Combined myxomatosis and RHD (RHDV-1, RHDV-2) vaccine: yearly revaccination per its summary of \
                product characteristics, as the RWAF and BSAVA advise
                """,
            vaccines: [
                Vaccine(
                    name: "Myxomatosis and RHD (RHDV-1, RHDV-2)",
                    aliases: ["myxo", "myxomatosis", "RHD", "RHDV", "RHDV1", "RHDV2", "RHDV-2", "VHD", "Myxo-RHD"],
                    core: true, intervalDays: 365, note: nil)
            ]),
        VaccinationProtocol(
            species: .ferret,
            source:
                """
                Yearly canine distemper and rabies vaccination with products licensed for ferrets, per their US \
                labels (PureVax Ferret Distemper; Imrab 3, yearly in ferrets)
                """,
            vaccines: [
                Vaccine(
                    name: "Canine distemper (ferret)", aliases: ["distemper", "CDV"], core: true, intervalDays: 365,
                    note: nil),
                Vaccine(
                    name: "Rabies", aliases: ["rabies"], core: true, intervalDays: 365, note: "Where required by law."),
            ]),
    ]
}
