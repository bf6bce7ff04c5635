import Foundation
import SharedKernel
import Specialists
import Testing

@Suite("Clinician matching")
struct ClinicianMatcherTests {
    let now = Timestamp.date("2026-06-01T08:00:00Z")!

    private func clinician(
        _ name: String, _ expertise: [(Specialty, Int)], species: Set<Species> = [.dog, .cat],
        ceiling: Double = 1, id: String? = nil
    ) -> Clinician {
        Clinician(
            id: id.flatMap { Identifier(uuidString: $0) } ?? Identifier(), displayName: name, credentials: "BVSc",
            expertise: expertise.map { Expertise(specialty: $0.0, proficiency: $0.1, years: 5) },
            species: species, maxAppointmentsPerDay: 20, complexityCeiling: ceiling)
    }

    private func candidate(_ clinician: Clinician, inMinutes: Double? = 30, booked: Int = 0, capacity: Int = 480)
        -> MatchCandidate
    {
        MatchCandidate(
            clinician: clinician, earliestStart: inMinutes.map { now.addingTimeInterval($0 * 60) },
            bookedMinutes: booked, capacityMinutes: capacity)
    }

    @Test("every score lists its five parts, whose contributions add up to the score")
    func parts() throws {
        let vet = clinician("Dr Hart", [(.cardiology, 5), (.internalMedicine, 3)])
        let matchCase = MatchCase(
            specialties: [.cardiology], species: .dog, complexity: 0.5, maxWaitMinutes: 120,
            patientID: UUID(), previousClinicianIDs: [vet.id])
        let result = try ClinicianMatcher().rank(
            matchCase, candidates: [candidate(vet, inMinutes: 60, booked: 120)], now: now)
        let match = try #require(result.ranked.first)
        #expect(match.parts.map(\.factor) == MatchFactor.allCases)
        let values = Dictionary(uniqueKeysWithValues: match.parts.map { ($0.factor, $0.value) })
        #expect(values == [.expertise: 1, .species: 1, .availability: 0.75, .workload: 0.75, .continuity: 1])
        #expect(abs(match.score - match.parts.reduce(0) { $0 + $1.contribution }) < 1e-12)
        #expect(abs(match.score - (0.40 + 0.10 + 0.20 * 0.75 + 0.15 * 0.75 + 0.15)) < 1e-12)
        #expect(match.parts.allSatisfy { !$0.detail.isEmpty })
    }

    @Test(
        "expertise: proficiency over 5, divided by the specialty's rank",
        arguments: [
            ([(Specialty.cardiology, 5)], 1.0), ([(.cardiology, 3)], 0.6), ([(.internalMedicine, 4)], 0.4),
            ([(.cardiology, 2), (.internalMedicine, 5)], 0.5), ([(.dermatology, 5)], 0.0),
        ])
    func expertise(skills: [(Specialty, Int)], expected: Double) throws {
        let vet = clinician("A", skills)
        let result = try ClinicianMatcher().rank(
            MatchCase(specialties: [.cardiology, .internalMedicine], species: .dog, complexity: 0),
            candidates: [candidate(vet)], now: now)
        #expect(abs((result.ranked.first?.part(.expertise)?.value ?? -1) - expected) < 1e-12)
    }

    @Test(
        "availability against the maximum wait",
        arguments: [
            (0.0, 120, 1.0, true), (60.0, 120, 0.75, true), (120.0, 120, 0.5, true), (121.0, 120, 0.0, false),
            (1440.0, nil, 0.5, true), (0.0, nil, 1.0, true), (-30.0, 60, 1.0, true),
        ] as [(Double, Int?, Double, Bool)])
    func availability(wait: Double, maxWait: Int?, value: Double, within: Bool) throws {
        let result = try ClinicianMatcher().rank(
            MatchCase(specialties: [.generalPractice], species: .cat, complexity: 0, maxWaitMinutes: maxWait),
            candidates: [candidate(clinician("A", [(.generalPractice, 3)]), inMinutes: wait)], now: now)
        let match = try #require(result.ranked.first)
        #expect(abs((match.part(.availability)?.value ?? -1) - value) < 1e-12)
        #expect(match.withinMaxWait == within)
    }

