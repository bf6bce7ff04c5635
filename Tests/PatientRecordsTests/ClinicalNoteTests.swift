import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Append-only SOAP notes and addenda")
struct ClinicalNoteTests {
    static let note = ClinicalNote(
        patientID: Fixture.patientID, author: Fixture.vet, createdAt: Fixture.day("2026-03-01", hour: 9),
        subjective: "Eating less for two days.", objective: "T 39.4 °C, HR 120.",
        assessment: "Gastritis suspected.", plan: "Bland diet, recheck in 3 days.")

    @Test("addenda render after the note in time order, whatever order they are passed in")
    func rendering() throws {
        let note = Self.note
        let first = try note.addendum(
            text: "Temperature was 38.4 °C, not 39.4 °C.", author: Fixture.vet,
            createdAt: Fixture.day("2026-03-01", hour: 14), now: Fixture.now)
        let second = try note.addendum(
            text: "Owner reports normal appetite.", author: Fixture.nurse,
            createdAt: Fixture.day("2026-03-02", hour: 8), now: Fixture.now)
        let elsewhere = Addendum(
            noteID: .init(), author: Fixture.vet, createdAt: Fixture.day("2026-03-01", hour: 10), text: "Other note.")
        let text = note.rendered(with: [second, elsewhere, first])
        #expect(
            text == """
                Clinical note — 2026-03-01T09:00:00.000Z — Dr Ana Vet
                S: Eating less for two days.
                O: T 39.4 °C, HR 120.
                A: Gastritis suspected.
                P: Bland diet, recheck in 3 days.

                Addendum 1 — 2026-03-01T14:00:00.000Z — Dr Ana Vet
                Temperature was 38.4 °C, not 39.4 °C.

                Addendum 2 — 2026-03-02T08:00:00.000Z — Sam Nurse
                Owner reports normal appetite.
                """)
        // The correction did not touch the original.
        #expect(note == Self.note)
        #expect(note.objective == "T 39.4 °C, HR 120.")
    }

    @Test("an empty section renders as a dash")
    func emptySection() {
        let note = ClinicalNote(
            patientID: Fixture.patientID, author: Fixture.vet, createdAt: Fixture.now,
            subjective: "", objective: "Wound healing well.", assessment: " ", plan: "")
        #expect(
            note.rendered(with: []).split(separator: "\n").dropFirst().map(String.init)
                == ["S: —", "O: Wound healing well.", "A: —", "P: —"])
    }

    @Test("invalid notes and addenda are refused naming the field")
    func validation() {
        let empty = ClinicalNote(
            patientID: Fixture.patientID, author: NoteAuthor(id: Fixture.vet.id, displayName: ""),
            createdAt: Fixture.now.addingTimeInterval(1), subjective: " ", objective: "", assessment: "", plan: "\n")
        #expect(
            Fixture.fields { () throws(ValidationError) in try empty.validate(now: Fixture.now) }
                == ["subjective", "author.displayName", "createdAt"])
        #expect(
            Fixture.fields { () throws(ValidationError) in
                _ = try Self.note.addendum(
                    text: "Too early.", author: Fixture.vet, createdAt: Fixture.day("2026-03-01", hour: 8),
                    now: Fixture.now)
            } == ["createdAt"])
        #expect(
            Fixture.fields { () throws(ValidationError) in
                _ = try Self.note.addendum(
                    text: "  ", author: Fixture.vet, createdAt: Fixture.now.addingTimeInterval(60), now: Fixture.now)
            } == ["text", "createdAt"])
        let foreign = Addendum(noteID: .init(), author: Fixture.vet, createdAt: Fixture.now, text: "Wrong note.")
        #expect(
            Fixture.fields { () throws(ValidationError) in try foreign.validate(for: Self.note, now: Fixture.now) } == [
                "noteId"
            ])
    }

    @Test("the log only appends: notes and addenda accumulate in order and earlier entries stay identical")
    func log() throws {
        var log = ClinicalNoteLog(patientID: Fixture.patientID)
        try log.append(Self.note, now: Fixture.now)
        let later = ClinicalNote(
            patientID: Fixture.patientID, author: Fixture.nurse, createdAt: Fixture.day("2026-03-04", hour: 9),
            subjective: "", objective: "Recheck: bright.", assessment: "Resolving.", plan: "Discharge.")
        try log.append(later, now: Fixture.now)
        let correction = try Self.note.addendum(
            text: "Temperature was 38.4 °C.", author: Fixture.vet, createdAt: Fixture.day("2026-03-05"),
            now: Fixture.now)
        try log.append(correction, now: Fixture.now)

        #expect(log.notes == [Self.note, later])
        #expect(log.addenda(of: Self.note.id) == [correction])
        #expect(log.addenda(of: later.id).isEmpty)
        #expect(log.rendered().components(separatedBy: "Clinical note — ").count == 3)
        #expect(log.rendered().contains("Addendum 1 — 2026-03-05T00:00:00.000Z — Dr Ana Vet"))

        #expect(Fixture.fields { () throws(ValidationError) in try log.append(Self.note, now: Fixture.now) } == ["id"])
        #expect(Fixture.fields { () throws(ValidationError) in try log.append(correction, now: Fixture.now) } == ["id"])
        let orphan = Addendum(noteID: .init(), author: Fixture.vet, createdAt: Fixture.now, text: "Nowhere.")
        #expect(Fixture.fields { () throws(ValidationError) in try log.append(orphan, now: Fixture.now) } == ["noteId"])
        let otherPatient = ClinicalNote(
            patientID: Fixture.otherPatientID, author: Fixture.vet, createdAt: Fixture.now,
            subjective: "x", objective: "", assessment: "", plan: "")
        #expect(
            Fixture.fields { () throws(ValidationError) in try log.append(otherPatient, now: Fixture.now) } == [
                "patientId"
            ])
        #expect(log.notes == [Self.note, later], "refused appends leave the log as it was")
    }

    @Test("a note round-trips through JSON unchanged")
    func codable() throws {
        let data = try JSONEncoder().encode(Self.note)
        #expect(try JSONDecoder().decode(ClinicalNote.self, from: data) == Self.note)
    }
}
