import Foundation
import HTTPTypes
import HummingbirdTesting
import Scheduling
import SharedKernel
import StoragePorts
import Testing

@testable import HTTPAPI

/// Set-up in the app: appointment types changed and retired, rooms taken out of service.
@Suite("Changing appointment types and rooms")
struct ResourceChangeAPITests {
    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        """
        a fee and duration change; a retired type is listed but neither offered nor booked; a room out of service \
        frees no slot
        """
    )
    func typesAndRooms() async throws {
        let fixture = try await ScheduleFixture.make()
        let type = fixture.consultation
        let from = London.time(daysFromToday: 2, 9)
        let to = London.time(daysFromToday: 2, 12)
        let slotsURI: @Sendable (String) -> String = { typeID in
            """
            /api/v1/appointments/slots?from=\(Timestamp.string(from))&to=\(Timestamp.string(to))\
            &appointmentTypeId=\(typeID)
            """
        }
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let reception = try await client.login("receptionist@alpha.example")
            var body = try await client.call(
                "/api/v1/appointment-types/\(type.id)", .patch, token: admin,
                json: #"{"feeMinorUnits":5200,"defaultDurationMinutes":25}"#
            ) {
                #expect($0.status == .ok, "\(String(buffer: $0.body))")
                return Data(buffer: $0.body)
            }
            var changed = try Self.object(body)
            #expect(changed["feeMinorUnits"] as? Int == 5200 && changed["defaultDurationMinutes"] as? Int == 25)
            #expect(changed["name"] as? String == type.name, "fields not sent stay")
            try await client.call(
                "/api/v1/appointment-types/\(type.id)", .patch, token: reception, json: #"{"feeMinorUnits":1}"#
            ) {
                #expect($0.status == .forbidden)
            }
            try await client.call(
                "/api/v1/appointment-types/\(type.id)", .patch, token: admin, json: #"{"defaultDurationMinutes":0}"#
            ) {
                #expect($0.status == .unprocessableContent || $0.status == .badRequest)
            }
            let offered = try await client.call(slotsURI(type.id.description), token: reception) {
                Data(buffer: $0.body)
            }
            #expect(
                ((try Self.object(offered)["items"] as? [Any]) ?? []).isEmpty == false, "offered before it is retired")

            body = try await client.call("/api/v1/appointment-types/\(type.id)/retire", .post, token: admin) {
                #expect($0.status == .ok, "\(String(buffer: $0.body))")
                return Data(buffer: $0.body)
            }
            changed = try Self.object(body)
            #expect(changed["retiredAt"] as? String != nil)
            try await client.call("/api/v1/appointment-types/\(type.id)/retire", .post, token: admin) {
                #expect($0.status == .conflict)
            }
            try await client.call(slotsURI(type.id.description), token: reception) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("appointmentTypeId"))
            }
            let listed = try await client.call("/api/v1/appointment-types", token: reception) { Data(buffer: $0.body) }
            let items = try #require(try Self.object(listed)["items"] as? [[String: Any]])
            #expect(
                items.first { $0["id"] as? String == type.id.description }?["retiredAt"] != nil,
                "kept and shown as retired")
        }
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let audit = try await fixture.app.store.auditEntries(scope: scope, limit: 200, before: nil).items.map(\.action)
        #expect(
            audit.contains(AuditAction.appointmentTypeRetire.name)
                && audit.contains(AuditAction.appointmentTypeUpdate.name))
    }

    @Test(
        "a room out of service is no longer counted: a type needing an exam room finds no slot until the room is back")
    func roomOutOfService() async throws {
        let fixture = try await ScheduleFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let rooms = try await fixture.app.store.rooms(scope: scope)
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            for room in rooms {
                let answer = try await client.call(
                    "/api/v1/rooms/\(room.id)", .patch, token: admin, json: #"{"active":false}"#
                ) {
                    #expect($0.status == .ok, "\(String(buffer: $0.body))")
                    return Data(buffer: $0.body)
                }
                #expect(try Self.object(answer)["active"] as? Bool == false)
            }
            let from = London.time(daysFromToday: 2, 9)
            let to = London.time(daysFromToday: 2, 12)
            let uri =
                """
                /api/v1/appointments/slots?from=\(Timestamp.string(from))&to=\(Timestamp.string(to))\
                &appointmentTypeId=\(fixture.consultation.id)
                """
            let none = try await client.call(uri, token: admin) { Data(buffer: $0.body) }
            let needsRoom = fixture.consultation.requiredRoomType != nil
            #expect(((try Self.object(none)["items"] as? [Any]) ?? []).isEmpty == needsRoom)
            if let first = rooms.first {
                try await client.call(
                    "/api/v1/rooms/\(first.id)", .patch, token: admin, json: #"{"active":true,"name":"Consult A"}"#
                ) {
                    #expect($0.status == .ok)
                }
                let back = try await client.call(uri, token: admin) { Data(buffer: $0.body) }
                #expect(((try Self.object(back)["items"] as? [Any]) ?? []).isEmpty == false)
            }
            if rooms.count > 1 {
                try await client.call(
                    "/api/v1/rooms/\(rooms[1].id)", .patch, token: admin, json: #"{"name":"Consult A"}"#
                ) {
                    #expect($0.status == .conflict)
                }
            }
        }
    }
}
