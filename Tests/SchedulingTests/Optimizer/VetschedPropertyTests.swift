import Foundation
import PropertyBased
import SharedKernel
import Testing

@testable import Scheduling

// MARK: - Generators

/// Integers where minute, count and points arithmetic breaks: zero, negatives, the 32- and
/// 64-bit extremes, a century of minutes and just past it.
private let edgeInts: [Int] = [
    0, -1, 1, 5, 1_440, 7_200, -7_200, 100_000_000, SchedulingLimits.maxMinute, SchedulingLimits.maxMinute + 1,
    Int(Int32.max), Int(Int32.max) + 1, Int.max, Int.min, Int.max / 2, Int.min / 2,
]

/// Draws a number shaped like `typical` most of the time and an edge value otherwise.
private func number(_ typical: ClosedRange<Int>, edgeRate: Int = 12, using rng: inout some RandomNumberGenerator) -> Int
{
    Int.random(in: 0..<edgeRate, using: &rng) == 0
        ? edgeInts.randomElement(using: &rng)! : Int.random(in: typical, using: &rng)
}

/// A small vetsched-v1 instance, usually well formed, with now and then an extreme number in
/// any field, an empty list, a reversed interval or an unknown room type.
private func instance(using rng: inout some RandomNumberGenerator) -> VetschedInstance {
    let days = Int.random(in: 1...3, using: &rng)
    let end = days * 1_440
    let specialties = ["general", "surgery", "dentistry"]
    let roomTypes = (0..<Int.random(in: 1...3, using: &rng)).map {
        VetschedInstance.RoomType(id: ["exam", "surgery", "imaging"][$0], count: number(0...4, using: &rng))
    }
    let specialists = (0..<Int.random(in: 0...4, using: &rng)).map { i in
        let shifts = (0..<days).compactMap { d -> VetschedInstance.Span? in
            Int.random(in: 0...4, using: &rng) == 0
                ? nil
                : VetschedInstance.Span(
                    start: number((d * 1_440 + 420)...(d * 1_440 + 600), using: &rng),
                    end: number((d * 1_440 + 700)...(d * 1_440 + 1_140), using: &rng))
        }
        let breaks = (0..<Int.random(in: 0...1, using: &rng)).map { _ in
            VetschedInstance.Span(start: number(720...720, using: &rng), end: number(740...780, using: &rng))
        }
        var skills: [String: Int] = [:]
        for name in specialties where Bool.random(using: &rng) { skills[name] = number(0...5, using: &rng) }
        return VetschedInstance.Specialist(
            id: "S\(i)", skills: skills, maxDaily: number(0...8, using: &rng), shifts: shifts,
            breaks: breaks, capacityMinutes: nil, targetMinutes: number(0...600, using: &rng))
    }
    let requests = (0..<Int.random(in: 0...10, using: &rng)).map { i in
        // Ranges are drawn around typical values, so an edge value in one field never
        // overflows the generator's own arithmetic for the next.
        let earliest = Int.random(in: 0...(end - 60), using: &rng)
        let preferredStart = Int.random(in: 0...end, using: &rng)
        return VetschedInstance.Request(
            id: Int.random(in: 0...30, using: &rng) == 0 ? "R0" : "R\(i)",
            specialty: specialties.randomElement(using: &rng)!,
            duration: number(5...120, using: &rng), urgency: number(1...5, using: &rng),
            weight: number(1...8, using: &rng),
            roomType: Int.random(in: 0...30, using: &rng) == 0 ? "nowhere" : roomTypes.randomElement(using: &rng)!.id,
            earliestStart: number(earliest...earliest, using: &rng),
            deadline: number(earliest...(earliest + 2 * end), using: &rng),
            prefStart: number(preferredStart...preferredStart, using: &rng),
            prefEnd: number(preferredStart...(preferredStart + 600), using: &rng))
    }
    let standard = SchedulingWeights.standard
    let weights = VetschedInstance.Weights(
        assign: number(standard.assign...standard.assign, edgeRate: 30, using: &rng),
        qualityPerProf: number(
            standard.qualityPerProficiency...standard.qualityPerProficiency, edgeRate: 30, using: &rng),
        onTime: number(standard.onTime...standard.onTime, edgeRate: 30, using: &rng),
        preference: number(standard.preference...standard.preference, edgeRate: 30, using: &rng),
        requestShare: Int.random(in: 0...30, using: &rng) == 0
            ? [0, 1e6, 1e300, -1, 0.123].randomElement(using: &rng)! : 0.9,
        balanceShare: Int.random(in: 0...30, using: &rng) == 0
            ? [0, 1e6, 1e300, -1, 0.877].randomElement(using: &rng)! : 0.1)
    return VetschedInstance(
        schema: "vetsched-v1", name: "fuzz", seed: nil, granularity: number(5...15, using: &rng),
        horizon: VetschedInstance.Horizon(
            days: days, start: number(0...0, using: &rng), end: number(end...end, using: &rng)),
        specialties: specialties, roomTypes: roomTypes, weights: weights, specialists: specialists, requests: requests)
}

