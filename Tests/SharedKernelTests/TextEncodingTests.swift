import Foundation
import SharedKernel
import Testing

@Suite("Hex digests and UUID text")
struct TextEncodingTests {
    @Test("hex is two lower-case digits per byte, most significant nibble first")
    func hex() {
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff, 0x3c]) == "000fa0ff3c")
        // SHA-256("abc") from FIPS 180-2, as bytes, spelled back.
        let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        var bytes: [UInt8] = []
        var index = digest.startIndex
        while index < digest.endIndex {
            let next = digest.index(index, offsetBy: 2)
            bytes.append(UInt8(digest[index..<next], radix: 16)!)
            index = next
        }
        #expect(Hex.encode(bytes) == digest)
    }

    @Test("UUID text round-trips and matches Foundation's spelling in lower case")
    func roundTrip() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(UUIDText.lowercase(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
        #expect(
            UUIDText.lowercase(UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255)))
                == "00010203-0405-0607-0809-0a0b0c0d0eff")
    }

    @Test(
        "text that is not a canonical UUID is refused, as Foundation refuses it",
        arguments: [
            "", "not-a-uuid", "3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1", "3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1ff",
            "3ae714576b0e4c1e9d6e5c2f0a8b7d1f", "3ae71457_6b0e-4c1e-9d6e-5c2f0a8b7d1f",
            "3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1g",
            "{3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1f}", " 3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1f",
            "3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1é",
        ])
    func refused(_ text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(UUID(uuidString: text) == nil)
        #expect(Array(text.utf8).withUnsafeBytes(UUIDText.parse(utf8:)) == nil)
    }

    @Test("UUIDs read from UTF-8 bytes in place equal those read from text, in either case")
    func bytes() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(Array(uuid.uuidString.utf8).withUnsafeBytes(UUIDText.parse(utf8:)) == uuid)
            #expect(Array(uuid.uuidString.lowercased().utf8).withUnsafeBytes(UUIDText.parse(utf8:)) == uuid)
        }
        // Every byte that is not a hexadecimal digit is refused in every digit position.
        let valid = Array("3ae71457-6b0e-4c1e-9d6e-5c2f0a8b7d1f".utf8)
        for position in valid.indices where valid[position] != UInt8(ascii: "-") {
            for byte in UInt8.min...UInt8.max where !"0123456789abcdefABCDEF".utf8.contains(byte) {
                var text = valid
                text[position] = byte
                #expect(text.withUnsafeBytes(UUIDText.parse(utf8:)) == nil)
            }
        }
    }
}
