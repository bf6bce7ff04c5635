import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

/// A statement put together from parts, each binding its own values as it is added: the
/// parts' parameters are numbered in the order they are bound, so a part written once (an
/// audit link, an event) serves every statement that writes one.
///
/// The text depends only on which parts are added, never on the values, so a statement built
/// the same way at a call site is the same prepared statement every time.
struct PostgresStatement {
    private(set) var binds = PostgresBindings()
    /// The type each bound value declares (`NULL`'s left to the server), for a prepared run.
    private var types: [PostgresDataType] = []

    /// Binds `value` and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        types.append(value.psqlType)
        return "$\(binds.count)"
    }

    /// Binds `value` (`NULL` when absent) and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        types.append(value?.psqlType ?? .null)
        return "$\(binds.count)"
    }

    /// The statement with `sql`, whose placeholders are the ones bound here.
    func query(_ sql: String) -> PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }

    /// The statement with `sql`, to run prepared (``PostgresConnection/prepared(_:logger:)``).
    func prepared(_ sql: String) -> PreparedSQL { PreparedSQL(sql: sql, bindings: binds, types: types) }

    /// The common table expressions `moved` (the chain's head moved onto `entry`, returning
    /// its sequence) and `appended` (the entry's row, written only if the head moved). With
    /// `expecting`, the head moves only if it is still that sequence and hash — a
    /// compare-and-set, so a chain is never forked whatever the caller's locks.
    mutating func auditLink(
        _ entry: AuditEntry, chain: String, signature: String, expecting head: (Int64, String)? = nil
    ) -> String {
        let chain = bind(chain)
        let sequence = bind(entry.sequence)
        let hash = bind(entry.hash)
        let signature = bind(signature)
        let expected = head.map { "AND seq = \(bind($0.0)) AND hash = \(bind($0.1))" } ?? ""
        return """
            moved AS (
                UPDATE audit_head SET seq = \(sequence), hash = \(hash), signature = \(signature)
                WHERE chain = \(chain) \(expected)
                RETURNING seq
            ), appended AS (
                INSERT INTO audit_entry (chain, seq, id, occurred_at, practice_id, actor_id, action,
                                         resource_type, resource_id, outcome, request_id, detail, prev_hash, hash)
                SELECT \(chain), moved.seq, \(bind(entry.id)), \(bind(entry.occurredAt)), \(bind(entry.practiceID)),
                       \(bind(entry.actorID)), \(bind(entry.action)), \(bind(entry.resourceType)),
                       \(bind(entry.resourceID)), \(bind(entry.outcome.rawValue)), \(bind(entry.requestID)),
                       \(bind(entry.detail)), \(bind(entry.previousHash)), \(hash)
                FROM moved
            )
            """
    }

    /// The common table expressions `head` (the practice's next event number, its row locked
    /// until commit) and `logged` (the event's row), and the `FROM` clause to select `head.seq`
    /// from that also notifies every listening instance (delivered at commit, dropped on rollback).
    mutating func event(_ event: DomainEvent, channel: String) -> (tables: String, from: String) {
        let practice = bind(event.practiceID.rawValue)
        let tables = """
            head AS (
                INSERT INTO event_head (practice_id, seq) VALUES (\(practice), 1)
                ON CONFLICT (practice_id) DO UPDATE SET seq = event_head.seq + 1 RETURNING seq
            ), logged AS (
                INSERT INTO event_log (practice_id, seq, kind, occurred_at_ms, resource_type, resource_id, actor_id,
                    payload)
                SELECT \(practice), head.seq, \(bind(event.kind)), \(bind(Timestamp.milliseconds(event.occurredAt))),
                       \(bind(event.resourceType)), \(bind(event.resourceID)), \(bind(event.actorID)),
                       \(bind(PostgresStore.payloadJSON(event.payload)))::jsonb FROM head
            )
            """
        let from = """
            head CROSS JOIN LATERAL (SELECT pg_notify(\(bind(channel)), \(bind(event.practiceID.description)))) \
            AS notified
            """
        return (tables, from)
    }
}

