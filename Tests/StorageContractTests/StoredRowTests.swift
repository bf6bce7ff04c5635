import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Testing

@testable import StoragePorts

/// What a row must hold to be read back as an appointment, a patient or an audit entry:
/// written once for both stores, checked here without a database.
@Suite("Stored rows read back")
struct StoredRowTests {
    /// A row as a store hands it over: values by column name, NULL as `nil`.
    struct Cells: StoredRow {
        enum Value {
            case text(String)
            case integer(Int64)
            case flag(Bool)
            case bytes(Data)
        }
        var values: [String: Value?]

        func value(_ column: String) throws -> Value? {
            guard let value = values[column] else {
                throw StoreCorruption(column: column, reason: "not in the row read")
            }
            return value
        }
        func textValue(_ column: String, at position: Int?) throws -> String? {
            switch try value(column) {
            case nil: return nil
            case .text(let text): return text
            default: throw StoreCorruption(column: column, reason: "not text")
            }
        }
        func integerValue(_ column: String, at position: Int?) throws -> Int64? {
            switch try value(column) {
            case nil: return nil
            case .integer(let number): return number
            default: throw StoreCorruption(column: column, reason: "not a number")
            }
        }
        func boolValue(_ column: String, at position: Int?) throws -> Bool? {
            switch try value(column) {
            case nil: return nil
            case .flag(let flag): return flag
            default: throw StoreCorruption(column: column, reason: "not a flag")
            }
        }
        func bytesValue(_ column: String, at position: Int?) throws -> Data? {
            switch try value(column) {
            case nil: return nil
            case .bytes(let bytes): return bytes
            default: throw StoreCorruption(column: column, reason: "not bytes")
            }
        }
        func instantValue(_ column: String, at position: Int?) throws -> Date? {
            switch try value(column) {
            case nil: return nil
            case .integer(let milliseconds): return Timestamp.date(milliseconds: milliseconds)
            case .text(let text):
                guard let date = Timestamp.date(text) else {
                    throw StoreCorruption(column: column, reason: "not a time")
                }
                return date
            default: throw StoreCorruption(column: column, reason: "not a time")
            }
        }
        func uuidValue(_ column: String, at position: Int?) throws -> UUID? {
            try textValue(column, at: position).map {
                guard let id = UUID(uuidString: $0) else { throw StoreCorruption(column: column, reason: "not a UUID") }
                return id
            }
        }
    }

    static let start: Int64 = 1_800_000_000_000

    /// A row of `present` values and the NULL columns `null`.
    static func cells(_ present: [String: Cells.Value], null: [String]) -> Cells {
        var values: [String: Cells.Value?] = present.mapValues { $0 }
        for column in null { values[column] = .some(nil) }
        return Cells(values: values)
    }

    static var appointment: Cells {
        let present: [String: Cells.Value] = [
            "id": .text(UUID().uuidString), "practice_id": .text(UUID().uuidString),
            "patient_id": .text(UUID().uuidString), "clinician_id": .text(UUID().uuidString),
            "appointment_type_id": .text(UUID().uuidString), "room_type": .text("exam"),
            "room_id": .text(UUID().uuidString), "start_ms": .integer(start), "end_ms": .integer(start + 900_000),
            "occupied_end_ms": .integer(start + 1_200_000), "status": .text("booked"), "version": .integer(3),
            "reason": .text("limping"),
        ]
        return cells(
            present,
            null: [
                "checked_in_at_ms", "started_at_ms", "completed_at_ms", "actual_minutes", "cancellation_reason",
                "staff_notes", "match_basis", "assessment_id", "triage_level", "visit_id",
            ])
    }

