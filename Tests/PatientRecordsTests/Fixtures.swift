import Foundation
import PatientRecords
import SharedKernel

/// Shared values for the records tests: dates are written as ISO days so tables read naturally.
enum Fixture {
    /// Midnight UTC of an ISO day; traps on a typo so a bad table fails loudly.
    static func day(_ text: String) -> Date {
        guard let date = RecordCalendar.date(fromISODay: text) else { fatalError("bad fixture day \(text)") }
        return date
    }

    /// An instant on an ISO day, `hour` hours after midnight UTC.
    static func day(_ text: String, hour: Int) -> Date { day(text).addingTimeInterval(TimeInterval(hour) * 3600) }

    /// A decimal from text, exact (a `Double` literal would not be).
    static func dec(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

    static let patientID = Identifier<Patient>(UUID(uuidString: "00000000-0000-0000-0000-0000000000A1")!)
    static let otherPatientID = Identifier<Patient>(UUID(uuidString: "00000000-0000-0000-0000-0000000000A2")!)
    static let now = day("2026-03-15", hour: 10)
    static let vet = NoteAuthor(
        id: UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000B1")!), displayName: "Dr Ana Vet")
    static let nurse = NoteAuthor(
        id: UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000B2")!), displayName: "Sam Nurse")

    /// A weighing of the fixture patient.
    static func weight(_ value: String, _ unit: WeightUnit, at date: Date = now) -> WeightMeasurement {
        WeightMeasurement(patientID: patientID, value: dec(value), unit: unit, measuredAt: date)
    }

    /// The field names a throwing validation reported, or `[]` when it passed.
    static func fields(_ body: () throws(ValidationError) -> Void) -> [String] {
        do {
            try body()
            return []
        } catch {
            return error.errors.map(\.field)
        }
    }
}