/// Number spellings a hand-edited file could hold, some beyond what `Int` decodes.
private let edgeNumberTexts = [
    "0", "-0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e400", "1.5",
    "2147483648", "52704000", "52704001", "null", "\"5\"", "[]",
]

/// The JSON of `instance`, with a few numbers replaced by edge spellings or a key dropped.
private func mutatedJSON(_ instance: VetschedInstance, using rng: inout some RandomNumberGenerator) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var text = String(decoding: (try? encoder.encode(instance)) ?? Data(), as: UTF8.self)
    for _ in 0..<Int.random(in: 0...3, using: &rng) {
        let numbers = text.ranges(of: /-?[0-9]+(\.[0-9]+)?(e[0-9]+)?/)
        guard let target = numbers.randomElement(using: &rng) else { break }
        text.replaceSubrange(target, with: edgeNumberTexts.randomElement(using: &rng)!)
    }
    if Int.random(in: 0...5, using: &rng) == 0 {
        let key = ["granularity", "horizon", "requests", "specialists", "weights", "room_types", "duration", "start"]
            .randomElement(using: &rng)!
        text = text.replacingOccurrences(of: "\"\(key)\"", with: "\"\(key)_\"")
    }
    return Data(text.utf8)
}

private let instances = Generator<VetschedInstance, Shrink.None<VetschedInstance>> { rng in instance(using: &rng) }

/// What a client gets back for an instance: a plan, or the fields that are wrong.
private enum Outcome {
    case planned(SchedulingProblem, [SchedulingAssignment])
    case refused(ValidationError)
}

private func construct(_ instance: VetschedInstance) -> Outcome {
    let problem = instance.problem
    do {
        return .planned(problem, try ScheduleOptimizer.construct(problem))
    } catch {
        return .refused(error)
    }
}

/// A plan places each known request at most once, on a known clinician, and breaks no hard rule.
private func expectSound(
    _ problem: SchedulingProblem, _ assignments: [SchedulingAssignment],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let requestIDs = Set(problem.requests.map(\.id))
    let clinicianIDs = Set(problem.clinicians.map(\.id))
    #expect(Set(assignments.map(\.requestID)).count == assignments.count, sourceLocation: sourceLocation)
    #expect(
        assignments.allSatisfy { requestIDs.contains($0.requestID) && clinicianIDs.contains($0.clinicianID) },
        sourceLocation: sourceLocation)
    let evaluation = ScheduleScorer.evaluate(problem, assignments)
    #expect(evaluation.feasible, "\(evaluation.violations.prefix(3))", sourceLocation: sourceLocation)
    #expect(evaluation.scoreIgnoringFeasibility.isFinite, sourceLocation: sourceLocation)
}

// MARK: - Properties

@Suite("vetsched properties: any instance gets a sound plan or named errors, never a crash")
struct VetschedPropertyTests {
    @Test("a generated instance is planned soundly or refused naming its fields")
    func constructAnyInstance() async {
        await propertyCheck(count: 400, input: instances) { instance in
            switch construct(instance) {
            case .planned(let problem, let assignments):
                expectSound(problem, assignments)
                if problem.requests.isEmpty || problem.clinicians.isEmpty { #expect(assignments.isEmpty) }
            case .refused(let error):
                #expect(!error.errors.isEmpty)
                #expect(error.errors.allSatisfy { !$0.field.isEmpty && !$0.message.isEmpty }, "\(error)")
            }
        }
    }

    @Test("mutated instance JSON decodes to a plan or errors, or is refused by the decoder, never a crash")
    func mutatedInstanceJSON() async {
        let files = Generator<Data, Shrink.None<Data>> { rng in
            let base = instance(using: &rng)
            return mutatedJSON(base, using: &rng)
        }
        await propertyCheck(count: 300, input: files) { data in
            guard let decoded = try? JSONDecoder().decode(VetschedInstance.self, from: data) else { return }
            switch construct(decoded) {
            case .planned(let problem, let assignments): expectSound(problem, assignments)
            case .refused(let error): #expect(error.errors.allSatisfy { !$0.field.isEmpty })
            }
        }
    }

    @Test("solving with a tiny time limit gives a sound plan or named errors")
    func solveAnyInstance() async throws {
        await propertyCheck(count: 60, input: instances) { instance in
            let problem = instance.problem
            do {
                let result = try await ScheduleOptimizer.solve(
                    problem, timeLimit: .milliseconds(20), options: OptimizerOptions(maxEpochs: 2))
                expectSound(problem, result.assignments)
                #expect(result.evaluation.feasible)
            } catch let error as ValidationError {
                #expect(!error.errors.isEmpty)
            }
        }
    }

    @Test("an instance without requests or without clinicians yields an empty plan, constructed or solved")
    func emptyInstances() async {
        await propertyCheck(count: 200, input: instances, Gen.bool) { generated, dropRequests in
            var instance = generated
            if dropRequests { instance.requests = [] } else { instance.specialists = [] }
            // Only the well-formed ones: an empty plan is the answer, not an error.
            guard case .planned(let problem, let assignments) = construct(instance) else { return }
            #expect(assignments.isEmpty)
            let solved = try? await ScheduleOptimizer.solve(
                problem, timeLimit: .milliseconds(10), options: OptimizerOptions(maxEpochs: 1))
            #expect(solved?.assignments.isEmpty == true)
        }
    }
}

// MARK: - Regression

@Suite("vetsched regressions")
struct VetschedRegressionTests {
    /// A one-clinician, one-request problem, to which each case applies one extreme number.
    private static func problem(_ change: (inout SchedulingProblem) -> Void) -> SchedulingProblem {
        var problem = SchedulingProblem(
            horizon: MinuteInterval(start: 0, end: 1_440), granularity: 5,
            clinicians: [
                SchedulingClinician(
                    id: "S0", skills: ["general": 3], maxDaily: 8,
                    shifts: [MinuteInterval(start: 480, end: 1_020)], targetMinutes: 60)
            ],
            roomTypes: [SchedulingRoomType(id: "exam", count: 2)],
            requests: [
                SchedulingRequest(
                    id: "R0", specialty: "general", duration: 30, urgency: 3, weight: 2, roomType: "exam",
                    earliestStart: 480, deadline: 600, preferredWindow: MinuteInterval(start: 480, end: 720))
            ])
        change(&problem)
        return problem
    }

