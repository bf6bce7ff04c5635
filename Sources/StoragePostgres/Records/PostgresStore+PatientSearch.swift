import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Searches the practice's patients: every word of the text must begin one of the
    /// patient's search words (see ``PatientSearchTerms``) — a range of `patient_word`'s
    /// primary key per word, intersected; filtered by species and status; ordered by name
    /// (code point) then id; the cursor is the last id of the page. Audited as one search,
    /// without the text.
    public func searchPatients(scope: AccessScope, query: PatientQuery, limit: Int, after cursor: String?) async throws
        -> Page<PatientSummary>
    {
        let limit = max(0, limit)
        let fetch = Int64(limit == Int.max ? limit : limit + 1)
        let words = query.text.map(PatientSearchTerms.queryWords) ?? []
        // Text with no letter or digit in it ("🐶", "***") matches no name, number or chip.
        let nothing = words.isEmpty && query.text.map { !$0.allSatisfy(\.isWhitespace) } == true
        return try await transaction(.practice(scope.practiceID)) { connection in
            let cursorID = try await cursor.asyncMap {
                try await self.cursorRow($0, in: "patient", practiceID: scope.practiceID, connection: connection)
            }
            let filters = SearchFilters(
                practiceID: scope.practiceID, query: query, cursorID: cursorID,
                contacts: self.contactIndex(scope.practiceID))
            if nothing {
                try await self.appendAudit(
                    AuditRecord.patientSearch(results: 0),
                    scope: scope, connection: connection)
                return Page(items: [], nextCursor: nil)
            }
            let statement: PostgresQuery
            if words.isEmpty {
                statement = filters.listing(fetch: fetch)
            } else {
                let ids = try await self.matchingPatients(
                    words: words, filters: filters, fetch: fetch, connection: connection)
                statement = filters.patients(ids)
            }
            let items = try await connection.rows(statement, logger: self.logger) { columns in
                PatientSummary(
                    patient: try PatientRows.patient(from: columns),
                    ownerName: "\(try columns[15].decode(String.self)) \(try columns[16].decode(String.self))")
            }
            let page = Page(fetched: items, limit: limit) { $0.patient.value.id.description }
            try await self.appendAudit(
                AuditRecord.patientSearch(results: page.items.count),
                scope: scope, connection: connection)
            return page
        }
    }

    /// The ids of the first `fetch` matching patients, in page order, read from
    /// `patient_word`'s index alone (its entries carry name, species and status): the cost
    /// follows the number of matching words, not the practice's size, whatever the planner
    /// estimates (row-level security hides the real selectivities from it).
    ///
    /// One word: a patient may match it with several words ("ma" in Max, Mark and Mason), so
    /// the first entries in order are read — a top-N sort, much cheaper than sorting every
    /// match to remove duplicates — and deduplicated here. Only when duplicates leave the
    /// window short of a page is the exact grouped query run. Several words: `INTERSECT`
    /// removes duplicates itself.
    func matchingPatients(words: [String], filters: SearchFilters, fetch: Int64, connection: PostgresConnection)
        async throws -> [UUID]
    {
        func run(_ statement: PostgresQuery) async throws -> (ids: [UUID], rows: Int) {
            var ids: [UUID] = []
            var seen = Set<UUID>()
            var rows = 0
            for try await (_, id) in try await connection.query(statement, logger: logger).decode((String, UUID).self) {
                rows += 1
                if seen.insert(id).inserted { ids.append(id) }
            }
            return (ids, rows)
        }
        if words.count == 1 {
            let window = fetch > Int64.max / 4 ? Int64.max : fetch * 4
            let (ids, rows) = try await run(filters.matches(words, limit: window, distinct: false))
            if ids.count >= fetch || rows < window { return Array(ids.prefix(Int(fetch))) }
        }
        return try await run(filters.matches(words, limit: fetch, distinct: true)).ids
    }
}

/// The parts of a patient search's SQL, every value bound.
struct SearchFilters {
    let practiceID: PracticeID
    let query: PatientQuery
    let cursorID: UUID?
    /// The tokens query words are matched against owners' phone numbers and email addresses with.
    let contacts: ContactSearchIndex

    /// Statement text and binds under construction.
    private struct Builder {
        var binds = PostgresBindings()
        mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
    }

    /// Species, status and cursor conditions on the table aliased `alias` (whose id column is `id`).
    private func conditions(_ alias: String, id: String, practice: String, _ builder: inout Builder) -> String {
        var sql = ""
        if let species = query.species { sql += " AND \(alias).species = \(builder.bind(species.rawValue))" }
        if let status = query.status { sql += " AND \(alias).status = \(builder.bind(status.rawValue))" }
        if let cursorID {
            sql +=
                " AND (\(alias).name, \(alias).\(id)) > (SELECT c.name, c.id FROM patient c WHERE c.id = "
                + "\(builder.bind(cursorID))"
                + " AND c.practice_id = \(practice))"
        }
        return sql
    }

    /// The whole list, without text: the name index walked in order.
    func listing(fetch: Int64) -> PostgresQuery {
        var builder = Builder()
        let practice = builder.bind(practiceID.rawValue)
        let sql = """
            SELECT \(PostgresStore.patientColumns), o.first_name,
                o.last_name FROM patient p JOIN owner o ON o.id = p.owner_id
            WHERE p.practice_id = \(practice)\(conditions("p", id: "id", practice: practice, &builder))
            ORDER BY p.name, p.id LIMIT \(builder.bind(fetch))
            """
        return PostgresQuery(unsafeSQL: sql, binds: builder.binds)
    }

    /// `(name, patient_id)` of the matches in page order: per word, one key range (a name,
    /// record number or microchip word it begins) and one key (its contact token), the words'
    /// matches intersected.
    func matches(_ words: [String], limit: Int64, distinct: Bool) -> PostgresQuery {
        var builder = Builder()
        let practice = builder.bind(practiceID.rawValue)
        let grouped = words.count == 1 && distinct ? " GROUP BY 1, 2" : ""
        let perWord = words.enumerated().map { index, word in
            let range =
                "SELECT w.name, w.patient_id FROM patient_word w WHERE w.practice_id = \(practice) AND w.word >= "
                + "\(builder.bind(word))"
                + " AND w.word < \(builder.bind(PatientSearchTerms.upperBound(ofPrefix: word)))"
                + conditions("w", id: "patient_id", practice: practice, &builder)
            let token =
                "SELECT w.name, w.patient_id FROM patient_word w WHERE w.practice_id = \(practice)"
                + " AND w.word = \(builder.bind(PatientSearchTerms.queryToken(word, contacts: contacts)))"
                + conditions("w", id: "patient_id", practice: practice, &builder)
            return "SELECT m\(index).name, m\(index).patient_id FROM (\(range) UNION ALL \(token)) m\(index)\(grouped)"
        }
        let sql = perWord.joined(separator: " INTERSECT ") + " ORDER BY 1, 2 LIMIT \(builder.bind(limit))"
        return PostgresQuery(unsafeSQL: sql, binds: builder.binds)
    }

    /// The patients `ids` with their main owners, in page order.
    func patients(_ ids: [UUID]) -> PostgresQuery {
        var builder = Builder()
        let practice = builder.bind(practiceID.rawValue)
        let sql = """
            SELECT \(PostgresStore.patientColumns), o.first_name,
                o.last_name FROM patient p JOIN owner o ON o.id = p.owner_id
            WHERE p.practice_id = \(practice) AND p.id = ANY(\(builder.bind(ids))::uuid[])
            ORDER BY p.name, p.id
            """
        return PostgresQuery(unsafeSQL: sql, binds: builder.binds)
    }
}
