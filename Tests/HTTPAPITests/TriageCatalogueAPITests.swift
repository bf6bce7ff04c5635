import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import Testing
import Triage

@testable import HTTPAPI

/// The web app keeps no copy of the triage tables: it reads them here, from the domain.
@Suite("Triage catalogue over HTTP")
struct TriageCatalogueAPITests {
    struct Catalogue: Decodable {
        struct Level: Decodable {
            let level: Int
            let colour: String
            let name: String
            let maxWaitMinutes: Int
        }
        struct Section: Decodable {
            struct Item: Decodable {
                let id: String
                let label: String
                let level: Int
            }
            let letter: String?
            let title: String
            let items: [Item]
        }
        let rulesVersion: String
        let levels: [Level]
        let findings: [Section]
        let species: [String]
        let sexes: [String]
        let grades: [String]
    }

    @Test(
        "levels with their maximum waits, the desk findings and the vocabularies come from the domain; signed in only")
    func catalogue() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            try await client.call("/api/v1/triage/catalogue", token: nil) { #expect($0.status == .unauthorized) }
            let token = try await client.login("receptionist@alpha.example")
            let catalogue = try await client.call("/api/v1/triage/catalogue", token: token) { response in
                #expect(response.status == .ok)
                return try JSONDecoder().decode(Catalogue.self, from: Data(buffer: response.body))
            }
            #expect(catalogue.rulesVersion == TriageEngine.rulesVersion)
            #expect(catalogue.levels.map(\.maxWaitMinutes) == TriageLevel.allCases.map(\.maxWaitMinutes))
            #expect(catalogue.levels.map(\.colour) == ["red", "orange", "yellow", "green", "blue"])
            #expect(catalogue.findings.map(\.letter) == ["A", "C", "D", "E", nil])
            let items = catalogue.findings.flatMap(\.items)
            #expect(items.count == DeskFindings.sections.flatMap(\.findings).count)
            #expect(items.first { $0.id == "urethral_obstruction" }?.level == 2)
            #expect(catalogue.sexes == Sex.allCases.map(\.rawValue) && catalogue.species.contains("rabbit"))
            #expect(catalogue.grades == ["none", "mild", "moderate", "severe"])
        }
    }
}
