import Foundation
import SharedKernel

/// Renders a clinician's appointments as an RFC 5545 iCalendar document (`text/calendar`).
///
/// Pure: the caller supplies the events and the generation time (DTSTAMP). Times are written
/// in UTC (`20260329T080000Z`) so no VTIMEZONE is needed; lines end in CRLF and are folded at
/// 75 octets without splitting a UTF-8 character; text values are escaped (`\\`, `\;`, `\,`, `\n`).
public enum ICalendarFeed {
    /// The whole document.
    public static func render(
        calendarName: String, events: [ICalendarEvent], generatedAt: Date,
        productID: String = "-//VetNet//Scheduling//EN"
    ) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:\(escape(calendarName))",
        ]
        let stamp = utc(generatedAt)
        // Stable order, so an unchanged schedule renders to identical bytes (cheap ETags).
        for event in events.sorted(by: { $0.start != $1.start ? $0.start < $1.start : $0.uid < $1.uid }) {
            lines += [
                "BEGIN:VEVENT", "UID:\(escape(event.uid))", "DTSTAMP:\(stamp)", "DTSTART:\(utc(event.start))",
                "DTEND:\(utc(event.end))", "SUMMARY:\(escape(event.summary))",
            ]
            if let location = event.location { lines.append("LOCATION:\(escape(location))") }
            lines += ["STATUS:\(event.status.rawValue)", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    // MARK: - Content lines

    /// Escapes a TEXT value (RFC 5545 §3.3.11).
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousWasCR { result += "\\n" }
            default: result.unicodeScalars.append(scalar)
            }
            previousWasCR = scalar == "\r"
        }
        return result
    }

    /// Folds a content line so no physical line exceeds 75 octets (RFC 5545 §3.1): a CRLF and
    /// one space are inserted, never inside a UTF-8 sequence.
    public static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var parts: [String] = []
        var current = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            // Continuation lines start with a space, which counts towards their 75 octets.
            let limit = parts.isEmpty ? 75 : 74
            if octets + size > limit {
                parts.append(current)
                current = ""
                octets = 0
            }
            current.unicodeScalars.append(scalar)
            octets += size
        }
        parts.append(current)
        return parts.joined(separator: "\r\n ")
    }

    /// `yyyyMMdd'T'HHmmss'Z'`.
    static func utc(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let v = value ?? 0
            return v < 10 ? "0\(v)" : String(v)
        }
        return
            """
            \(parts.year ?? 0)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\
            \(two(parts.second))Z
            """
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
