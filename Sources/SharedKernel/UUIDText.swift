import Foundation

/// The canonical text of UUIDs (`8-4-4-4-12` hexadecimal digits), read and written without
/// going through the C library's formatted I/O: every row the store decodes carries several
/// UUIDs, and parsing them was a measurable share of a booking.
public enum UUIDText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Parses the canonical form, upper- or lower-case; `nil` for anything else (the same
    /// texts `UUID(uuidString:)` accepts).
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16)
            var index = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard utf8[index] == UInt8(ascii: "-") else { return nil }
                    index += 1
                    continue
                }
                guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
                bytes.append(high << 4 | low)
                index += 2
            }
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
    }

    /// Parses the canonical form from its UTF-8 bytes (a database column read in place);
    /// `nil` for anything else. Accepts exactly what ``parse(_:)`` accepts. A table lookup per
    /// digit and no intermediate array: a year of appointments is half a million of these.
    public static func parse(utf8 bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 36, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let dash = UInt8(ascii: "-")
        guard base[8] == dash, base[13] == dash, base[18] == dash, base[23] == dash else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var invalid: UInt8 = 0
        withUnsafeMutableBytes(of: &uuid) { out in
            for (byte, offset) in digitOffsets.enumerated() {
                let high = nibbles[Int(base[offset])]
                let low = nibbles[Int(base[offset + 1])]
                invalid |= (high | low) & 0xF0
                out[byte] = high << 4 | low
            }
        }
        return invalid == 0 ? UUID(uuid: uuid) : nil
    }

    /// Where each byte's two digits start in the canonical form.
    private static let digitOffsets = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

    /// Value of each ASCII hexadecimal digit; 0xFF for every other byte.
    private static let nibbles: [UInt8] = (0..<256).map { character in
        switch UInt8(character) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(character) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(character) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(character) - UInt8(ascii: "A") + 10
        default: return 0xFF
        }
    }

    /// The lower-case canonical form (the form used on the wire and in the store).
    public static func lowercase(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { raw -> String in
            var text: [UInt8] = []
            text.reserveCapacity(36)
            for (offset, byte) in raw.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
