import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Rooms, appointment types and fees")
struct CatalogueValidationTests {
    @Test("appointment types name every bad field")
    func appointmentType() {
        let type = AppointmentType(
            name: " ", defaultDurationMinutes: 0, bufferAfterMinutes: 241, fee: Money(minorUnits: -1, currency: "gbp"))
        do {
            try type.validate()
            Issue.record("accepted")
        } catch {
            #expect(
                error.errors.map(\.field) == [
                    "name", "defaultDurationMinutes", "bufferAfterMinutes", "fee.minorUnits", "fee.currency",
                ])
        }
    }

    @Test(
        "duration and buffer boundaries", arguments: [(1, 0, true), (720, 240, true), (721, 0, false), (30, -1, false)])
    func boundaries(duration: Int, buffer: Int, valid: Bool) {
        let type = AppointmentType(
            name: "Dental", defaultDurationMinutes: duration, bufferAfterMinutes: buffer,
            requiredSpecialty: .dentistry, requiredRoomType: .dental, fee: Money(minorUnits: 0, currency: "EUR"))
        #expect(((try? type.validate()) != nil) == valid)
    }

    @Test(
        "currencies are three upper-case letters",
        arguments: [("GBP", true), ("EUR", true), ("GB", false), ("GBPX", false), ("gbp", false), ("G1P", false)])
    func currency(code: String, valid: Bool) {
        var errors = FieldErrorCollector()
        Money(minorUnits: 100, currency: code).validate(field: "fee", into: &errors)
        #expect(errors.errors.isEmpty == valid)
    }

    @Test("rooms need a name; capacity counts active rooms per type")
    func rooms() {
        #expect(throws: ValidationError(field: "name", message: "must not be empty")) {
            try Room(name: "", type: .exam).validate()
        }
        let rooms = [
            Room(name: "Theatre 1", type: .surgery), Room(name: "Theatre 2", type: .surgery, isActive: false),
            Room(name: "Consult 1", type: .exam), Room(name: "Isolation", type: .isolation),
        ]
        #expect(Room.capacity(of: rooms) == [.surgery: 1, .exam: 1, .isolation: 1])
        #expect(RoomType.allCases.map(\.rawValue) == ["exam", "surgery", "dental", "imaging", "isolation"])
    }
}
