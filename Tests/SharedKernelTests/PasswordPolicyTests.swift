import Foundation
import SharedKernel
import Testing

@Suite("Password policy")
struct PasswordPolicyTests {
    @Test(
        "refuses short, overlong, common, single-character and email passwords",
        arguments: [
            ("short1!", "at least 8"),
            (String(repeating: "ab", count: 65), "at most 128"),
            ("password123", "commonly used"),
            ("Qwertyuiop", "commonly used"),
            ("zzzzzzzzzz", "single character"),
            ("jane.doe@example.com", "email"),
        ])
    func refused(password: String, reason: String) {
        do {
            try PasswordPolicy.validate(password, email: "jane.doe@example.com")
            Issue.record("accepted \(password)")
        } catch {
            #expect(error.errors.first?.field == "password")
            #expect(error.errors.first?.message.contains(reason) == true)
        }
    }

    @Test("accepts 8 and 128 characters and long passphrases")
    func accepted() throws {
        try PasswordPolicy.validate("k7#mPq2x")
        try PasswordPolicy.validate(String(repeating: "a1", count: 64))
        try PasswordPolicy.validate("correct horse battery staple at the surgery")
    }
}

@Suite("Validation values")
struct ValidationValueTests {
    @Test("a collector reports every field, in order")
    func collectsAll() {
        var errors = FieldErrorCollector()
        errors.add("name", "must not be empty")
        errors.add("email", "must be an email address")
        #expect(
            throws: ValidationError([
                FieldError(field: "name", message: "must not be empty"),
                FieldError(field: "email", message: "must be an email address"),
            ])
        ) {
            try errors.throwIfAny()
        }
    }

    @Test(
        "email plausibility",
        arguments: [("a@b.co", true), ("a@b", false), ("@b.co", false), ("a b@c.co", false), ("a@.co", false)])
    func email(text: String, plausible: Bool) {
        #expect(EmailAddress.isPlausible(text) == plausible)
    }

    @Test("time ranges are half-open: back-to-back ranges do not overlap")
    func halfOpen() throws {
        let nine = Date(timeIntervalSince1970: 9 * 3600)
        let ten = Date(timeIntervalSince1970: 10 * 3600)
        let eleven = Date(timeIntervalSince1970: 11 * 3600)
        let first = try #require(TimeRange(start: nine, end: ten))
        let second = try #require(TimeRange(start: ten, end: eleven))
        #expect(!first.overlaps(second))
        #expect(first.overlaps(try #require(TimeRange(start: nine.addingTimeInterval(1800), end: eleven))))
        #expect(TimeRange(start: ten, end: nine) == nil)
    }

    @Test("practice profile rejects unknown time zones and inverted hours")
    func practiceProfile() {
        let profile = PracticeProfile(
            id: PracticeID(), name: "X", timeZone: "Mars/Olympus",
            openingHours: [OpeningHours(weekday: 8, opensMinute: 600, closesMinute: 500)])
        do {
            try profile.validate()
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.field) == ["timeZone", "openingHours[0].weekday", "openingHours[0]"])
        }
    }
}
