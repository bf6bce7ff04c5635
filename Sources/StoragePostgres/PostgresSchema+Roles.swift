import Foundation
import Logging
import PostgresNIO

// MARK: - Owner and runtime roles

/// Two roles on one database: the **owner** creates and migrates the schema (`vetnet migrate`),
/// the **runtime** role serves (`vetnet serve`). The runtime role owns nothing, so it cannot
/// alter a table, a trigger or a policy; it may read and append the audit trail but never
/// update, delete or truncate it; and acting for the installation — every practice's rows —
/// is the owner's alone. What a server needs before it knows the practice (sign-in, a session
/// token, a calendar feed) or across practices (housekeeping, the event heads, the audit walk)
/// it asks through the narrow functions below, which run as the owner and answer only that.
extension PostgresSchema {
    /// The migration that confines `installation` to the owner and adds the functions.
    static let runtimeRoleMigration = "pg-13 owner and runtime roles"

    /// Tables under the `<table>_tenant` policy on `practice_id`.
    static let tenantTables = [
        "staff_user", "session", "event_head", "event_log", "appointment", "practice_counter", "owner", "patient",
        "idempotency_key",
        "clinician", "clinician_availability", "room", "appointment_type", "weight", "problem", "allergy", "medication",
        "vaccination",
        "clinical_note", "note_addendum", "visit", "document", "document_chunk", "triage_assessment", "triage_queue",
        "triage_arrival",
        "intake_ranking", "calendar_feed", "analytics_change",
    ]

    /// A function that runs as the owner, acting for the installation for its own statements
    /// only (the caller's practice setting is restored before it returns).
    static func installationFunction(_ signature: String, returns: String, body: String) -> String {
        """
        CREATE FUNCTION \(signature) RETURNS \(returns) LANGUAGE plpgsql SECURITY DEFINER SET search_path = \
        pg_catalog, public AS $$
        DECLARE previous text := current_setting('vetnet.practice_id', true);
        BEGIN
            PERFORM set_config('vetnet.practice_id', 'installation', true);
            \(body)
            PERFORM set_config('vetnet.practice_id', COALESCE(previous, ''), true);
        END $$;
        REVOKE ALL
            ON FUNCTION
            \(signature.replacingOccurrences(
                of: #"\b[a-z_]+ (?=(text|bigint|integer)\b)"#, with: "", options: .regularExpression)) FROM PUBLIC;
        """
    }

    /// The functions a runtime role may execute, by their argument types (for the grants).
    static let installationFunctions = [
        "vetnet_credentials(text, bigint)", "vetnet_session(text, bigint, bigint)",
        "vetnet_prune_sessions(bigint, bigint)",
        "vetnet_calendar_feed(text)", "vetnet_practice_profiles()", "vetnet_prune_idempotency_keys(bigint)",
        "vetnet_event_heads()",
        "vetnet_prune_events(bigint)", "vetnet_audit_chain(text, bigint, bigint)",
        "vetnet_audit_headless()",
    ]

