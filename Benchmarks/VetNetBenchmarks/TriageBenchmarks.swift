import Benchmark
import Foundation
import SharedKernel
import Triage

// MARK: - Triage benchmarks

/// The case of the triage specification §9 (orange: toxin ingestion, severe dehydration,
/// persistent vomiting, mild pain, 103.5 °F), a realistic mid-sized evaluation.
private let triageSpecExample = Data("""
{
  "species": "dog", "ageWeeks": 16, "sex": "male_neutered", "onsetHoursAgo": 6,
  "vitals": {
    "temperature": {"value": 103.5, "unit": "F"}, "heartRate": 150, "respiratoryRate": 30,
    "capillaryRefillSeconds": 1.8, "capillaryRefillAbsent": false, "mucousMembranes": "pink",
    "pulseQuality": "normal", "mentation": "alert", "extremities": "warm", "systolicBP": 130, "spo2": 97,
    "glucose": {"value": 5.1, "unit": "mmol/L"}, "ketosis": false, "dehydrationPercent": 10
  },
  "observations": {
    "respiratoryDistress": "none", "pain": "mild", "hemorrhage": "none", "seizuresLast24h": 0,
    "seizingNow": false, "vomiting": "persistent", "hoursSinceLastMeal": 20
  },
  "findings": ["toxin_ingestion"],
  "complaint": "ate chocolate, vomiting"
}
""".utf8)

/// Registers the triage benchmarks. Targets (release build, one core): one evaluation
/// under 50 µs; the board of 500 waiting patients under 5 ms.
func triageBenchmarks() {
    let microseconds = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        tags: ["target": "p90 < 50 us"],
        timeUnits: .microseconds,
        maxDuration: .seconds(3)
    )

    Benchmark("Triage.evaluate spec example (orange, 5 fired)", configuration: microseconds) { benchmark in
        // Parsing is outside the measured loop: this is the engine alone.
        guard let triageCase = try? TriageCase(jsonData: triageSpecExample) else { fatalError("benchmark case must parse") }
        let engine = TriageEngine(clock: .fixed(Date(timeIntervalSince1970: 1_750_000_000)))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(engine.evaluate(triageCase))
        }
    }

    Benchmark("Triage.evaluate red shock cat with complaint", configuration: microseconds) { benchmark in
        let triageCase = TriageCase(
            species: .cat, ageWeeks: 700, onsetHoursAgo: 3,
            vitals: Vitals(temperature: Temperature(36.5, .celsius), heartRate: 100, capillaryRefillSeconds: 3.5,
                           mucousMembranes: .grey, pulseQuality: .weak, mentation: .obtunded, extremities: .cool,
                           systolicBP: 70, spo2: 91, dehydrationPercent: 9),
            observations: Observations(respiratoryDistress: .moderate, pain: .severe, vomiting: .persistent),
            findings: [.arterialThromboembolism, .acuteContinuousVocalisation],
            complaint: "collapsed suddenly, hind legs paralysed and cold, crying, known heart murmur"
        )
        let engine = TriageEngine(clock: .fixed(Date(timeIntervalSince1970: 1_750_000_000)))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(engine.evaluate(triageCase, context: TriageContext(chronicConditionCount: 2)))
        }
    }

    Benchmark("Triage.parse spec example", configuration: microseconds) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? TriageCase(jsonData: triageSpecExample))
        }
    }

    Benchmark(
        "Triage.queue 500 waiting",
        configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal], tags: ["target": "p90 < 5 ms"],
                             timeUnits: .microseconds, maxDuration: .seconds(3))
    ) { benchmark in
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var queue = TriageQueue()
        var generator = SystemRandomNumberGenerator()
        for index in 0..<500 {
            let level = TriageLevel.allCases[index % TriageLevel.allCases.count]
            let arrival = start.addingTimeInterval(-Double.random(in: 0...14_400, using: &generator))
            let assessment = TriageAssessment(patientID: UUID(), level: level, arrival: arrival, assessedAt: arrival)
            guard (try? queue.handle(.admit(assessment), at: arrival)) != nil else { fatalError("admission must succeed") }
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(queue.board(now: start))
        }
    }
}
