import Foundation
import Scheduling

// MARK: - Fixtures

/// Locations and helpers shared by the optimizer tests.
enum Fixtures {
    /// The repository root, found from this file's path (Tests/SchedulingTests/Optimizer/…).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let benchmark = repositoryRoot.appendingPathComponent("Benchmarks/vetsched-v1")

    /// A public benchmark instance (`small-s1`, `medium-s1`, `large-s1`).
    static func instance(_ name: String) throws -> VetschedInstance {
        try load(benchmark.appendingPathComponent("instances/\(name).json"))
    }

    static func load(_ url: URL) throws -> VetschedInstance {
        try JSONDecoder().decode(VetschedInstance.self, from: Data(contentsOf: url))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vetsched-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `python3` with `arguments` and returns its standard output.
    static func python(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PythonFailure(arguments: arguments) }
        return data
    }

    struct PythonFailure: Error {
        var arguments: [String]
    }

    /// Whether a Python 3 interpreter is available (the cross-checks need it).
    static let hasPython: Bool = (try? python(["-c", "print(1)"])) != nil

    /// An instance from the benchmark's own generator (never re-implemented in Swift).
    static func generated(size: String, seed: Int) throws -> VetschedInstance {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("\(size)-s\(seed).json")
        let generator = repositoryRoot.appendingPathComponent("Benchmarks/vetsched-v1/gen_instance.py")
        _ = try python([generator.path, "--size", size, "--seed", String(seed), "-o", file.path])
        return try load(file)
    }

    /// Scores a solution with the reference checker `evaluate.py`.
    static func referenceEvaluation(instance name: String, assignments: [SchedulingAssignment]) throws -> [String: Any]
    {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("solution.json")
        try JSONEncoder().encode(VetschedSolution(assignments: assignments)).write(to: file)
        let out = try python([
            benchmark.appendingPathComponent("evaluate.py").path,
            benchmark.appendingPathComponent("instances/\(name).json").path, file.path,
        ])
        var report = try JSONSerialization.jsonObject(with: out) as? [String: Any] ?? [:]
        // Foundation's JSON number parsing is not always correctly rounded; re-read the
        // decimal text of the real-valued fields with the standard library's exact parser.
        let text = String(decoding: out, as: UTF8.self)
        for key in ["score", "score_ignoring_feasibility", "s_req", "s_bal"] {
            if let range = text.range(of: "\"\(key)\": ") {
                let digits = text[range.upperBound...].prefix { "0123456789.eE+-".contains($0) }
                report[key] = Double(String(digits))
            }
        }
        return report
    }

    // MARK: - A tiny hand-made problem

    /// Two clinicians (one surgeon), one exam room and one surgery room, one day.
    static func tinyProblem() -> SchedulingProblem {
        SchedulingProblem(
            horizon: MinuteInterval(start: 0, end: 1440), granularity: 5,
            clinicians: [
                SchedulingClinician(
                    id: "A", skills: ["general": 4, "surgery": 5], maxDaily: 3,
                    shifts: [MinuteInterval(start: 480, end: 720)],
                    breaks: [MinuteInterval(start: 600, end: 630)], targetMinutes: 120),
                SchedulingClinician(
                    id: "B", skills: ["general": 2], maxDaily: 3,
                    shifts: [MinuteInterval(start: 480, end: 720)], targetMinutes: 120),
            ],
            roomTypes: [SchedulingRoomType(id: "exam", count: 1), SchedulingRoomType(id: "surgery", count: 1)],
            requests: [
                request("R1", "general", 30, urgency: 5, earliest: 480, deadline: 540),
                request("R2", "general", 30, urgency: 1, earliest: 480, deadline: 1400),
                request("R3", "surgery", 60, urgency: 3, earliest: 480, deadline: 1400),
            ])
    }

    static func request(
        _ id: String, _ specialty: String, _ duration: Int, urgency: Int, earliest: Int,
        deadline: Int, room: String? = nil
    ) -> SchedulingRequest {
        SchedulingRequest(
            id: id, specialty: specialty, duration: duration, urgency: urgency,
            weight: SchedulingRequest.weight(forUrgency: urgency),
            roomType: room ?? (specialty == "surgery" ? "surgery" : "exam"),
            earliestStart: earliest, deadline: deadline,
            preferredWindow: MinuteInterval(start: 480, end: 720))
    }
}
