extension PostgresSchema {
    /// The migration after which medical-record fields and owners' contact details are kept
    /// sealed (see `FieldSeal`).
    static let sealedFieldsMigration = "pg-22 sealed record fields"

    /// A sealed value is text, so the JSON columns that held a visit's record and an owner's
    /// phones and address become text (their JSON checks go with them; the JSON is checked
    /// when the value is opened). Values already there stay readable as they are until the
    /// store's sealing pass seals them; the search words of owners' phone numbers and email
    /// addresses are replaced by tokens in the same pass.
    static let sealedFieldsSQL = """
        ALTER TABLE visit DROP CONSTRAINT IF EXISTS visit_record_check;
        ALTER TABLE visit ALTER COLUMN record TYPE text USING record::text;
        ALTER TABLE owner DROP CONSTRAINT IF EXISTS owner_phones_check;
        ALTER TABLE owner ALTER COLUMN phones TYPE text USING phones::text,
            ALTER COLUMN address TYPE text USING address::text;
        """
}
