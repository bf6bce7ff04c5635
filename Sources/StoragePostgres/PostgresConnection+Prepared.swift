import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` as a named prepared statement of this connection: parsed and planned the
    /// first time the connection runs it, then only bound and executed.
    ///
    /// A statement sent the ordinary way is parsed, analysed and planned on every run, which
    /// a profile of booking put at about 45 % of the server's work; the statements a booking
    /// runs under the practice's locks are run this way. Only for statements whose text is
    /// fixed at the call site (values bound, never spliced in): each distinct text stays
    /// prepared on the connection for its life.
    ///
    /// The parameters are declared with the types their values carry, as an ordinary query
    /// declares them, and the statement is named after its text and those types: a `NULL`
    /// (whose type the server infers) and a value make two statements, never one statement
    /// run with a value of another type.
    @discardableResult
    package func prepared(_ query: PreparedSQL, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        var name = StableHash()
        name.add(query.sql)
        for type in query.types { name.add(String(type.rawValue)) }
        return try await PreparedQuery.$current.withValue(
            PreparedQuery.Text(name: "vetnet_\(name.hex)", sql: query.sql, types: query.types)
        ) {
            try await execute(PreparedQuery(bindings: query.bindings), logger: logger)
        }
    }
}

/// The text of a statement run prepared, its bound values and the type each declares
/// (`NULL`'s left to the server), recorded as each value is bound: written at a call site as
/// a string with interpolated values, as a `PostgresQuery` is.
package struct PreparedSQL: Sendable, ExpressibleByStringInterpolation {
    /// The text, with `$1`, `$2`, … where the values go.
    let sql: String
    /// The values, in placeholder order.
    let bindings: PostgresBindings
    /// The type each value declares, in the same order.
    let types: [PostgresDataType]

    init(sql: String, bindings: PostgresBindings, types: [PostgresDataType]) {
        self.sql = sql
        self.bindings = bindings
        self.types = types
    }

    package init(stringLiteral value: String) {
        self.init(sql: value, bindings: PostgresBindings(), types: [])
    }

    package init(stringInterpolation: StringInterpolation) {
        self.init(
            sql: stringInterpolation.sql, bindings: stringInterpolation.bindings, types: stringInterpolation.types)
    }

    /// Builds the text and binds each interpolated value to the next placeholder.
    package struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var bindings = PostgresBindings()
        var types: [PostgresDataType] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) { sql += literal }

        /// Binds `value` with the type it declares.
        package mutating func appendInterpolation<Value: PostgresDynamicTypeEncodable>(_ value: Value) {
            bindings.append(value)
            types.append(value.psqlType)
            sql += "$\(bindings.count)"
        }

        /// Binds `value`, or `NULL` (whose type the server infers) when absent.
        package mutating func appendInterpolation<Value: PostgresDynamicTypeEncodable>(_ value: Value?) {
            bindings.append(value)
            types.append(value?.psqlType ?? .null)
            sql += "$\(bindings.count)"
        }

        /// Splices `text` in as it is: only for text fixed in the code (a column list), never a value.
        package mutating func appendInterpolation(unescaped text: String) { sql += text }
    }
}

/// The statement ``PostgresConnection/prepared(_:logger:)`` runs. PostgresNIO reads a
/// prepared statement's name, text and parameter types from its type; here they are the
/// current call's, read while the call starts the statement.
struct PreparedQuery: PostgresPreparedStatement {
    struct Text: Sendable {
        let name: String
        let sql: String
        let types: [PostgresDataType]
    }

    @TaskLocal static var current = Text(name: "", sql: "", types: [])

    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// FNV-1a, 64 bits: a name that is the same for the same text in every process.
struct StableHash {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        value ^= 0x1f
        value = value &* 0x100_0000_01b3
    }

    var hex: String { String(value, radix: 16) }
}
