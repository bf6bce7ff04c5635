extension PostgresSchema {
    /// The migration that keeps clinical judgement, departures and board announcements.
    static let triageJudgementMigration = "pg-15 triage judgement, departures and board announcements"

    /// As the embedded store's 2026-11-27 migration of the same name: every override kept
    /// beside the computed level; the board entry's copy of the latest and which deadlines it
    /// has announced; when a patient who left unseen left.
    static let triageJudgementSQL = """
        CREATE TABLE triage_override (
            id uuid PRIMARY KEY,
            practice_id uuid NOT NULL REFERENCES practice(id),
            patient_id uuid NOT NULL,
            assessment_id uuid NOT NULL REFERENCES triage_assessment(id),
            computed_level integer NOT NULL CHECK (computed_level BETWEEN 1 AND 5),
            previous_level integer NOT NULL CHECK (previous_level BETWEEN 1 AND 5),
            level integer NOT NULL CHECK (level BETWEEN 1 AND 5),
            reason text NOT NULL,
            overridden_by text NOT NULL,
            overridden_at_ms bigint NOT NULL,
            lowers_red_finding boolean NOT NULL,
            FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
        );
        CREATE INDEX triage_override_assessment ON triage_override (assessment_id, overridden_at_ms);
        CREATE INDEX triage_override_time ON triage_override (practice_id, overridden_at_ms);
        ALTER TABLE triage_override ENABLE ROW LEVEL SECURITY;
        ALTER TABLE triage_override FORCE ROW LEVEL SECURITY;
        CREATE POLICY triage_override_tenant ON triage_override
            USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());

        ALTER TABLE triage_queue ADD COLUMN override_json text;
        ALTER TABLE triage_queue ADD COLUMN overdue_announced boolean NOT NULL DEFAULT false;
        ALTER TABLE triage_queue ADD COLUMN reassessment_announced boolean NOT NULL DEFAULT false;

        ALTER TABLE triage_arrival ADD COLUMN left_at_ms bigint;
        -- The backfill reads every practice's rows: the owner acts for the installation.
        SELECT set_config('vetnet.practice_id', 'installation', true);
        UPDATE triage_arrival a SET left_at_ms = GREATEST(q.status_changed_at_ms, q.arrival_at_ms)
            FROM triage_queue q
            WHERE q.practice_id = a.practice_id AND q.patient_id = a.patient_id AND q.arrival_at_ms = a.arrival_at_ms
              AND q.status = 'leftWithoutBeingSeen' AND a.first_seen_at_ms IS NULL;
        """
}
