import PostgresNIO

/// What a person running a command may be told of a PostgreSQL failure. The driver's own
/// description is deliberately generic (its details can hold a row's values), which leaves an
/// operator with nothing to act on; this gives the SQLSTATE and the server's message, never
/// its detail, hint or the statement.
public enum PostgresFailureText {
    /// The text for `error`, or `nil` when it is not a PostgreSQL error.
    public static func describe(_ error: any Error) -> String? {
        guard let error = error as? PSQLError else { return nil }
        guard let server = error.serverInfo else {
            return "the database could not be reached or answered unexpectedly (\(error.code))"
        }
        let state = server[.sqlState].map { " [SQLSTATE \($0)]" } ?? ""
        return "the database refused: \(server[.message] ?? "no message")\(state)"
    }
}
