import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Scheduling
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
        let appointmentStatuses: [Status]
        let appointmentActions: [Action]
        let boardStatuses: [BoardStatus]
    }
    struct Status: Decodable, Equatable {
        let status: String
        let label: String
        let holdsTime: Bool
        let terminal: Bool
    }
    struct Action: Decodable, Equatable {
        let action: String
        let label: String
        let resultingStatus: String
        let checksTheSchedule: Bool
    }
    struct BoardStatus: Decodable, Equatable {
        let status: String
        let label: String
        let onBoard: Bool
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

    @Test(
        "appointment and ER board statuses and actions, their words and what each action leads to, for every client")
    func appointmentAndBoardVocabulary() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            let catalogue = try await client.call("/api/v1/triage/catalogue", token: token) { response in
                try JSONDecoder().decode(Catalogue.self, from: Data(buffer: response.body))
            }
            #expect(
                catalogue.appointmentStatuses == [
                    Status(status: "booked", label: "Booked", holdsTime: true, terminal: false),
                    Status(status: "checked_in", label: "Checked in", holdsTime: true, terminal: false),
                    Status(status: "in_progress", label: "In progress", holdsTime: true, terminal: false),
                    Status(status: "completed", label: "Completed", holdsTime: true, terminal: true),
                    Status(status: "cancelled", label: "Cancelled", holdsTime: false, terminal: true),
                    Status(status: "no_show", label: "No-show", holdsTime: false, terminal: true),
                ])
            // What an offline device may keep to send later: everything but a move.
            #expect(catalogue.appointmentActions.filter(\.checksTheSchedule).map(\.action) == ["reschedule"])
            for action in catalogue.appointmentActions {
                #expect(AppointmentAction(rawValue: action.action)?.targetStatus.rawValue == action.resultingStatus)
            }
            #expect(
                catalogue.appointmentActions.map(\.label) == [
                    "Check in", "Start", "Complete", "Move", "Cancel", "No-show",
                ])
            #expect(
                catalogue.boardStatuses == [
                    BoardStatus(status: "waiting", label: "Waiting", onBoard: true),
                    BoardStatus(status: "inTreatment", label: "In treatment", onBoard: true),
                    BoardStatus(status: "done", label: "Done", onBoard: false),
                    BoardStatus(status: "leftWithoutBeingSeen", label: "Left without being seen", onBoard: false),
                ])
        }
    }
}
