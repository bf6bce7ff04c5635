import Foundation

/// How secrets travel as text: base64url without padding (safe in cookies, headers and URLs),
/// and compared in constant time so the timing of a refusal tells nothing of how much matched.
package enum TokenText {
    /// `data` as base64url without padding.
    package static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `given` equals `expected`, in time that depends on their lengths only.
    package static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
