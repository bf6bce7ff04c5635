/// An error that can say what went wrong for an operator's log without any value a statement
/// bound or a row held. A database driver's full description (what `String(reflecting:)`
/// gives) can hold both — a client's e-mail address in a unique violation's detail, a session
/// token's hash among a statement's bindings, a patient's name in an unreadable cell — and a
/// log is read by more people, and kept longer, than the records it describes.
public protocol LogSafeDescription: Error {
    /// What went wrong: codes, and the names of constraints, columns and types, never values.
    var logSafeDescription: String { get }
}

/// The text a log gives an error that reached no answer of its own (an opaque 500, a command
/// that failed): an error that knows its log-safe description gives that, any other its full
/// description, which names what an operator needs to act on.
public enum ErrorLogText {
    /// The text for `error`.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? any LogSafeDescription { return error.logSafeDescription }
        return String(reflecting: error)
    }
}