    static let runtimeRoleSQL: String = """
        -- Acting for the installation is the owner's: its own sessions (`vetnet migrate`, the
        -- operator's commands) and the functions below, which run as it. Any other role that
        -- sets `vetnet.practice_id` to `installation` sees no practice's rows.
        CREATE FUNCTION vetnet_installation() RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT current_setting('vetnet.practice_id', true) = 'installation'
               AND (SELECT relowner FROM pg_catalog.pg_class WHERE oid = 'public.vetnet_migration'::regclass)
                   = (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = current_user)
        $$;
        \(tenantTables.map { table in """
            DROP POLICY \(table)_tenant ON \(table);
            CREATE POLICY \(table)_tenant ON \(table) USING (current_setting('vetnet.practice_id', true) = \
            practice_id::text OR vetnet_installation());
            """ }.joined(separator: "\n"))
        DROP POLICY practice_tenant ON practice;
        CREATE POLICY practice_tenant ON practice USING (current_setting('vetnet.practice_id',
            true) = id::text OR vetnet_installation());
        DROP POLICY audit_entry_read ON audit_entry;
        CREATE POLICY audit_entry_read ON audit_entry FOR SELECT
            USING (current_setting('vetnet.practice_id', true) = practice_id OR vetnet_installation());
        -- The roles a `vetnet migrate --runtime-role` named: every later migration grants them
        -- what it adds.
        CREATE TABLE vetnet_runtime_role (name text PRIMARY KEY);

        -- Sign-in: the accounts of one email address, before any practice is known.
        \(installationFunction("vetnet_credentials(p_email text, p_limit bigint)",
            returns: "SETOF staff_user", body: """
            RETURN QUERY SELECT * FROM staff_user WHERE email = p_email ORDER BY created_at, id LIMIT p_limit;
            """))
        -- A live session by the hash of its token, with its account.
        \(installationFunction("vetnet_session(p_token_hash text, p_now bigint, p_idle bigint)", returns: """
            TABLE (id uuid, practice_id uuid, email text, display_name text, role text, disabled boolean, \
            created_at timestamptz,
                   version integer, password_hash text, last_seen_at_ms bigint, expires_at_ms bigint)
            """, body: """
            RETURN QUERY SELECT u.id, u.practice_id, u.email, u.display_name, u.role, u.disabled, u.created_at, \
            u.version,
                    u.password_hash, s.last_seen_at_ms, s.expires_at_ms
                FROM session s JOIN staff_user u ON u.id = s.user_id
                WHERE s.token_hash = p_token_hash AND s.revoked_at_ms IS NULL AND s.expires_at_ms > p_now
                  AND s.last_seen_at_ms + p_idle > p_now AND NOT u.disabled;
            """))
        -- Housekeeping: sessions revoked, expired or idle past the limit.
        \(installationFunction("vetnet_prune_sessions(p_now bigint, p_idle bigint)", returns: "bigint", body: """
            DECLARE gone bigint;
            BEGIN
                DELETE FROM session WHERE revoked_at_ms IS NOT NULL OR expires_at_ms <= p_now OR \
                last_seen_at_ms + p_idle <= p_now;
                GET DIAGNOSTICS gone = ROW_COUNT;
                PERFORM set_config('vetnet.practice_id', COALESCE(previous, ''), true);
                RETURN gone;
            END;
            """))
        -- A calendar client sends only its feed's token.
        \(installationFunction("vetnet_calendar_feed(p_token_hash text)",
            returns: "TABLE (practice_id uuid, clinician_id uuid)", body: """
            RETURN QUERY SELECT f.practice_id, f.clinician_id FROM calendar_feed f WHERE f.token_hash = \
            p_token_hash AND f.revoked_at IS NULL;
            """))
        -- Every practice's profile, by name (housekeeping, the operator's list).
        \(installationFunction("vetnet_practice_profiles()", returns: "SETOF text", body: """
            RETURN QUERY SELECT profile::text FROM practice ORDER BY name COLLATE "C", id;
            """))
        \(installationFunction("vetnet_prune_idempotency_keys(p_cutoff bigint)", returns: "bigint", body: """
            DECLARE gone bigint;
            BEGIN
                DELETE FROM idempotency_key WHERE created_at_ms < p_cutoff;
                GET DIAGNOSTICS gone = ROW_COUNT;
                PERFORM set_config('vetnet.practice_id', COALESCE(previous, ''), true);
                RETURN gone;
            END;
            """))
        -- Where each practice's event numbers stand (the live hub's start).
        \(installationFunction("vetnet_event_heads()", returns: "TABLE (practice_id uuid, seq bigint)", body: """
            RETURN QUERY SELECT h.practice_id, h.seq FROM event_head h;
            """))
        -- By sequence, not by time: a clock step backwards must not leave a hole below the mark.
        \(installationFunction("vetnet_prune_events(p_cutoff bigint)", returns: "bigint", body: """
            DECLARE gone bigint;
            BEGIN
                UPDATE event_head h SET pruned_through = GREATEST(h.pruned_through, old.last)
                    FROM (SELECT e.practice_id, MAX(e.seq) AS last FROM event_log e WHERE e.occurred_at_ms < \
                    p_cutoff GROUP BY e.practice_id) old
                    WHERE old.practice_id = h.practice_id;
                DELETE FROM event_log e USING event_head h WHERE h.practice_id = e.practice_id AND e.seq <= \
                h.pruned_through;
                GET DIAGNOSTICS gone = ROW_COUNT;
                PERFORM set_config('vetnet.practice_id', COALESCE(previous, ''), true);
                RETURN gone;
            END;
            """))
        -- The audit chain's entries `p_from…p_upto`, in order (verification walks all of them).
        \(installationFunction("vetnet_audit_chain(p_from bigint, p_upto bigint)",
            returns: "SETOF audit_entry", body: """
            RETURN QUERY SELECT * FROM audit_entry WHERE seq BETWEEN p_from AND p_upto ORDER BY seq;
            """))
        """

    /// Whether the connected role owns the schema (the owner of `vetnet_migration`; `NULL`
    /// before there is one): the one test of ownership for migrating and for serving.
    static let connectedRoleOwnsSchemaSQL = """
        (SELECT c.relowner = r.oid FROM pg_catalog.pg_class c, pg_catalog.pg_roles r
         WHERE c.oid = to_regclass('public.vetnet_migration') AND r.rolname = current_user)
        """

    /// A role name a grant may name: a plain lower-case identifier.
    static func isPlainRoleName(_ name: String) -> Bool {
        name.range(of: #"^[a-z_][a-z0-9_]{0,62}$"#, options: .regularExpression) != nil
    }

    /// Grants `role` what serving needs and nothing more: reading and writing practice data,
    /// appending to the audit trail (never updating, deleting or truncating it), reading the
    /// installation's key fingerprints and the migrations applied, and the functions above.
    static func grantRuntime(_ role: String, connection: PostgresConnection, logger: Logger) async throws {
        let tables = "ALL TABLES IN SCHEMA public"
        let frozen = "audit_entry, vetnet_migration, installation_key, vetnet_runtime_role"
        var statements = [
            "GRANT USAGE ON SCHEMA public TO \(role)",
            "REVOKE ALL ON \(tables) FROM \(role)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON \(tables) TO \(role)",
            "REVOKE INSERT, UPDATE, DELETE ON \(frozen) FROM \(role)",
            "GRANT INSERT ON audit_entry TO \(role)",
            "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role)",
        ]
        statements += installationFunctions.map { "GRANT EXECUTE ON FUNCTION \($0) TO \(role)" }
        for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
    }
}

/// `vetnet migrate --runtime-role` named something a grant cannot take, or the owner itself.
public struct RuntimeRoleRefused: Error, CustomStringConvertible {
    /// The role as given.
    public let role: String
    /// Why.
    public let reason: String
    public var description: String { "--runtime-role '\(role)': \(reason)" }
}

/// Serving needs migrations that only the schema's owner may apply.
public struct MigrationNeedsOwner: Error, CustomStringConvertible {
    /// The migrations not yet applied.
    public let pending: [String]
    public var description: String {
        "the database needs migrations (\(pending.joined(separator: ", "))) that only the schema's owner may apply: "
            + "run `vetnet migrate` with the owner's URL, then start the server again"
    }
}
