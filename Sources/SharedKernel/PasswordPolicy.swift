/// The rules a staff password must meet before it is hashed.
///
/// Length 8–128 characters (NIST SP 800-63B: long passphrases allowed, no composition rules)
/// and not one of the most commonly used passwords, compared case-insensitively, nor the
/// account's own email address.
public enum PasswordPolicy {
    /// Shortest accepted password, in characters.
    public static let minimumLength = 8
    /// Longest accepted password, in characters; the hash pre-step makes any length safe for bcrypt.
    public static let maximumLength = 128

    /// Checks `password` for the account `email`; throws a ``ValidationError`` on the `password` field.
    public static func validate(_ password: String, email: String? = nil, field: String = "password")
        throws(ValidationError)
    {
        let count = password.count
        if count < minimumLength {
            throw ValidationError(field: field, message: "must be at least \(minimumLength) characters")
        }
        if count > maximumLength {
            throw ValidationError(field: field, message: "must be at most \(maximumLength) characters")
        }
        let lowered = password.lowercased()
        if commonPasswords.contains(lowered) {
            throw ValidationError(field: field, message: "is one of the most commonly used passwords; choose another")
        }
        if let email,
            lowered == email.lowercased() || lowered == email.lowercased().split(separator: "@").first.map(String.init)
        {
            throw ValidationError(field: field, message: "must not be the account's email address")
        }
        if Set(password).count == 1 {
            throw ValidationError(field: field, message: "must not repeat a single character")
        }
    }

    /// Frequently breached passwords of at least eight characters (shorter ones fail the length
    /// rule anyway), drawn from published breach-frequency lists.
    static let commonPasswords: Set<String> = [
        "password", "password1", "password12", "password123", "password1234", "passw0rd", "p@ssw0rd", "p@ssword",
        "12345678", "123456789", "1234567890", "0123456789", "87654321", "11111111", "00000000", "12341234",
        "11223344", "12121212", "123123123", "1q2w3e4r", "1q2w3e4r5t", "1qaz2wsx", "qwertyui", "qwertyuiop",
        "qwerty123", "qwerty12", "qwerty1234", "asdfghjk", "asdfghjkl", "zxcvbnm1", "zaq12wsx", "iloveyou",
        "iloveyou1", "sunshine", "princess", "football", "baseball", "welcome1", "welcome123", "superman",
        "trustno1", "whatever", "starwars", "computer", "michelle", "jennifer", "corvette", "mercedes",
        "maverick", "danielle", "internet", "samantha", "liverpool", "chelsea1", "arsenal1", "letmein1",
        "letmein123", "changeme", "changeme1", "administrator", "admin123", "admin1234", "adminadmin", "passpass",
        "abcd1234", "abc12345", "abcdefgh", "aaaaaaaa", "football1", "baseball1", "monkey123", "dragon123",
        "master123", "shadow123", "sunshine1", "princess1", "charlie1", "michael1", "jordan23", "freedom1",
        "qazwsxedc", "q1w2e3r4", "q1w2e3r4t5", "1234qwer", "qwer1234", "asdf1234", "zxcvbnm123", "killer123",
        "hello123", "hellohello", "loveyou1", "lovelove", "secret123", "spiderman", "batman123", "pokemon1",
        "veterinary", "veterinarian", "vetclinic", "doggy123", "puppy123", "kitty123", "catsanddogs", "animal123",
    ]
}
