import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import SharedKernel
import Testing

@testable import HTTPAPI

/// What a consultation asks the server before anything is saved — the dose a prescription
/// would give, the next due date a vaccine's protocol proposes — and the notes on an appointment.
@Suite("Consultation support over HTTP")
struct ConsultationSupportAPITests {
    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a dose preview equals the saved medication's dose, and is refused without a weight")
    func dosePreview() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let vet = try await client.login("veterinarian@alpha.example")
            let base = "/api/v1/patients/\(fixture.patient.id)"
            try await client.call(base + "/dose?doseMgPerKg=0.2&concentrationMgPerML=5", token: vet) { response in
                #expect(response.status == .conflict)
                let detail = try Problem(response).detail
                #expect(detail?.contains("No weight recorded") == true)
            }
            try await client.call(base + "/weights", .post, token: vet, json: #"{"value":12.5,"unit":"kg"}"#) {
                #expect($0.status == .created)
            }
            let preview = try Self.json(
                try await client.call(base + "/dose?doseMgPerKg=0.2&concentrationMgPerML=5", token: vet) { response in
                    #expect(response.status == .ok)
                    return Data(buffer: response.body)
                })
            #expect(
                preview["doseMg"] as? Double == 2.5 && preview["volumeML"] as? Double == 0.5
                    && preview["weightKg"] as? Double == 12.5)
            let saved = try Self.json(
                try await client.call(
                    base + "/medications", .post, token: vet,
                    json: #"""
                        {"drug":"Maropitant","concentrationMgPerML":5,"doseMgPerKg":0.2,"route":"subcutaneous",\#
                        "frequency":"once","startDate":"\#(RecordCalendar.isoDay(fixture.app.store.clock.now()))"}
                        """#
                ) { Data(buffer: $0.body) })
            let id = try #require((saved["medications"] as? [[String: Any]])?.first?["id"] as? String)
            let dose = try Self.json(
                try await client.call(base + "/medications/\(id)/dose", token: vet) { Data(buffer: $0.body) })
            #expect(
                dose["doseMg"] as? Double == preview["doseMg"] as? Double
                    && dose["volumeML"] as? Double == preview["volumeML"] as? Double)
            try await client.call(base + "/dose?doseMgPerKg=0&concentrationMgPerML=5", token: vet) {
                #expect($0.status == .unprocessableContent)
            }
        }
    }

    @Test(
        """
        the protocol proposes a vaccine's next due date: the primary course for a puppy, the adult interval after; \
        unknown vaccines propose nothing
        """
    )
    func vaccinationProposal() async throws {
        let fixture = try await ScheduleFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let today = fixture.app.store.clock.now()
        let puppyBirth = RecordCalendar.date(fromISODay: RecordCalendar.isoDay(today.addingTimeInterval(-70 * 86_400)))
        let puppy = try await fixture.app.store.createPatient(
            Patient(name: "Pip", species: .dog, birthDate: puppyBirth, ownerID: fixture.patient.ownerID),
            scope: scope)
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            func propose(_ patient: Identifier<Patient>, _ vaccine: String, on day: String) async throws -> [String:
                Any]
            {
                let query =
                    """
                    vaccine=\(vaccine.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")\
                    &administeredDate=\(day)
                    """
                return try Self.json(
                    try await client.call("/api/v1/patients/\(patient)/vaccinations/proposal?\(query)", token: token) {
                        response in
                        #expect(response.status == .ok)
                        return Data(buffer: response.body)
                    })
            }
            let adult = try await propose(fixture.patient.id, "Nobivac DHP", on: "2026-03-01")
            #expect(adult["matched"] as? Bool == true && adult["core"] as? Bool == true)
            #expect(adult["nextDueDate"] as? String == "2029-02-28" && adult["intervalDays"] as? Int == 1_095)
            #expect((adult["source"] as? String)?.contains("WSAVA") == true)
            let lepto = try await propose(fixture.patient.id, "L4", on: "2026-03-01")
            #expect(lepto["nextDueDate"] as? String == "2027-03-01" && lepto["core"] as? Bool == false)
            let course = try await propose(puppy.id, "DHPP", on: RecordCalendar.isoDay(today))
            #expect(course["primaryCourse"] as? Bool == true && course["intervalDays"] as? Int == 28)
            let unknown = try await propose(fixture.patient.id, "Snake venom", on: "2026-03-01")
            #expect(unknown["matched"] as? Bool == false && unknown["nextDueDate"] == nil)
            let protocolOfRabbits = try Self.json(
                try await client.call("/api/v1/vaccination-protocols?species=rabbit", token: token) {
                    Data(buffer: $0.body)
                })
            #expect((protocolOfRabbits["vaccines"] as? [[String: Any]])?.first?["intervalDays"] as? Int == 365)
            let birds = try Self.json(
                try await client.call("/api/v1/vaccination-protocols?species=bird", token: token) {
                    Data(buffer: $0.body)
                })
            #expect((birds["vaccines"] as? [Any])?.isEmpty == true && birds["source"] == nil)
        }
    }

    @Test(
        """
        appointment notes through HTTP: two authors in order, a blank note refused at text, another practice 404, the \
        event published
        """
    )
    func appointmentNotes() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let reception = try await client.login("receptionist@alpha.example")
            let start = London.time(daysFromToday: 2, 10)
            let id = try await client.call(
                "/api/v1/appointments", .post, token: reception, json: fixture.bookingJSON(start: start)
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            let uri = "/api/v1/appointments/\(id)/notes"
            try await client.call(
                uri, .post, token: reception, json: #"{"text":"Owner rang: bring last year's X-rays"}"#
            ) { #expect($0.status == .created) }
            let vet = try await client.login("veterinarian@alpha.example")
            try await client.call(uri, .post, token: vet, json: #"{"text":"   "}"#) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["text"])
            }
            try await client.call(uri, .post, token: vet, json: #"{"text":"Seen the X-rays: sedate for the exam"}"#) {
                #expect($0.status == .created)
            }
            let listed = try Self.json(try await client.call(uri, token: vet) { Data(buffer: $0.body) })
            let items = try #require(listed["items"] as? [[String: Any]])
            #expect(items.map { $0["authorName"] as? String } == ["Receptionist", "Veterinarian"])
            #expect(items.first?["text"] as? String == "Owner rang: bring last year's X-rays")
            // The schedule list counts them (no read of anyone's notes).
            let from = Timestamp.string(start.addingTimeInterval(-3600))
            let to = Timestamp.string(start.addingTimeInterval(3600))
            let day = try Self.json(
                try await client.call("/api/v1/appointments?from=\(from)&to=\(to)", token: vet) {
                    Data(buffer: $0.body)
                })
            #expect((day["items"] as? [[String: Any]])?.first { $0["id"] as? String == id }?["noteCount"] as? Int == 2)
            let otherAdmin = try await client.login("admin@beta.example")
            try await client.call(uri, token: otherAdmin) { #expect($0.status == .notFound) }
            try await client.call(uri, .post, token: otherAdmin, json: #"{"text":"hello"}"#) {
                #expect($0.status == .notFound)
            }
        }
    }

    @Test(
        """
        possible duplicates: the same microchip, owner phone (any format), owner email (any case) or a similar name \
        of the same species, each named
        """
    )
    func possibleDuplicates() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let ownerJSON =
                #"""
                {"firstName":"Jo","lastName":"Bloggs","email":"jo.bloggs@example.org","phones":[{"label":"mobile",\#
                "number":"07700 900123"}]}
                """#
            let owner = try await client.call("/api/v1/owners", .post, token: token, json: ownerJSON) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
            }
            let patientJSON = #"{"name":"Biscuit","species":"dog","ownerId":"\#(owner)","microchip":"985112345678901"}"#
            try await client.call("/api/v1/patients", .post, token: token, json: patientJSON) {
                #expect($0.status == .created)
            }
            func reasons(_ query: String) async throws -> [[String]] {
                let data = try await client.call("/api/v1/patient-duplicates?\(query)", token: token) { response in
                    #expect(response.status == .ok)
                    return Data(buffer: response.body)
                }
                let items = try #require(
                    (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]])
                return items.map { $0["reasons"] as? [String] ?? [] }
            }
            #expect(try await reasons("ownerPhone=07700-900-123") == [["same_owner_phone"]])
            #expect(try await reasons("ownerEmail=JO.Bloggs%40example.org") == [["same_owner_email"]])
            #expect(
                try await reasons("microchip=985112345678901&patientName=Biscuit&species=dog") == [
                    ["same_microchip", "similar_patient_name"]
                ])
            #expect(try await reasons("patientName=Bisc&species=dog") == [["similar_patient_name"]])
            #expect(
                try await reasons("patientName=Biscuit&species=cat").isEmpty, "a cat of the same name is another animal"
            )
            #expect(try await reasons("patientName=Rex&ownerPhone=0123").isEmpty)
        }
    }
}
