import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("A fresh install without the demo")
struct FreshInstallTests {
    static let password = "kestrel-harbour-lantern-81"

    static func fresh() async throws -> (VetNetStore, AccountService, AppServices<VetNetStore>) {
        let store = try VetNetStore.inMemory()
        let accounts = AccountService(store: store, hasher: .fastForTests)
        return (store, accounts, AppServices(store: store, accounts: accounts, live: LiveEventHub(store: store)))
    }

    @Test(
        """
        a practice is created with its first administrator, who signs in and sets the practice up through the API \
        until a booking is made
        """
    )
    func firstDay() async throws {
        let (store, accounts, services) = try await Self.fresh()
        let profile = PracticeProfile(
            id: PracticeID(), name: "Harbour Vets", timeZone: "Europe/London", openingHours: [])
        let (practice, admin) = try await accounts.createPractice(
            profile, administratorEmail: "sam@harbour-vets.example", administratorName: "Sam Reid",
            password: Self.password, requestID: "test")
        #expect(admin.role == .administrator && admin.practiceID == practice.id)
        let app = Application(router: buildRouter(configuration: AppConfiguration(), services: services, metrics: nil))
        try await app.test(.router) { client in
            let token = try await client.login("sam@harbour-vets.example", password: Self.password)
            // A new practice asks its administrator for a second factor before anything else.
            try await client.call("/api/v1/practice", .get, token: token) { #expect($0.status == .forbidden) }
            try await SecondFactorAPITests.enrol(client, token: token, password: Self.password)
            let hours = (1...5).map { #"{"weekday":\#($0),"opens":"08:00","closes":"18:00"}"# }.joined(separator: ",")
            try await client.call(
                "/api/v1/practice", .patch, token: token, json: #"{"openingHours":[\#(hours)],"slotGridMinutes":15}"#
            ) {
                #expect($0.status == .ok)
            }
            let clinician = try await client.call(
                "/api/v1/specialists", .post, token: token,
                json: #"""
                    {"displayName":"Dr Ana Silva","credentials":"DVM \#
                    MRCVS","expertise":[{"specialty":"general_practice","proficiency":4,"years":6}],
                     "species":["dog","cat"],"maxAppointmentsPerDay":20,"complexityCeiling":0.8,
                     "availability":{"weekly":[{"weekday":1,"startMinute":540,"endMinute":1020},{"weekday":2,\#
                    "startMinute":540,"endMinute":1020},
                       {"weekday":3,"startMinute":540,"endMinute":1020},{"weekday":4,"startMinute":540,\#
                    "endMinute":1020},{"weekday":5,"startMinute":540,"endMinute":1020}]}}
                    """#
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
            }
            try await client.call("/api/v1/rooms", .post, token: token, json: #"{"name":"Consult 1","type":"exam"}"#) {
                #expect($0.status == .created)
            }
            let type = try await client.call(
                "/api/v1/appointment-types", .post, token: token,
                json:
                    #"""
                    {"name":"Consultation","defaultDurationMinutes":15,"requiredRoomType":"exam","feeMinorUnits":4500}
                    """#
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            let owner = try await client.call(
                "/api/v1/owners", .post, token: token, json: #"{"firstName":"Jo","lastName":"Bloggs"}"#
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            let patient = try await client.call(
                "/api/v1/patients", .post, token: token, json: #"{"name":"Rex","species":"dog","ownerId":"\#(owner)"}"#
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            // The next weekday at least two days ahead, 08:00–18:00 London time.
            var weekday = 2
            while [1, 7].contains(London.calendar.component(.weekday, from: London.time(daysFromToday: weekday, 12))) {
                weekday += 1
            }
            let offset = weekday
            let from = Timestamp.string(London.time(daysFromToday: offset, 0))
            let to = Timestamp.string(London.time(daysFromToday: offset + 1, 0))
            let first = try await client.call(
                "/api/v1/appointments/slots?from=\(from)&to=\(to)&appointmentTypeId=\(type)", token: token
            ) { response in
                let starts = try JSONDecoder().decode(SlotsBody.self, from: Data(buffer: response.body)).items
                    .compactMap { Timestamp.date($0.start) }
                #expect(starts.first == London.time(daysFromToday: offset, 9))
                #expect(starts.allSatisfy { London.calendar.component(.minute, from: $0) % 15 == 0 })
                return starts.first ?? Date()
            }
            try await client.call(
                "/api/v1/appointments", .post, token: token,
                json: #"""
                    {"patientId":"\#(patient)","clinicianId":"\#(clinician)","appointmentTypeId":"\#(type)",\#
                    "start":"\#(Timestamp.string(first))"}
                    """#
            ) { #expect($0.status == .created) }
        }
        let actions = try await store.auditEntries(scope: .system(practice.id), limit: 200, before: nil).items.map(
            \.action)
        #expect(
            actions.contains("practice.create") && actions.contains("user.create")
                && actions.contains("appointment.book"))
    }

    @Test("a weak password, an invalid practice or a taken practice name creates nothing, naming the field")
    func refusals() async throws {
        let (store, accounts, _) = try await Self.fresh()
        let profile = PracticeProfile(
            id: PracticeID(), name: "Harbour Vets", timeZone: "Europe/London", openingHours: [])
        await #expect(throws: ValidationError.self) {
            _ = try await accounts.createPractice(
                profile, administratorEmail: "sam@harbour-vets.example", administratorName: "Sam Reid",
                password: "password", requestID: "test")
        }
        do {
            _ = try await accounts.createPractice(
                PracticeProfile(id: PracticeID(), name: " ", timeZone: "Mars/Olympus", openingHours: []),
                administratorEmail: "sam@harbour-vets.example", administratorName: "Sam Reid",
                password: Self.password, requestID: "test")
            Issue.record("an invalid practice was created")
        } catch let error as ValidationError {
            #expect(error.errors.map(\.field) == ["name", "timeZone"])
        }
        #expect(try await store.isEmpty())
        _ = try await accounts.createPractice(
            profile, administratorEmail: "sam@harbour-vets.example", administratorName: "Sam Reid",
            password: Self.password, requestID: "test")
        await #expect(throws: UniquenessConflict.self) {
            _ = try await accounts.createPractice(
                PracticeProfile(id: PracticeID(), name: "Harbour Vets", timeZone: "Europe/London", openingHours: []),
                administratorEmail: "kim@harbour-vets.example", administratorName: "Kim Again",
                password: Self.password, requestID: "test")
        }
        #expect(try await store.allPractices().map(\.name) == ["Harbour Vets"])
        // Emails are unique within a practice: Sam may run a second practice with the same address.
        let (second, admin) = try await accounts.createPractice(
            PracticeProfile(
                id: PracticeID(), name: "Harbour Vets North", timeZone: "Europe/London",
                openingHours: []),
            administratorEmail: "sam@harbour-vets.example", administratorName: "Sam Reid",
            password: "otter-quay-beacon-17", requestID: "test")
        #expect(admin.practiceID == second.id)
        #expect(try await store.allPractices().count == 2)
    }
}