    static func refused(_ column: String, _ read: () throws -> Void) {
        #expect {
            try read()
        } throws: { ($0 as? StoreCorruption)?.column == column }
    }

    @Test("an appointment reads with its time, buffer, room and version; a malformed room or status is refused")
    func appointment() throws {
        let stored = try AppointmentRows.appointment(from: Self.appointment)
        #expect(stored.version == 3)
        #expect(stored.value.bufferAfterMinutes == 5)
        #expect(stored.value.roomType == .exam)
        #expect(stored.value.roomID != nil)
        #expect(stored.value.status == .booked)
        var broken = Self.appointment
        broken.values["room_id"] = .text("room four")
        Self.refused("appointment.room_id") { _ = try AppointmentRows.appointment(from: broken) }
        broken = Self.appointment
        broken.values["status"] = .text("postponed")
        Self.refused("appointment.status") { _ = try AppointmentRows.appointment(from: broken) }
        broken = Self.appointment
        broken.values["version"] = .some(nil)
        Self.refused("appointment.version") { _ = try AppointmentRows.appointment(from: broken) }
        broken = Self.appointment
        broken.values["start_ms"] = nil
        Self.refused("appointment.start_ms") { _ = try AppointmentRows.appointment(from: broken) }
    }

    @Test("each appointment column is read at its place in the select list")
    func appointmentLayout() {
        let all = AppointmentRows.Column.appointment + AppointmentRows.Column.details
        #expect(all.map(\.position) == Array(0..<all.count))
        #expect(all.map(\.name) == AppointmentRows.columns + AppointmentRows.detailColumns)
    }

    @Test("a booking basis whose JSON is unreadable falls back on its assessment and level, and is refused without")
    func bookingBasis() throws {
        let assessment = UUID()
        var row = Self.appointment
        row.values["match_basis"] = .text("{not json")
        row.values["assessment_id"] = .text(assessment.uuidString)
        row.values["triage_level"] = .integer(2)
        let details = try AppointmentRows.details(from: row)
        #expect(details.basis?.assessmentID == assessment)
        #expect(details.basis?.triageLevel == 2)
        #expect(details.reason == "limping")
        row.values["triage_level"] = .some(nil)
        Self.refused("appointment.match_basis") { _ = try AppointmentRows.details(from: row) }
    }

    static var patient: Cells {
        let present: [String: Cells.Value] = [
            "id": .text(UUID().uuidString), "mrn": .text("P-000001"), "name": .text("Rex"), "species": .text("dog"),
            "sex": .text("male_neutered"), "birth_date": .text("2019-04-02"), "birth_date_estimated": .flag(false),
            "status": .text("active"), "alerts": .text(#"["bites"]"#), "owner_id": .text(UUID().uuidString),
            "version": .integer(1),
        ]
        return cells(present, null: ["breed", "colour", "microchip", "co_owner_id"])
    }

    @Test("a patient reads with its birth day and alerts; a day that is none or a malformed co-owner is refused")
    func patient() throws {
        let stored = try PatientRows.patient(from: Self.patient)
        #expect(stored.value.name == "Rex")
        #expect(stored.value.alerts == ["bites"])
        #expect(stored.value.birthDate == RecordCalendar.date(fromISODay: "2019-04-02"))
        var broken = Self.patient
        broken.values["birth_date"] = .text("last spring")
        Self.refused("patient.birth_date") { _ = try PatientRows.patient(from: broken) }
        broken = Self.patient
        broken.values["co_owner_id"] = .text("nobody")
        Self.refused("patient.co_owner_id") { _ = try PatientRows.patient(from: broken) }
        broken = Self.patient
        broken.values["alerts"] = .text("bites")
        Self.refused("patient.alerts") { _ = try PatientRows.patient(from: broken) }
    }

    static var auditEntry: Cells {
        let present: [String: Cells.Value] = [
            "seq": .integer(7), "id": .text(UUID().uuidString), "occurred_at": .text("2026-11-29T01:00:00Z"),
            "practice_id": .text(UUID().uuidString), "action": .text("patient.read"),
            "resource_type": .text("patient"), "outcome": .text("success"),
            "prev_hash": .text(String(repeating: "0", count: 64)), "hash": .text(String(repeating: "a", count: 64)),
        ]
        return cells(present, null: ["actor_id", "resource_id", "request_id", "detail"])
    }

    @Test("an audit entry with an unknown outcome or a malformed id is refused, never read as a failure or id zero")
    func auditEntry() throws {
        #expect(try AuditRows.entry(from: Self.auditEntry).sequence == 7)
        var broken = Self.auditEntry
        broken.values["outcome"] = .text("maybe")
        Self.refused("audit_entry.outcome") { _ = try AuditRows.entry(from: broken) }
        broken = Self.auditEntry
        broken.values["id"] = .text("entry seven")
        Self.refused("audit_entry.id") { _ = try AuditRows.entry(from: broken) }
    }

    static var sharedDevice: Cells {
        let present: [String: Cells.Value] = [
            "id": .text(UUID().uuidString), "practice_id": .text(UUID().uuidString), "name": .text("Front desk iPad"),
            "idle_lock_seconds": .integer(120), "registered_at_ms": .integer(start),
        ]
        return cells(present, null: ["registered_by"])
    }

    @Test("a shared device without a name or registration time is refused, never shown as registered in 1970")
    func sharedDevice() throws {
        let device = try AccountRows.sharedDevice(from: Self.sharedDevice)
        #expect(device.name == "Front desk iPad")
        #expect(device.registeredAt == Timestamp.date(milliseconds: Self.start))
        for column in ["name", "registered_at_ms", "idle_lock_seconds"] {
            var broken = Self.sharedDevice
            broken.values[column] = .some(nil)
            Self.refused("shared_device.\(column)") { _ = try AccountRows.sharedDevice(from: broken) }
        }
        var broken = Self.sharedDevice
        broken.values["registered_by"] = .text("the manager")
        Self.refused("shared_device.registered_by") { _ = try AccountRows.sharedDevice(from: broken) }
    }

    static var passkey: Cells {
        let present: [String: Cells.Value] = [
            "id": .text(UUID().uuidString), "user_id": .text(UUID().uuidString),
            "practice_id": .text(UUID().uuidString), "credential_id": .bytes(Data([1, 2, 3])),
            "public_key": .bytes(Data([4, 5, 6])), "relying_party": .text("vetnet.example"),
            "origin": .text("https://vetnet.example"), "name": .text("Front desk key"), "sign_count": .integer(4),
            "created_at_ms": .integer(start),
        ]
        return cells(present, null: ["last_used_at_ms"])
    }

    @Test("a passkey without its name, key or counter is refused, never offered to a sign-in as a nameless key")
    func passkey() throws {
        let key = try AccountRows.passkey(from: Self.passkey)
        #expect(key.name == "Front desk key")
        #expect(key.credentialID == Data([1, 2, 3]))
        #expect(key.lastUsedAt == nil)
        for column in ["name", "public_key", "sign_count"] {
            var broken = Self.passkey
            broken.values[column] = .some(nil)
            Self.refused("passkey.\(column)") { _ = try AccountRows.passkey(from: broken) }
        }
        var broken = Self.passkey
        broken.values["public_key"] = .text("a key")
        Self.refused("passkey.public_key") { _ = try AccountRows.passkey(from: broken) }
    }

    @Test("record entries read from their rows; a NULL unit, a dose not a number, a note that will not open: refused")
    func recordEntries() throws {
        let practiceID = PracticeID()
        let seal = FieldSeal(cipher: testCipher, practiceID: practiceID)
        let patientID = Identifier<Patient>()
        let weight = Self.cells(
            [
                "id": .text(UUIDText.lowercase(UUID())), "value": .text("4.25"), "unit": .text("kg"),
                "measured_at": .integer(Self.start),
            ], null: [])
        #expect(try RecordRows.weight(from: weight, patientID: patientID).value == Decimal(string: "4.25"))
        var broken = weight
        broken.values["unit"] = .some(nil)
        Self.refused("weight.unit") { _ = try RecordRows.weight(from: broken, patientID: patientID) }

        let medicationID = UUIDText.lowercase(UUID())
        func sealed(_ text: String, _ field: SealedField) throws -> Cells.Value {
            .text(try seal.seal(text, field, id: medicationID))
        }
        let medication = Self.cells(
            [
                "id": .text(medicationID), "drug": try sealed("Meloxicam", .medicationDrug),
                "concentration_mg_per_ml": try sealed("1.5", .medicationConcentration),
                "dose_mg_per_kg": try sealed("0.1", .medicationDose), "route": .text("oral"),
                "frequency": try sealed("once daily", .medicationFrequency), "start_date": .text("2026-11-02"),
            ], null: ["end_date"])
        let read = try RecordRows.medication(from: medication, patientID: patientID, seal: seal)
        #expect(read.drug == "Meloxicam" && read.doseMgPerKg == Decimal(string: "0.1") && read.endDate == nil)
        broken = medication
        broken.values["dose_mg_per_kg"] = try sealed("a pinch", .medicationDose)
        Self.refused("medication.dose_mg_per_kg") {
            _ = try RecordRows.medication(from: broken, patientID: patientID, seal: seal)
        }

        let note = ClinicalNote(
            patientID: patientID, author: NoteAuthor(id: UserID(), displayName: "Dr Hale"),
            createdAt: Date(timeIntervalSince1970: 1_800_000_000), subjective: "Limping", objective: "Warm joint",
            assessment: "Sprain", plan: "Rest")
        let noteRow = Self.cells(
            [
                "id": .text(note.id.description), "patient_id": .text(patientID.description),
                "author_id": .text(note.author.id.description), "author_name": .text("Dr Hale"),
                "created_at": .integer(Self.start),
                "sealed_text": .bytes(try SealedClinicalText.seal(note, practiceID: practiceID, cipher: testCipher)),
            ], null: [])
        let opened = try RecordRows.note(from: noteRow, practiceID: practiceID, cipher: testCipher)
        #expect(opened.assessment == "Sprain" && opened.author.displayName == "Dr Hale")
        // Under another practice's context the sealed sections do not open: named, never shown empty.
        Self.refused("clinical_note.sealed_text") {
            _ = try RecordRows.note(from: noteRow, practiceID: PracticeID(), cipher: testCipher)
        }
    }

    @Test("an appointment note reads with its text opened; a malformed appointment id is named as that column")
    func appointmentNote() throws {
        let practiceID = PracticeID()
        let note = AppointmentNote(
            id: UUID(), appointmentID: Identifier(), authorID: nil, authorName: "Front desk", text: "Arrives by taxi",
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        let row = Self.cells(
            [
                "id": .text(UUIDText.lowercase(note.id)), "appointment_id": .text(note.appointmentID.description),
                "author_name": .text("Front desk"), "created_at_ms": .integer(1_800_000_000_000),
                "sealed_text": .bytes(try SealedClinicalText.seal(note, practiceID: practiceID, cipher: testCipher)),
            ], null: ["author_id"])
        #expect(try AppointmentRows.note(from: row, practiceID: practiceID, cipher: testCipher) == note)
        var broken = row
        broken.values["appointment_id"] = .text("tomorrow")
        Self.refused("appointment_note.appointment_id") {
            _ = try AppointmentRows.note(from: broken, practiceID: practiceID, cipher: testCipher)
        }
    }
}