    /// The regression problem with one field set to a value that overflowed minute, slot,
    /// 32-bit or points arithmetic before the limits existed.
    private static func extreme(_ field: String) -> SchedulingProblem {
        problem { p in
            switch field {
            case "horizon.start": p.horizon.start = Int.min
            case "horizon.end": p.horizon.end = Int.max
            case "horizon": p.horizon.end = 400 * 1_440
            case "granularity": p.granularity = Int.max
            case "clinicians[0].maxDaily": p.clinicians[0].maxDaily = Int(Int32.max) + 1
            case "clinicians[0].skills.general": p.clinicians[0].skills["general"] = Int.max
            case "clinicians[0].shifts[0].end": p.clinicians[0].shifts[0].end = Int.max
            case "roomTypes[0].count": p.roomTypes[0].count = Int(Int32.max) + 1
            case "requests[0].duration": p.requests[0].duration = Int.max
            case "requests[0].weight": p.requests[0].weight = Int.max / 2
            case "requests[0].preferredWindow.start": p.requests[0].preferredWindow.start = Int.min
            case "requests[0].deadline": p.requests[0].deadline = Int.max
            case "weights.assign": p.weights.assign = Int.max
            case "weights.requestShare": p.weights.requestShare = 1e300
            default: Issue.record("no case for \(field)")
            }
        }
    }

    @Test(
        "extreme numbers are refused naming their field instead of overflowing the optimizer",
        arguments: [
            "horizon.start", "horizon.end", "horizon", "granularity", "clinicians[0].maxDaily",
            "clinicians[0].skills.general",
            "clinicians[0].shifts[0].end", "roomTypes[0].count", "requests[0].duration", "requests[0].weight",
            "requests[0].preferredWindow.start", "requests[0].deadline", "weights.assign", "weights.requestShare",
        ])
    func extremeNumber(field: String) {
        let problem = Self.extreme(field)
        #expect(throws: ValidationError.self) { try ScheduleOptimizer.construct(problem) }
        do {
            try problem.validate()
        } catch {
            #expect(error.errors.map(\.field).contains(field), "\(error)")
        }
    }

    @Test("a problem whose score would not fit the search's integers is refused naming requests")
    func objectiveTooLarge() {
        // Each number is within its own limit, but a century-long booked deviation weighed by
        // 999/1000 of the score overflows the search's 64-bit objective.
        let problem = Self.problem { p in
            p.weights = SchedulingWeights(
                assign: 1_000, qualityPerProficiency: 1_000, onTime: 1_000, preference: 1_000,
                requestShare: 0.001, balanceShare: 0.999)
            p.clinicians[0].skills["general"] = 100
            p.requests[0].weight = 1_000
            p.fixedBookings = (0..<1_000).map {
                SchedulingFixedBooking(
                    id: "F\($0)", clinicianID: "S0",
                    interval: MinuteInterval(start: -SchedulingLimits.maxMinute, end: SchedulingLimits.maxMinute))
            }
        }
        do {
            try problem.validate()
            Issue.record("accepted a problem whose objective overflows 64 bits")
        } catch {
            #expect(error.errors.map(\.field) == ["requests"])
        }
    }

    @Test(
        "solving an instance without requests or without clinicians gives an empty plan instead of trapping",
        arguments: [true, false])
    func solveEmpty(withoutRequests: Bool) async throws {
        let problem = Self.problem { p in
            if withoutRequests { p.requests = [] } else { p.clinicians = [] }
        }
        let result = try await ScheduleOptimizer.solve(problem, timeLimit: .milliseconds(50))
        #expect(result.assignments.isEmpty)
        #expect(result.evaluation.feasible)
    }

    @Test("every published benchmark instance is within the limits")
    func benchmarksValidate() throws {
        let directory = Fixtures.benchmark.appendingPathComponent("instances")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            let instance = try Fixtures.load(directory.appendingPathComponent(file))
            #expect(throws: Never.self, "\(file)") { try instance.problem.validate() }
        }
    }
}
