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
    package func prepared(_ query: PostgresQuery, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        let types = PreparedQuery.parameterTypes(of: query.binds)
        var name = StableHash()
        name.add(query.sql)
        for type in types { name.add(String(type.rawValue)) }
        return try await PreparedQuery.$current.withValue(
            PreparedQuery.Text(name: "vetnet_\(name.hex)", sql: query.sql, types: types)
        ) {
            try await execute(PreparedQuery(bindings: query.binds), logger: logger)
        }
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

    /// The type each bound value declares (`NULL`'s is left to the server), as an ordinary
    /// query sends them. PostgresNIO keeps them to itself, so they are read by reflection; if
    /// its layout changes they come back empty and the server infers every type, which the
    /// statement's name then records.
    static func parameterTypes(of bindings: PostgresBindings) -> [PostgresDataType] {
        guard
            let metadata = Mirror(reflecting: bindings).children.first(where: { $0.label == "metadata" })?.value,
            case let entries = Mirror(reflecting: metadata).children, entries.count == bindings.count
        else { return [] }
        var types: [PostgresDataType] = []
        for entry in entries {
            guard
                let type = Mirror(reflecting: entry.value).children.first(where: { $0.label == "dataType" })?.value
                    as? PostgresDataType
            else { return [] }
            types.append(type)
        }
        return types
    }
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
