extension PostgresSchema {
    /// The migration that adds owners' email addresses to the patient search.
    static let ownersFoundByEmailMigration = "pg-18 owners found by email"

    /// The words of every owner's and co-owner's email, for each of their patients. Email
    /// addresses are ASCII in practice; `lower` and the split on anything not a letter or digit
    /// then cut and fold them as ``PatientSearchTerms`` does for new writes.
    static let ownersFoundByEmailSQL = """
        INSERT INTO patient_word (practice_id, word, patient_id, name, species, status)
        SELECT DISTINCT p.practice_id, w.word, p.id, p.name, p.species, p.status
        FROM patient p
        JOIN owner o ON o.practice_id = p.practice_id AND o.id IN (p.owner_id, p.co_owner_id)
        CROSS JOIN LATERAL regexp_split_to_table(lower(o.email), '[^a-z0-9]+') AS w(word)
        WHERE o.email IS NOT NULL AND w.word <> ''
        ON CONFLICT DO NOTHING;
        """
}
