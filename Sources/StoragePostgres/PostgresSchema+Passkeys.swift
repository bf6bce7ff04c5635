extension PostgresSchema {
    /// The migration that keeps staff members' passkeys.
    static let passkeysMigration = "pg-21 passkeys"

    /// As the embedded store's migration of the same name, inside its practice.
    static let passkeysSQL = """
        CREATE TABLE passkey (
            id uuid PRIMARY KEY,
            user_id uuid NOT NULL,
            practice_id uuid NOT NULL REFERENCES practice(id),
            credential_id bytea NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1023),
            public_key bytea NOT NULL CHECK (length(public_key) = 65),
            relying_party text NOT NULL,
            origin text NOT NULL,
            name text NOT NULL,
            sign_count bigint NOT NULL CHECK (sign_count >= 0),
            last_challenge text,
            created_at_ms bigint NOT NULL,
            last_used_at_ms bigint,
            FOREIGN KEY (practice_id, user_id) REFERENCES staff_user (practice_id, id)
        );
        CREATE INDEX passkey_user ON passkey (practice_id, user_id, created_at_ms);
        ALTER TABLE passkey ENABLE ROW LEVEL SECURITY;
        ALTER TABLE passkey FORCE ROW LEVEL SECURITY;
        CREATE POLICY passkey_tenant ON passkey
            USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());
        """
}
