extension PostgresSchema {
    /// The migration that keeps corrections of the medical record.
    static let recordCorrectionsMigration = "pg-16 record corrections"

    /// As the embedded store's 2026-11-27 migration of the same name: corrections kept in
    /// order and applied on every read; nothing recorded is deleted or rewritten.
    static let recordCorrectionsSQL = """
        CREATE TABLE record_correction (
            id uuid PRIMARY KEY,
            practice_id uuid NOT NULL REFERENCES practice(id),
            patient_id uuid NOT NULL,
            entry_kind text NOT NULL CHECK (entry_kind IN ('weight', 'problem', 'allergy', 'medication', 'vaccination',
                'note')),
            entry_id uuid NOT NULL,
            change_json text NOT NULL,
            recorded_by text,
            recorded_at_ms bigint NOT NULL,
            -- The order corrections were made in, when two share a millisecond.
            seq bigint GENERATED ALWAYS AS IDENTITY,
            FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
        );
        CREATE INDEX record_correction_patient ON record_correction (practice_id, patient_id, recorded_at_ms);
        CREATE INDEX record_correction_kind ON record_correction (practice_id, entry_kind);
        ALTER TABLE record_correction ENABLE ROW LEVEL SECURITY;
        ALTER TABLE record_correction FORCE ROW LEVEL SECURITY;
        CREATE POLICY record_correction_tenant ON record_correction
            USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());
        """
}
