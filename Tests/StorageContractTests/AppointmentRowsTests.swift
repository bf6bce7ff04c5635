import Foundation
import StoragePorts
import Testing

/// Reading a stored appointment's time back, as every store and reader does, without a store.
@Suite("Appointment rows: a stored time reads back with its buffer, or its bad column is named")
struct AppointmentRowsTests {
    let nine: Int64 = 1_795_000_000_000

    @Test("a quarter of an hour with ten minutes' cleaning after it reads back as both")
    func readsBack() throws {
        let (time, buffer) = try AppointmentRows.time(
            startMilliseconds: nine, endMilliseconds: nine + 900_000, occupiedEndMilliseconds: nine + 1_500_000)
        #expect(time.duration == 900 && buffer == 10)
        #expect(time.start == Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test("an appointment ending before it starts, at its start, or freeing its room before it ends is named")
    func refused() {
        for (end, occupiedEnd) in [(nine - 60_000, nine), (nine, nine), (nine + 900_000, nine + 600_000)] {
            #expect("end \(end - nine), occupied \(occupiedEnd - nine)") {
                try AppointmentRows.time(
                    startMilliseconds: nine, endMilliseconds: end, occupiedEndMilliseconds: occupiedEnd)
            } throws: { ($0 as? StoreCorruption)?.column == "appointment.end_ms" }
        }
    }
}