extension PostgresStatement {
    /// Binds `value` and returns its placeholder: an instant as milliseconds, a day cast to
    /// `date`, JSON to `jsonb`.
    mutating func placeholder(for value: StoredValue) -> String {
        switch value {
        case .text(let text): bind(text)
        case .integer(let number): bind(number)
        case .uuid(let id): bind(id)
        case .bytes(let bytes): bind(bytes.map { ByteBuffer(bytes: $0) })
        case .day(let day): bind(day) + "::date"
        case .json(let json): bind(json) + "::jsonb"
        case .flag(let flag): bind(flag)
        case .instant(let instant), .milliseconds(let instant): bind(instant.map(Timestamp.milliseconds))
        case .time(let time): bind(time)
        }
    }

    /// The columns that hold `row`'s values here.
    static func columns(of row: StoredInsert) -> [String] {
        zip(row.columns, row.values).map { column($0, holding: $1) }
    }

    /// The column that holds `value` here: an instant in its `<column>_ms` milliseconds.
    static func column(_ column: String, holding value: StoredValue) -> String {
        if case .instant = value { column + "_ms" } else { column }
    }

    /// The `INSERT` of `rows` in one statement (an upsert, when they have a conflict key), their
    /// values bound here. The rows are one description's (``columns(of:)`` alike): the first
    /// names the table and columns.
    mutating func insert(rows: some Collection<StoredInsert>) -> String {
        guard let row = rows.first else { return "" }
        let columns = Self.columns(of: row)
        let tuples = rows.map { "(" + $0.values.map { placeholder(for: $0) }.joined(separator: ", ") + ")" }
        var sql = """
            INSERT INTO \(row.table) (\(columns.joined(separator: ", "))) \
            VALUES \(tuples.joined(separator: ", "))
            """
        if !row.conflictKey.isEmpty {
            let replaced = row.replacing.compactMap { row.columns.firstIndex(of: $0).map { columns[$0] } }
            sql +=
                " ON CONFLICT (\(row.conflictKey.joined(separator: ", "))) DO UPDATE SET "
                + replaced.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
        return sql
    }

    /// The `UPDATE` of `change`, its values bound here.
    mutating func update(_ change: StoredUpdate) -> String {
        var assignments = zip(change.columns, change.values).map { column, value in
            "\(Self.column(column, holding: value)) = \(placeholder(for: value))"
        }
        if change.bumpsVersion { assignments.append("version = version + 1") }
        let conditions = zip(change.keyColumns, change.keyValues).map { column, value in
            "\(Self.column(column, holding: value)) = \(placeholder(for: value))"
        }
        return """
            UPDATE \(change.table) SET \(assignments.joined(separator: ", ")) \
            WHERE \(conditions.joined(separator: " AND "))
            """
    }
}

extension PostgresConnection {
    /// Inserts `row` in the caller's transaction.
    func insert(_ row: StoredInsert, logger: Logger) async throws { try await insert([row], logger: logger) }

    /// Inserts `rows` in order in the caller's transaction, each run of rows of one description
    /// in as few statements as their parameters allow (a bulk load or a restore writes
    /// thousands; PostgreSQL numbers a statement's parameters with 16 bits).
    func insert(_ rows: [StoredInsert], logger: Logger) async throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            let first = rows[start]
            let columns = PostgresStatement.columns(of: first)
            let perStatement = max(1, Int(UInt16.max) / max(1, columns.count))
            var end = start + 1
            while end < rows.endIndex, end - start < perStatement, rows[end].hasShape(of: first),
                PostgresStatement.columns(of: rows[end]) == columns
            {
                end += 1
            }
            var statement = PostgresStatement()
            let sql = statement.insert(rows: rows[start..<end])
            try await query(statement.query(sql), logger: logger)
            start = end
        }
    }

    /// Applies `change` in the caller's transaction.
    func update(_ change: StoredUpdate, logger: Logger) async throws {
        var statement = PostgresStatement()
        let sql = statement.update(change)
        try await query(statement.query(sql), logger: logger)
    }
}
