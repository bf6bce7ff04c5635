import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("iCalendar feed")
struct ICalendarFeedTests {
    @Test(
        "text escaping",
        arguments: [
            ("Rex, Labrador; 4y", "Rex\\, Labrador\\; 4y"), ("a\\b", "a\\\\b"), ("one\ntwo", "one\\ntwo"),
            ("one\r\ntwo", "one\\ntwo"),
            ("plain", "plain"),
        ])
    func escaping(text: String, escaped: String) { #expect(ICalendarFeed.escape(text) == escaped) }

    @Test(
        "lines fold at 75 octets with CRLF and a space, never splitting a character",
        arguments: [
            (String(repeating: "a", count: 75), 1), (String(repeating: "a", count: 76), 2),
            (String(repeating: "é", count: 80), 3),
            (String(repeating: "a", count: 75 + 74), 2), (String(repeating: "a", count: 75 + 75), 3),
            ("SUMMARY:" + String(repeating: "🐶", count: 30), 2),
        ])
    func folding(line: String, physicalLines: Int) {
        let folded = ICalendarFeed.fold(line)
        let parts = folded.components(separatedBy: "\r\n")
        #expect(parts.count == physicalLines)
        #expect(parts.allSatisfy { $0.utf8.count <= 75 })
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        // Unfolding (remove CRLF + one space) gives the original line back.
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
    }

    @Test("a feed with a booked and a cancelled appointment")
    func document() throws {
        let booked = BookingFixture.booking(1, "2026-03-29T08:00:00Z", "2026-03-29T08:30:00Z")
        let cancelled = BookingFixture.booking(1, "2026-03-27T09:00:00Z", "2026-03-27T09:20:00Z", status: .cancelled)
        let text = ICalendarFeed.render(
            calendarName: "Dr Hart, Riverside",
            events: [
                ICalendarEvent(
                    appointment: booked,
                    patientName: """
                        Rex
                        """, appointmentTypeName: "Consultation", roomName: "Consult 2"),
                ICalendarEvent(
                    appointment: cancelled, patientName: "Mittens; the cat", appointmentTypeName: "Vaccination"),
            ],
            generatedAt: BookingFixture.at("2026-03-20T12:00:00Z"))
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//VetNet//Scheduling//EN\r\n"))
        #expect(text.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 2)
        #expect(lines.contains("X-WR-CALNAME:Dr Hart\\, Riverside"))
        #expect(lines.contains("UID:\(booked.id.description)@vetnet"))
        #expect(lines.filter { $0 == "DTSTAMP:20260320T120000Z" }.count == 2)
        #expect(lines.contains("DTSTART:20260329T080000Z") && lines.contains("DTEND:20260329T083000Z"))
        #expect(lines.contains("SUMMARY:Mittens\\; the cat – Vaccination"))
        #expect(lines.contains("LOCATION:Consult 2"))
        // Events are listed by start: the cancelled one (27 March) first.
        let statuses = lines.filter { $0.hasPrefix("STATUS:") }
        #expect(statuses == ["STATUS:CANCELLED", "STATUS:CONFIRMED"])
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
    }
}
