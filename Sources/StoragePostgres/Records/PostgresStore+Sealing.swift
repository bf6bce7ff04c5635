import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// The sealed columns read and written as single values, with their ``SealedField``.
    /// Owners' contact details are sealed with their search words.
    static let sealedColumns = SealedField.allCases.compactMap { field in
        field.location(boardTable: "triage_queue").map {
            (table: $0.table, key: $0.key, column: $0.column, field: field)
        }
    }

    /// Seals every value of a sealed column written before sealing began, and the contact
    /// details of owners written then (rebuilding their patients' search words), one
    /// practice per transaction. Returns how many values and owners it sealed; 0 once done,
    /// so every instance may run it at start. Only the schema's owner sees every practice
    /// (`vetnet migrate` runs it); for a runtime role it finds nothing to do.
    @discardableResult
    public func sealLegacyValues() async throws -> Int {
        let practices = try await transaction(.installation) { connection in
            var ids: [UUID] = []
            for try await id in try await connection.query("SELECT id FROM practice", logger: self.logger)
                .decode(UUID.self)
            { ids.append(id) }
            return ids
        }
        var sealed = 0
        for id in practices {
            let practiceID = PracticeID(id)
            sealed += try await transaction(.practice(practiceID)) { connection in
                try await self.sealLegacyValues(of: practiceID, connection: connection)
            }
        }
        return sealed
    }

    private func sealLegacyValues(of practiceID: PracticeID, connection: PostgresConnection) async throws -> Int {
        let seal = fieldSeal(practiceID)
        var sealed = 0
        for column in Self.sealedColumns {
            var select = PostgresQuery(
                unsafeSQL: """
                    SELECT \(column.key), \(column.column)::text FROM \(column.table)
                    WHERE practice_id = $1 AND \(column.column) IS NOT NULL AND left(\(column.column)::text,
                        $2::integer) <> $3
                    FOR UPDATE
                    """)
            select.binds.append(practiceID.rawValue)
            select.binds.append(FieldSeal.prefix.count)
            select.binds.append(FieldSeal.prefix)
            var rows: [(UUID, String)] = []
            for try await row in try await connection.query(select, logger: logger).decode((UUID, String).self) {
                rows.append(row)
            }
            for (key, value) in rows {
                var update = PostgresQuery(
                    unsafeSQL:
                        "UPDATE \(column.table) SET \(column.column) = $1 WHERE practice_id = $2 AND \(column.key) = $3"
                )
                try update.binds.append(seal.seal(value, column.field, id: key.uuidString))
                update.binds.append(practiceID.rawValue)
                update.binds.append(key)
                try await connection.query(update, logger: logger)
                sealed += 1
            }
        }
        let owners: [Owner] = try await connection.rows(
            """
            SELECT id, first_name, last_name, email, phones::text, address::text, communication::text, notes, version
            FROM owner WHERE practice_id = \(practiceID.rawValue) AND left(phones::text,
                \(FieldSeal.prefix.count)::integer) <> \(FieldSeal.prefix)
            FOR UPDATE
            """, logger: logger
        ) { try owner(from: $0, practiceID: practiceID).value }
        for owner in owners {
            try await connection.update(
                StoredOwnerColumns.resealing(owner, seal: fieldSeal(practiceID)), logger: logger)
            try await reindexPatients(ofOwner: owner.id.rawValue, practiceID: practiceID, connection: connection)
            sealed += 1
        }
        return sealed
    }
}