    @Test("no known start scores zero availability")
    func noStart() throws {
        let result = try ClinicianMatcher().rank(
            MatchCase(specialties: [.generalPractice], species: .cat, complexity: 0, maxWaitMinutes: 30),
            candidates: [candidate(clinician("A", [(.generalPractice, 3)]), inMinutes: nil)], now: now)
        #expect(result.ranked.first?.part(.availability)?.value == 0)
        #expect(result.ranked.first?.withinMaxWait == false)
    }

    @Test(
        "complexity ceiling is a hard filter; equal to the ceiling is allowed",
        arguments: [(0.7, 0.7, true), (0.7, 0.69, false), (0.0, 0.0, true)])
    func ceiling(complexity: Double, ceiling: Double, kept: Bool) throws {
        let vet = clinician("A", [(.neurology, 5)], ceiling: ceiling)
        let result = try ClinicianMatcher().rank(
            MatchCase(specialties: [.neurology], species: .dog, complexity: complexity),
            candidates: [candidate(vet)], now: now)
        #expect(result.ranked.count == (kept ? 1 : 0))
        #expect(result.excluded.map(\.clinicianID) == (kept ? [] : [vet.id]))
    }

    @Test("ranking: expertise beats a lighter day; continuity and workload separate equals")
    func ordering() throws {
        let expert = clinician("Expert", [(.orthopedics, 5)])
        let novice = clinician("Novice", [(.orthopedics, 2)], species: [.rabbit])
        let lighter = clinician("Lighter day", [(.orthopedics, 5)])
        let seenBefore = clinician("Seen before", [(.orthopedics, 5)], species: [.rabbit])
        let matchCase = MatchCase(
            specialties: [.orthopedics], species: .rabbit, complexity: 0.3, maxWaitMinutes: 240,
            previousClinicianIDs: [seenBefore.id])
        let result = try ClinicianMatcher().rank(
            matchCase,
            candidates: [
                candidate(novice), candidate(expert, booked: 240), candidate(lighter), candidate(seenBefore),
            ], now: now)
        #expect(result.ranked.map(\.displayName) == ["Seen before", "Lighter day", "Expert", "Novice"])
        let scores = result.ranked.map(\.score)
        for (score, expected) in zip(scores, [0.9875, 0.7375, 0.6625, 0.5975]) {
            #expect(abs(score - expected) < 1e-12)
        }
    }

    @Test("ties break by expertise, then earliest start, then name, then identifier")
    func ties() throws {
        let a = clinician("Same", [(.dermatology, 4)], id: "00000000-0000-0000-0000-00000000000B")
        let b = clinician("Same", [(.dermatology, 4)], id: "00000000-0000-0000-0000-00000000000A")
        let c = clinician("Alpha", [(.dermatology, 4)])
        let weights = MatchWeights([.expertise: 1])
        let matchCase = MatchCase(specialties: [.dermatology], species: .dog, complexity: 0)
        let result = try ClinicianMatcher(weights: weights).rank(
            matchCase,
            candidates: [
                candidate(a, inMinutes: 10), candidate(b, inMinutes: 10), candidate(c, inMinutes: 20),
                candidate(clinician("Early", [(.dermatology, 4)]), inMinutes: 5),
                candidate(clinician("Unknown", [(.dermatology, 4)]), inMinutes: nil),
            ], now: now)
        #expect(result.ranked.map(\.displayName) == ["Early", "Same", "Same", "Alpha", "Unknown"])
        #expect(result.ranked[1].clinicianID == b.id)
    }

    @Test("invalid cases are refused, naming the fields")
    func invalidCase() {
        #expect(
            throws: ValidationError([
                FieldError(field: "specialties", message: "must list at least one specialty"),
                FieldError(field: "complexity", message: "must be between 0 and 1"),
                FieldError(field: "maxWaitMinutes", message: "must be a positive number of minutes"),
            ])
        ) {
            try ClinicianMatcher().rank(
                MatchCase(specialties: [], species: .dog, complexity: 1.2, maxWaitMinutes: 0), candidates: [], now: now)
        }
    }
}
