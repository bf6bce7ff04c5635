extension PostgresSchema {
    /// The migration that keeps appointment notes.
    static let appointmentNotesMigration = "pg-17 appointment notes"

    /// As the embedded store's 2026-11-27 migration of the same name: notes added, never edited,
    /// sealed under the record key; the appointment and patient are checked inside the practice.
    static let appointmentNotesSQL = """
        CREATE TABLE appointment_note (
            id uuid PRIMARY KEY,
            practice_id uuid NOT NULL REFERENCES practice(id),
            appointment_id uuid NOT NULL,
            patient_id uuid NOT NULL,
            author_id text,
            author_name text NOT NULL,
            created_at_ms bigint NOT NULL,
            sealed_text bytea NOT NULL,
            FOREIGN KEY (practice_id, appointment_id) REFERENCES appointment (practice_id, id),
            FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
        );
        CREATE INDEX appointment_note_appointment ON appointment_note (practice_id, appointment_id, created_at_ms);
        ALTER TABLE appointment_note ENABLE ROW LEVEL SECURITY;
        ALTER TABLE appointment_note FORCE ROW LEVEL SECURITY;
        CREATE POLICY appointment_note_tenant ON appointment_note
            USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());
        """
}
