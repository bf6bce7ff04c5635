import SharedKernel
import Testing

@Suite("The audit action catalogue")
struct AuditActionTests {
    @Test("every action is listed once, with a lower-case dotted name whose first part is the resource")
    func catalogue() {
        let names = AuditAction.catalogue.map(\.name)
        #expect(Set(names).count == names.count, "a name is listed twice")
        for name in names {
            #expect(name.range(of: #"^[a-z_]+(\.[a-z_]+)*$"#, options: .regularExpression) != nil, "\(name)")
        }
        #expect(AuditAction.triageOverride.resourceType == "triage")
        #expect(AuditAction.replay(of: .patientCreate).name == "patient.create.replay")
        #expect(AuditAction.replay(of: .patientCreate).resourceType == "patient")
    }
}
