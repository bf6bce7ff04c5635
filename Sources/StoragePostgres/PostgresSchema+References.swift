import Foundation
import StoragePorts

// MARK: - References inside their practice

extension PostgresSchema {
    /// The migration that checks every ``PracticeReference`` with a composite foreign key.
    static let practiceReferencesMigration = "pg-14 references checked inside their practice"

    /// Composite foreign keys on `(practice_id, column)` → `target (practice_id, id)`: a row
    /// naming a record that is missing, or is another practice's, is refused by the database
    /// (`23503`, read back as a 404 naming the resource). `NOT VALID`: rows already stored are
    /// not re-checked (an installation may hold dangling ones written before this check),
    /// every row written from now on is.
    static var practiceReferencesSQL: String {
        // `patient (practice_id, id)` is unique since pg-3 (record entries refer to it so).
        let targets = Set(PracticeReference.all.map(\.target)).subtracting(["patient"]).sorted()
        let keys = targets.map { "ALTER TABLE \($0) ADD CONSTRAINT \($0)_practice_id_id_key UNIQUE (practice_id, id);" }
        let references = PracticeReference.all.map {
            "ALTER TABLE \($0.table) ADD CONSTRAINT \($0.name) FOREIGN KEY (practice_id, \($0.column)) "
                + "REFERENCES \($0.target) (practice_id, id) NOT VALID;"
        }
        return (keys + references).joined(separator: "\n")
    }
}
