import Foundation
import SharedKernel
import Specialists
import Testing

@Suite("Clinician profile")
struct ClinicianValidationTests {
    @Test("proficiency, caps, ceiling and species are checked, naming each field")
    func invalid() {
        let clinician = Clinician(
            displayName: " ", credentials: "",
            expertise: [Expertise(specialty: .cardiology, proficiency: 6, years: -1)],
            species: [], maxAppointmentsPerDay: 0, complexityCeiling: 1.5)
        do {
            try clinician.validate()
            Issue.record("accepted")
        } catch {
            #expect(
                error.errors.map(\.field) == [
                    "displayName", "expertise[0].proficiency", "expertise[0].years", "species",
                    "maxAppointmentsPerDay", "complexityCeiling",
                ])
        }
    }
}
