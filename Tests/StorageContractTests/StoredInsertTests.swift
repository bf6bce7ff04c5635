import Foundation
import PatientRecords
import SharedKernel
import Testing
import Triage

@testable import StoragePorts

/// The rows both stores write for record entries read back, through the readers both stores
/// read with, as the entries they were written for: a column the writer names and the reader
/// does not (or a value sealed under another field) would lose part of a patient's record.
@Suite("Stored record rows read back as written")
struct StoredInsertTests {
    typealias Cells = StoredRowTests.Cells

    let practiceID = PracticeID()
    let patientID = Identifier<Patient>()
    let day = { (text: String) in RecordCalendar.date(fromISODay: text)! }
    let stamp = EntryStamp(at: Date(timeIntervalSince1970: 1_800_000_000.123), by: "account-1")
    var seal: FieldSeal { FieldSeal(cipher: testCipher, practiceID: practiceID) }

    /// The row as a store hands it back: an identifier and a day as text, an instant as
    /// milliseconds (PostgreSQL's `<column>_ms`, aliased back to `<column>`).
    static func readBack(_ row: StoredInsert, extra: [String: Cells.Value] = [:], null: [String] = []) -> Cells {
        var values: [String: Cells.Value?] = extra.mapValues { $0 }
        for column in null { values.updateValue(nil, forKey: column) }
        for (column, value) in zip(row.columns, row.values) {
            let cell: Cells.Value? =
                switch value {
                case .text(let text), .json(let text): text.map { .text($0) }
                case .integer(let number): number.map { .integer($0) }
                case .uuid(let id): id.map { .text(UUIDText.lowercase($0)) }
                case .bytes(let bytes): bytes.map { .bytes($0) }
                case .day(let day): day.map { .text($0) }
                case .flag(let flag): flag.map { .flag($0) }
                case .instant(let instant), .milliseconds(let instant):
                    instant.map { .integer(Timestamp.milliseconds($0)) }
                case .time(let time): time.map { .text(Timestamp.string($0)) }
                }
            values.updateValue(cell, forKey: column) // NULL stays a column of the row
        }
        return Cells(values: values)
    }

    func row(_ entry: RecordEntry) throws -> Cells {
        let row = try RecordRows.insert(
            entry, patientID: patientID, practiceID: practiceID, stamp: stamp, cipher: testCipher)
        #expect(row.values[row.columns.firstIndex(of: "practice_id")!] == .uuid(practiceID.rawValue))
        return Self.readBack(row)
    }

    @Test("weights, problems, allergies, medications and vaccinations read back equal, their text sealed")
    func structuredEntries() throws {
        let weight = WeightMeasurement(
            patientID: patientID, value: Decimal(string: "4.25")!, unit: .kg,
            measuredAt: Date(timeIntervalSince1970: 1_799_990_000.5))
        #expect(try RecordRows.weight(from: try row(.weight(weight)), patientID: patientID) == weight)

        let problem = Problem(
            patientID: patientID, name: "Otitis externa", status: .resolved, onsetDate: day("2026-10-02"),
            resolvedDate: day("2026-10-20"))
        let problemRow = try row(.problem(problem))
        #expect(try problemRow.textValue("name", at: nil)?.hasPrefix(FieldSeal.prefix) == true)
        #expect(try RecordRows.problem(from: problemRow, patientID: patientID, seal: seal) == problem)

        let allergy = Allergy(patientID: patientID, substance: "Penicillin", reaction: "Hives", severity: .severe)
        let allergyRow = try row(.allergy(allergy))
        #expect(try allergyRow.textValue("reaction", at: nil)?.contains("Hives") == false)
        #expect(try RecordRows.allergy(from: allergyRow, patientID: patientID, seal: seal) == allergy)
        let withoutReaction = Allergy(patientID: patientID, substance: "Latex", severity: .mild)
        #expect(
            try RecordRows.allergy(from: try row(.allergy(withoutReaction)), patientID: patientID, seal: seal)
                == withoutReaction)

        let medication = Medication(
            patientID: patientID, drug: "Meloxicam", concentrationMgPerML: Decimal(string: "1.5")!,
            doseMgPerKg: Decimal(string: "0.1")!, route: .oral, frequency: "once daily",
            startDate: day("2026-11-02"), endDate: day("2026-11-09"))
        let medicationRow = try row(.medication(medication))
        #expect(try medicationRow.textValue("prescribed_by", at: nil) == "account-1")
        #expect(try RecordRows.medication(from: medicationRow, patientID: patientID, seal: seal) == medication)

