import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on standard error, drawn only when standard error is a terminal:
/// redirected to a file or a log, carriage returns would only add noise, and the command's
/// summary says what happened.
struct ProgressBar: Sendable {
    /// What is being counted, e.g. "patients".
    let unit: String
    /// Whether to draw at all.
    let isEnabled: Bool

    init(unit: String, isEnabled: Bool = isatty(2) == 1) {
        self.unit = unit
        self.isEnabled = isEnabled
    }

    /// Redraws the bar at `done` of `total`; ends the line when done.
    func update(_ done: Int, _ total: Int) {
        guard isEnabled, total > 0 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = "\r[\(bar)] \(done)/\(total) \(unit) (\(done * 100 / total)%)" + (done >= total ? "\n" : "")
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// The bar as a store progress handler.
    var handler: @Sendable (Int, Int) -> Void { { done, total in self.update(done, total) } }
}
