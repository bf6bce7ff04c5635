import PostgresNIO
import StoragePorts

/// What an operator may be told of a PostgreSQL failure. The driver's own description is
/// deliberately generic, which leaves an operator with nothing to act on, and its full one
/// holds the statement's bindings and the server's detail (a failing row's values): this gives
/// the SQLSTATE, the server's message and the constraint, never the detail, hint or statement.
extension PSQLError: LogSafeDescription {
    public var logSafeDescription: String {
        guard let server = serverInfo else {
            return "the database could not be reached or answered unexpectedly (\(code))"
        }
        let state = server[.sqlState].map { " [SQLSTATE \($0)]" } ?? ""
        let constraint = server[.constraintName].map { " (constraint \($0))" } ?? ""
        return "the database refused: \(server[.message] ?? "no message")\(state)\(constraint)"
    }
}

/// A cell that could not be read as the type asked for: its column and the types, never its
/// bytes (which the driver's full description prints, and which may be a patient's name).
extension PostgresDecodingError: LogSafeDescription {
    public var logSafeDescription: String {
        "the column \(columnName) (position \(columnIndex)) could not be read as \(targetType): \(code)"
    }
}
