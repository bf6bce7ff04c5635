import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Patient and owner validation")
struct PatientValidationTests {
    @Test(
        "microchips are 15 digits (ISO 11784)",
        arguments: [
            ("826012345678901", true), ("82601234567890", false), ("8260123456789012", false),
            ("82601234567890A", false),
        ])
    func microchip(text: String, valid: Bool) {
        #expect(Patient.isValidMicrochip(text) == valid)
    }

    @Test("a birth date in the future and a co-owner equal to the owner are refused, naming both fields")
    func patientFields() {
        let owner = Identifier<Owner>()
        let patient = Patient(
            name: "Rex", species: .dog, birthDate: Date().addingTimeInterval(86_400), microchip: "123",
            ownerID: owner, coOwnerID: owner)
        do {
            try patient.validate(now: Date())
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.field) == ["birthDate", "microchip", "coOwnerId"])
        }
    }

    @Test("owner phone numbers need 6 to 15 digits; emails must be plausible")
    func ownerFields() {
        let owner = Owner(
            firstName: "Jo", lastName: "", email: "jo@", phones: [PhoneNumber(label: "mobile", number: "12")])
        do {
            try owner.validate()
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.field) == ["lastName", "email", "phones[0].number"])
        }
    }
}
