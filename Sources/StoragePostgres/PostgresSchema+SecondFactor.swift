extension PostgresSchema {
    /// The migration that keeps second factors and how each session was opened.
    static let secondFactorMigration = "pg-19 second factor"

    /// As the embedded store's migration of the same name. The session function answers the
    /// session's assurance too, so it is replaced (its result type changes).
    static let secondFactorSQL = """
        ALTER TABLE session
            ADD COLUMN second_factor boolean NOT NULL DEFAULT false,
            ADD COLUMN must_enrol boolean NOT NULL DEFAULT false;
        ALTER TABLE staff_user ADD CONSTRAINT staff_user_practice_id_id_key UNIQUE (practice_id, id);
        CREATE TABLE second_factor (
            user_id uuid PRIMARY KEY,
            practice_id uuid NOT NULL REFERENCES practice(id),
            sealed_secret bytea,
            sealed_pending bytea,
            last_step bigint NOT NULL DEFAULT 0,
            enrolled_at_ms bigint,
            FOREIGN KEY (practice_id, user_id) REFERENCES staff_user (practice_id, id)
        );
        CREATE TABLE second_factor_recovery (
            user_id uuid NOT NULL,
            practice_id uuid NOT NULL REFERENCES practice(id),
            code_hash text NOT NULL,
            PRIMARY KEY (user_id, code_hash),
            FOREIGN KEY (practice_id, user_id) REFERENCES staff_user (practice_id, id)
        );
        ALTER TABLE second_factor ENABLE ROW LEVEL SECURITY;
        ALTER TABLE second_factor FORCE ROW LEVEL SECURITY;
        CREATE POLICY second_factor_tenant ON second_factor
            USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());
        ALTER TABLE second_factor_recovery ENABLE ROW LEVEL SECURITY;
        ALTER TABLE second_factor_recovery FORCE ROW LEVEL SECURITY;
        CREATE POLICY second_factor_recovery_tenant ON second_factor_recovery
            USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());
        DROP FUNCTION vetnet_session(text, bigint, bigint);
        \(installationFunction("vetnet_session(p_token_hash text, p_now bigint, p_idle bigint)", returns: """
            TABLE (id uuid, practice_id uuid, email text, display_name text, role text, disabled boolean, \
            created_at timestamptz,
                   version integer, password_hash text, last_seen_at_ms bigint, expires_at_ms bigint,
                   second_factor boolean, must_enrol boolean)
            """, body: """
            RETURN QUERY SELECT u.id, u.practice_id, u.email, u.display_name, u.role, u.disabled, u.created_at, \
            u.version,
                    u.password_hash, s.last_seen_at_ms, s.expires_at_ms, s.second_factor, s.must_enrol
                FROM session s JOIN staff_user u ON u.id = s.user_id
                WHERE s.token_hash = p_token_hash AND s.revoked_at_ms IS NULL AND s.expires_at_ms > p_now
                  AND s.last_seen_at_ms + p_idle > p_now AND NOT u.disabled;
            """))
        """
}
