import PatientRecords
import Testing

@Suite("Medical record numbers")
struct MedicalRecordNumberTests {
    @Test("numbers have at least six digits and read back to their counter value; other text is not an assigned number")
    func textAndValue() {
        #expect(MedicalRecordNumber.text(1) == "P-000001")
        #expect(MedicalRecordNumber.text(999_999) == "P-999999")
        #expect(MedicalRecordNumber.text(1_000_000) == "P-1000000")
        #expect(MedicalRecordNumber.value(of: "P-000042") == 42)
        #expect(MedicalRecordNumber.value(of: MedicalRecordNumber.text(1_234_567)) == 1_234_567)
        for other in ["P-", "P-12a", "X-000001", "P-+12", "p-000001", "P-٣٤"] {
            #expect(MedicalRecordNumber.value(of: other) == nil, "\(other)")
        }
    }
}
