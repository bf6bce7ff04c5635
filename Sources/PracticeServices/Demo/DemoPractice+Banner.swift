import Foundation
import SharedKernel

extension DemoPractice.Summary {
    /// What to sign in with, printed after seeding: the practice, each role's first account,
    /// the password and a `curl` sign-in against the server at `host`:`port`.
    public func banner(host: String, port: Int) -> String {
        var lines = [
            "", "Seeded the demo practice \"\(practice.name)\" (\(practice.timeZone)):",
            "  \(clinicians) clinicians, \(accounts.count) staff accounts, \(owners) owners, \(patients) patients.",
            "Sign in with any of these accounts and the password  \(password)",
        ]
        for role in Role.allCases {
            let emails = accounts.filter { $0.role == role }.map(\.email)
            guard let first = emails.first else { continue }
            let more = emails.count > 1 ? "  (+\(emails.count - 1) more)" : ""
            lines.append("  \(role.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) \(first)\(more)")
        }
        if let admin = accounts.first(where: { $0.role == .administrator }) {
            lines.append("For example:")
            lines.append("  curl -s http://\(host):\(port)/api/v1/auth/login -H 'content-type: application/json' \\")
            lines.append("       -d '{\"email\":\"\(admin.email)\",\"password\":\"\(password)\"}'")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
