import ArgumentParser
import Foundation
import PatientRecords
import PracticeServices
import SharedKernel
import StoragePorts
import StorageSQLite

/// `vetnet bench …`: measurements against a real store through the store API.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure store performance.",
        subcommands: [Records.self, AnalyticsBench.self, PostgresSearch.self, Booking.self])

    /// `vetnet bench records`: patient search and record fetch on a large practice.
    struct Records: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure name search, record fetch and memory on a seeded store (see `vetnet seed --scale`).",
            discussion: """
                Targets: first page (50) of a name search, median < 10 ms; full record fetch median < 5 ms; peak RSS \
                < 200 MB. \
                Patients sampled for record fetch are given a typical history first (weights, problem, allergy, \
                medication, \
                vaccinations, notes, addendum) when they have none, so run it on a throwaway store. Build with -c \
                release.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice:
            String?
        @Option(help: "Distinct search prefixes to time (at least 200).") var searches = 300
        @Option(help: "Patients whose full record is fetched.") var records = 200

        func validate() throws {
            guard searches >= 200 else { throw ValidationError("--searches must be at least 200") }
            guard records > 0 else { throw ValidationError("--records must be positive") }
        }

        func run() async throws {
            let vetStore = try store.openStore()
            defer { try? vetStore.close() }
            let profile = try await selectPractice(practice, store: vetStore)
            let scope = AccessScope.system(profile.id, requestID: "cli-bench-records")
            let patientCount = try await vetStore.patientCount(scope: scope)
            print(
                """
                practice: \(profile.name): \(try await vetStore.ownerCount(scope: scope)) owners, \(patientCount) \
                patients
                """
            )

            // MARK: Search
            let prefixes = Self.prefixes(count: searches)
            for prefix in prefixes.prefix(20) {
                _ = try await vetStore.searchPatients(
                    scope: scope, query: PatientQuery(text: prefix), limit: 50, after: nil)
            }
            var searchTimes: [Double] = []
            var hits = 0
            var sample: [Identifier<Patient>] = []
            for prefix in prefixes {
                let start = ContinuousClock.now
                let page = try await vetStore.searchPatients(
                    scope: scope, query: PatientQuery(text: prefix), limit: 50, after: nil)
                searchTimes.append(Self.milliseconds(ContinuousClock.now - start))
                hits += page.items.count
                if let hit = page.items.randomElement() { sample.append(hit.patient.value.id) }
            }
            print(
                String(
                    format:
                        """
                        search (first page of 50, %d prefixes): median %.2f ms, p95 %.2f ms, max %.2f ms, mean hits %.1f
                        """,
                    prefixes.count, Self.percentile(searchTimes, 0.5), Self.percentile(searchTimes, 0.95),
                    searchTimes.max() ?? 0,
                    Double(hits) / Double(prefixes.count)))

            // MARK: Record fetch
            let patients = Array(Set(sample)).sorted().prefix(records)
            var added = 0
            for id in patients { added += try await Self.ensureHistory(vetStore, scope: scope, patientID: id) }
            if added > 0 {
                print("added \(added) record entries to \(patients.count) sampled patients without a history")
            }
            for id in patients.prefix(10) { _ = try await vetStore.medicalRecord(scope: scope, patientID: id) }
            var fetchTimes: [Double] = []
            var entries = 0
            for id in patients {
                let start = ContinuousClock.now
                let (record, _) = try await vetStore.medicalRecord(scope: scope, patientID: id)
                fetchTimes.append(Self.milliseconds(ContinuousClock.now - start))
                entries +=
                    record.weights.measurements.count + record.problems.count + record.allergies.count
                    + record.medications.count
                    + record.vaccinations.count + record.notes.notes.count + record.notes.addenda.count
            }
            print(
                String(
                    format: "record fetch (%d patients, %.1f entries each): median %.2f ms, p95 %.2f ms, max %.2f ms",
                    patients.count, Double(entries) / Double(max(patients.count, 1)), Self.percentile(fetchTimes, 0.5),
                    Self.percentile(fetchTimes, 0.95), fetchTimes.max() ?? 0))

            // MARK: Memory
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            func field(_ name: String) -> String {
                status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map {
                    $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
                } ?? "n/a"
            }
            print("memory: peak RSS (VmHWM) \(field("VmHWM")), current RSS (VmRSS) \(field("VmRSS"))")
            let medianSearch = Self.percentile(searchTimes, 0.5)
            let medianFetch = Self.percentile(fetchTimes, 0.5)
            let peakKB = Double(field("VmHWM").split(separator: " ").first.flatMap { Double($0) } ?? .infinity)
            print(
                "targets: search \(medianSearch < 10 ? "met" : "MISSED"), record fetch "
                    + "\(medianFetch < 5 ? "met" : "MISSED"), "
                    + "RSS \(peakKB < 200 * 1024 ? "met" : "MISSED")")
        }

        // MARK: - Workload

        /// Distinct 2–4 letter prefixes of pet, given and family names (the way reception
        /// types them), in a fixed shuffled order.
        static func prefixes(count: Int) -> [String] {
            let names =
                ScaleSeedNames.petNames.values.flatMap { $0 } + ScaleSeedNames.firstNames + ScaleSeedNames.lastNames
            var seen = Set<String>()
            var all: [String] = []
            for name in names.sorted() {
                for length in 2...4 where name.count >= length {
                    let prefix = String(name.prefix(length)).lowercased()
                    if prefix.allSatisfy(\.isLetter), seen.insert(prefix).inserted { all.append(prefix) }
                }
            }
            var random = SeededGenerator(seed: 42)
            all.shuffle(using: &random)
            return Array(all.prefix(count))
        }

        /// Gives a patient without notes a typical history: three weighings, a problem, an
        /// allergy, a medication, two vaccinations, two notes and an addendum. Returns the
        /// number of entries added.
        static func ensureHistory(_ store: VetNetStore, scope: AccessScope, patientID: Identifier<Patient>) async throws
            -> Int
        {
            let (record, _) = try await store.medicalRecord(scope: scope, patientID: patientID)
            guard record.notes.notes.isEmpty else { return 0 }
            let patient = record.patient
            let now = Date()
            let start = max(
                patient.birthDate ?? now.addingTimeInterval(-400 * 86_400), now.addingTimeInterval(-400 * 86_400))
            let span = now.timeIntervalSince(start)
            func at(_ fraction: Double) -> Date { start.addingTimeInterval(span * fraction) }
            func day(_ fraction: Double) -> Date { RecordCalendar.utc.startOfDay(for: at(fraction)) }
            let kilograms = SpeciesWeightRange.kilograms(for: patient.species)
            let weight = min(
                kilograms.upperBound,
                max(kilograms.lowerBound, Decimal(string: patient.species == .dog ? "18.4" : "4.2")!))
            let author = NoteAuthor(id: UserID(), displayName: "Dr Bench Mark")
            let firstNote = ClinicalNote(
                patientID: patientID, author: author, createdAt: at(0.5),
                subjective: "Owner reports reduced appetite for two days.",
                objective: "T 38.9, HR 110, mild abdominal discomfort.", assessment: "Suspected dietary indiscretion.",
                plan: "Bland diet, recheck in 3 days if not improving.")
            var entries: [RecordEntry] = [1, 2, 3].map { index in
                .weight(
                    WeightMeasurement(patientID: patientID, value: weight, unit: .kg, measuredAt: at(Double(index) / 4))
                )
            }
            entries += [
                .problem(Problem(patientID: patientID, name: "Intermittent vomiting", onsetDate: day(0.4))),
                .allergy(
                    Allergy(
                        patientID: patientID,
                        substance: """
                            Amoxicillin
                            """, reaction: "urticaria", severity: .moderate)),
                .medication(
                    Medication(
                        patientID: patientID, drug: "Maropitant", concentrationMgPerML: 10, doseMgPerKg: 1,
                        route: .subcutaneous,
                        frequency: "once daily", startDate: day(0.5), endDate: day(0.6))),
                .vaccination(
                    Vaccination(
                        patientID: patientID, vaccine: "Core booster", administeredDate: day(0.3),
                        batchNumber: "VB-2291",
                        nextDueDate: day(0.3).addingTimeInterval(365 * 86_400))),
                .vaccination(
                    Vaccination(
                        patientID: patientID, vaccine: "Leptospirosis", administeredDate: day(0.35),
                        batchNumber: "L4-118")),
                .note(firstNote),
                .note(
                    ClinicalNote(
                        patientID: patientID, author: author, createdAt: at(0.8), subjective: "Recheck: eating well.",
                        objective: """
                            Bright, alert, abdomen soft.
                            """, assessment: "Resolved.", plan: "No further action.")),
                .addendum(
                    Addendum(
                        noteID: firstNote.id, author: author, createdAt: at(0.55),
                        text: "Owner called: vomited once overnight.")),
            ]
            for entry in entries { try await store.addRecordEntry(entry, patientID: patientID, scope: scope) }
            return entries.count
        }

        // MARK: - Statistics

        static func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }

        static func percentile(_ values: [Double], _ fraction: Double) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
        }
    }
}
