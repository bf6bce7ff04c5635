import Testing

@testable import PracticeServices

/// What a stolen password table costs an attacker: bcrypt at cost 12 or more, whatever is asked.
@Suite("Password hashing")
struct PasswordHasherTests {
    @Test(
        "the server's hasher never goes below cost 12; a hash verifies its own password only, whatever hasher checks it"
    )
    func costAndVerification() async throws {
        let asked = PasswordHasher(cost: 4)
        #expect(asked.cost == 12)
        let hash = await PasswordHasher().hash("kestrel-harbour-lantern-81")
        #expect(hash.hasPrefix("$2b$12$"))
        // A test hasher (cost 4) reads the cost from the stored hash, so both kinds verify.
        #expect(await PasswordHasher.fastForTests.verify("kestrel-harbour-lantern-81", against: hash))
        #expect(!(await PasswordHasher().verify("kestrel-harbour-lantern-82", against: hash)))
        // A passphrase longer than bcrypt's 72 bytes counts in full (the SHA-256 pre-hash).
        let long = String(repeating: "a", count: 80)
        let longHash = await PasswordHasher.fastForTests.hash(long)
        #expect(!(await PasswordHasher.fastForTests.verify(String(repeating: "a", count: 79) + "b", against: longHash)))
    }
}
