import Foundation
import SharedKernel

// MARK: - Rendering

extension ClinicalNote {
    /// The note followed by its addenda, oldest addendum first, as plain text for printing,
    /// export and referral letters:
    ///
    /// ```
    /// Clinical note — 2026-03-01T09:30:00.000Z — Dr Ana Vet
    /// S: Eating less for two days.
    /// O: T 39.4 °C, HR 120.
    /// A: Gastritis suspected.
    /// P: Bland diet, recheck in 3 days.
    ///
    /// Addendum 1 — 2026-03-01T14:00:00.000Z — Dr Ana Vet
    /// Temperature was 38.4 °C, not 39.4 °C.
    /// ```
    ///
    /// Addenda that refer to another note are left out, so the caller may pass all addenda of
    /// a patient. Empty sections are shown as "—" so a reader can tell they were left blank.
    public func rendered(with addenda: [Addendum]) -> String {
        var lines = ["Clinical note — \(Timestamp.string(createdAt)) — \(author.displayName)"]
        for (label, text) in [("S", subjective), ("O", objective), ("A", assessment), ("P", plan)] {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            lines.append("\(label): \(trimmed.isEmpty ? "—" : trimmed)")
        }
        for (index, addendum) in orderedAddenda(addenda).enumerated() {
            lines.append("")
            lines.append(
                "Addendum \(index + 1) — \(Timestamp.string(addendum.createdAt)) — \(addendum.author.displayName)")
            lines.append(addendum.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return lines.joined(separator: "\n")
    }

    /// This note's addenda from `addenda`, oldest first.
    public func orderedAddenda(_ addenda: [Addendum]) -> [Addendum] {
        addenda.filter { $0.noteID == id }.sorted(by: Addendum.chronological)
    }
}