        let vaccination = Vaccination(
            patientID: patientID, vaccine: "DHPPi", administeredDate: day("2026-03-01"), batchNumber: "B-7",
            nextDueDate: day("2027-03-01"))
        #expect(try RecordRows.vaccination(from: try row(.vaccination(vaccination)), seal: seal) == vaccination)
    }

    @Test("a note and an addendum read back equal, their whole text sealed under their own ids")
    func notes() throws {
        let note = ClinicalNote(
            patientID: patientID, author: NoteAuthor(id: UserID(), displayName: "Dr Hale"),
            createdAt: Date(timeIntervalSince1970: 1_800_000_000), subjective: "Limping", objective: "Warm joint",
            assessment: "Sprain", plan: "Rest")
        let noteRow = try row(.note(note))
        #expect(try RecordRows.note(from: noteRow, practiceID: practiceID, cipher: testCipher) == note)
        let elsewhere = PracticeID()
        #expect(throws: (any Error).self) {
            _ = try RecordRows.note(from: noteRow, practiceID: elsewhere, cipher: testCipher)
        }

        let addendum = Addendum(
            noteID: note.id, author: NoteAuthor(id: UserID(), displayName: "Dr Okafor"),
            createdAt: Date(timeIntervalSince1970: 1_800_000_600), text: "Swelling down on review.")
        let addendumRow = try row(.addendum(addendum))
        #expect(try addendumRow.uuidValue("note_id", at: nil) == note.id.rawValue)
        #expect(
            try RecordRows.addendum(from: addendumRow, practiceID: practiceID, cipher: testCipher) == addendum)
    }

    @Test("a visit's row reads back as the visit, its record sealed")
    func visit() throws {
        let visit = Visit(
            patientID: patientID, occurredAt: Date(timeIntervalSince1970: 1_800_000_000), chiefComplaint: "Cough")
        let row = try RecordRows.insert(visit, seal: seal, recordedBy: "account-1", createdAt: stamp.at)
        #expect(row.table == "visit")
        let stored = try RecordRows.visit(from: Self.readBack(row, extra: ["version": .integer(1)]), seal: seal)
        #expect(stored.visit == visit)
        #expect(try Self.readBack(row).textValue("record", at: nil)?.contains("Cough") == false)
    }

    @Test("a staff account, a passkey and a triage override read back equal; only the override's reason is sealed")
    func accountsAndTriage() throws {
        let account = StaffAccount(
            id: UserID(), practiceID: practiceID, email: "hale@example.org", displayName: "Dr Hale",
            role: .veterinarian, disabled: false, createdAt: Date(timeIntervalSince1970: 1_800_000_000), version: 3)
        let accountRow = Self.readBack(AccountRows.insert(account, passwordHash: "hash"))
        #expect(try AccountRows.account(from: accountRow) == account)
        #expect(try accountRow.textValue("password_hash", at: nil) == "hash")

        let passkey = StoredPasskey(
            id: UUID(), userID: account.id, practiceID: practiceID, credentialID: Data([1, 2, 3]),
            publicKey: Data([4, 5, 6]), relyingParty: "clinic.example", origin: "https://clinic.example",
            name: "Front desk iPad", signCount: 7, createdAt: Date(timeIntervalSince1970: 1_800_000_000.25),
            lastUsedAt: nil)
        #expect(
            try AccountRows.passkey(from: Self.readBack(AccountRows.insert(passkey), null: ["last_used_at_ms"]))
                == passkey)

        let override = TriageOverride(
            id: Identifier(), assessmentID: Identifier(), computedLevel: .yellow, previousLevel: .yellow,
            level: .orange, reason: "Owner reports collapse at home", overriddenBy: account.id.description,
            overriddenAt: Date(timeIntervalSince1970: 1_800_000_100), lowersRedFinding: false)
        let overrideRow = Self.readBack(try AssessmentRows.insert(override, patientID: patientID.rawValue, seal: seal))
        #expect(try overrideRow.textValue("reason", at: nil)?.contains("collapse") == false)
        #expect(
            try AssessmentRows.override(from: overrideRow, seal: { FieldSeal(cipher: testCipher, practiceID: $0) })
                == override)
    }

    @Test("a PIN, a device sign-in and a pending second factor replace the row with their key")
    func upserts() throws {
        let pin = AccountRows.pin(hash: "h", userID: UserID(), practiceID: practiceID, at: stamp.at)
        #expect(pin.conflictKey == ["user_id"] && pin.replacing == ["pin_hash", "set_at_ms"])
        let signIn = AccountRows.deviceSignIn(
            deviceID: UUID(), userID: UserID(), practiceID: practiceID, secondFactor: true, at: stamp.at)
        #expect(signIn.conflictKey == ["device_id", "user_id"])
        // Every column replaced is one the row writes, so each store's `excluded.<column>` exists.
        let pending = try AccountRows.pendingSecondFactor(
            secret: Array(repeating: 7, count: 20), userID: UserID(), practiceID: practiceID, cipher: testCipher)
        #expect(pending.conflictKey == ["user_id"] && pending.replacing == ["sealed_pending"])
        for row in [pin, signIn, pending] { #expect(Set(row.replacing).isSubset(of: row.columns)) }
        let problem = Problem(patientID: patientID, name: "Otitis externa")
        #expect(try RecordRows.insert(problem, seal: seal, createdAt: stamp.at).conflictKey.isEmpty)
    }
}
