import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// The sealed columns read and written as single values, with their ``SealedField``.
    /// Owners' contact details are sealed with their search tokens
    /// (``writeOwner(_:of:practiceID:db:)``).
    static let sealedColumns = SealedField.allCases.compactMap { field in
        field.location(boardTable: "triage_queue_entry").map {
            (table: $0.table, key: $0.key, column: $0.column, field: field)
        }
    }

    /// Seals every value of a sealed column that was written before sealing began, and the
    /// contact details of owners written then (with their search tokens), in one
    /// transaction. Returns how many values and owners it sealed; 0 once done.
    @discardableResult
    public func sealLegacyValues() throws -> Int {
        try writer.write { db in
            var sealed = 0
            for column in Self.sealedColumns {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT practice_id, \(column.key) AS row_key, \(column.column) AS value FROM \(column.table)
                        WHERE \(column.column) IS NOT NULL AND substr(\(column.column), 1,
                            \(FieldSeal.prefix.count)) <> ?
                        """, arguments: [FieldSeal.prefix])
                for row in rows {
                    let key: String = try row.read("row_key")
                    try db.execute(
                        sql:
                            """
                            UPDATE \(column.table) SET \(column.column) = ? WHERE \(column.key) = ? AND practice_id = ?
                            """,
                        arguments: [
                            try fieldSeal(row: row).seal(try row.read("value") as String, column.field, id: key), key,
                            try row.read("practice_id", as: String.self),
                        ])
                    sealed += 1
                }
            }
            let owners = try Row.fetchAll(
                db, sql: "SELECT * FROM owner WHERE substr(phones, 1, \(FieldSeal.prefix.count)) <> ?",
                arguments: [FieldSeal.prefix])
            for row in owners {
                let owner = try owner(from: row).value
                let seal = try fieldSeal(row: row)
                try writeOwner(
                    StoredOwnerColumns.resealing(owner, seal: seal), of: owner, practiceID: seal.practiceID, db: db)
                sealed += 1
            }
            return sealed
        }
    }
}
