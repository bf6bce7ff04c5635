extension PostgresSchema {
    /// The migration that keeps shared devices, staff PINs and full sign-ins on devices.
    static let sharedDevicesMigration = "pg-20 shared devices"

    /// As the embedded store's migration of the same name, each table inside its practice.
    static let sharedDevicesSQL = """
        CREATE TABLE shared_device (
            id uuid PRIMARY KEY,
            practice_id uuid NOT NULL REFERENCES practice(id),
            name text NOT NULL,
            idle_lock_seconds integer NOT NULL CHECK (idle_lock_seconds BETWEEN 10 AND 3600),
            token_hash text NOT NULL UNIQUE,
            registered_by uuid,
            registered_at_ms bigint NOT NULL,
            revoked_at_ms bigint,
            UNIQUE (practice_id, id)
        );
        CREATE INDEX shared_device_practice ON shared_device (practice_id, registered_at_ms);
        CREATE TABLE staff_pin (
            user_id uuid PRIMARY KEY,
            practice_id uuid NOT NULL REFERENCES practice(id),
            pin_hash text NOT NULL,
            set_at_ms bigint NOT NULL,
            FOREIGN KEY (practice_id, user_id) REFERENCES staff_user (practice_id, id)
        );
        CREATE TABLE shared_device_sign_in (
            device_id uuid NOT NULL,
            user_id uuid NOT NULL,
            practice_id uuid NOT NULL REFERENCES practice(id),
            signed_in_at_ms bigint NOT NULL,
            second_factor boolean NOT NULL,
            PRIMARY KEY (device_id, user_id),
            FOREIGN KEY (practice_id, device_id) REFERENCES shared_device (practice_id, id),
            FOREIGN KEY (practice_id, user_id) REFERENCES staff_user (practice_id, id)
        );
        \(["shared_device", "staff_pin", "shared_device_sign_in"].map { table in """
            ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY;
            ALTER TABLE \(table) FORCE ROW LEVEL SECURITY;
            CREATE POLICY \(table)_tenant ON \(table)
                USING (current_setting('vetnet.practice_id', true) = practice_id::text OR vetnet_installation());
            """ }.joined(separator: "\n"))
        """
}
