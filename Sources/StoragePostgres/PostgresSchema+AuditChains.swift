extension PostgresSchema {
    /// The migration after which each practice appends to an audit chain of its own.
    public static let auditChainPerPracticeMigration = "pg-23 an audit chain per practice"

    /// Whether applying `applied` left heads to sign with the audit key, which only a process
    /// holding the key can do (``PostgresStore/signAuditHeadsAfterUpgrade()``): the existing
    /// head when heads were first signed, and every practice's first head when practices got
    /// chains of their own.
    public static func leavesHeadsToSign(_ applied: [String]) -> Bool {
        applied.contains(headSignatureMigration) || applied.contains(auditChainPerPracticeMigration)
    }

    /// One chain per practice, each with its own signed head, so that practices append to
    /// the trail without waiting on one another; entries made for no practice form the
    /// installation's chain (`''`), which goes on from the one chain kept until now.
    ///
    /// A practice reads its trail in `ordinal` order: entries written before keep their place
    /// (their old sequence number), new ones are numbered after them from one sequence that
    /// nobody waits on. The `UPDATE` that gives the old entries their ordinal is the owner's,
    /// with the append-only trigger lifted for this transaction only; no hashed field changes.
    static let auditChainPerPracticeSQL = """
        SELECT set_config('vetnet.practice_id', 'installation', true);
        ALTER TABLE audit_entry ADD COLUMN chain text NOT NULL DEFAULT '';
        ALTER TABLE audit_entry ALTER COLUMN chain DROP DEFAULT;
        ALTER TABLE audit_entry DROP CONSTRAINT audit_entry_pkey;
        ALTER TABLE audit_entry ADD PRIMARY KEY (chain, seq);
        CREATE SEQUENCE audit_entry_ordinal;
        ALTER TABLE audit_entry ADD COLUMN ordinal bigint;
        ALTER TABLE audit_entry NO FORCE ROW LEVEL SECURITY;
        ALTER TABLE audit_entry DISABLE TRIGGER audit_entry_no_change;
        UPDATE audit_entry SET ordinal = seq;
        ALTER TABLE audit_entry ENABLE TRIGGER audit_entry_no_change;
        ALTER TABLE audit_entry FORCE ROW LEVEL SECURITY;
        SELECT setval('audit_entry_ordinal', COALESCE((SELECT max(seq) FROM audit_entry), 0) + 1, false);
        ALTER TABLE audit_entry ALTER COLUMN ordinal SET DEFAULT nextval('audit_entry_ordinal'),
            ALTER COLUMN ordinal SET NOT NULL;
        ALTER SEQUENCE audit_entry_ordinal OWNED BY audit_entry.ordinal;
        DROP INDEX audit_entry_practice;
        CREATE UNIQUE INDEX audit_entry_practice ON audit_entry (practice_id, ordinal);

        ALTER TABLE audit_head DROP CONSTRAINT audit_head_pkey;
        ALTER TABLE audit_head DROP COLUMN singleton;
        ALTER TABLE audit_head ADD COLUMN chain text NOT NULL DEFAULT '';
        ALTER TABLE audit_head ALTER COLUMN chain DROP DEFAULT;
        ALTER TABLE audit_head ADD PRIMARY KEY (chain);
        -- A practice has its chain from its creation on; one created before starts it here (its
        -- head is signed by the process that applies this migration).
        INSERT INTO audit_head (chain, seq, hash) SELECT id::text, 0, repeat('0', 64) FROM practice;

        DROP FUNCTION vetnet_audit_chain(bigint, bigint);
        -- One chain's entries `p_from…p_upto`, in order (verification walks all of them).
        \(installationFunction("vetnet_audit_chain(p_chain text, p_from bigint, p_upto bigint)",
            returns: "SETOF audit_entry", body: """
            RETURN QUERY SELECT * FROM audit_entry WHERE chain = p_chain AND seq BETWEEN p_from AND p_upto ORDER BY seq;
            """))
        -- Chains that lost their head: a practice without one (its whole chain was deleted), and
        -- entries of a chain whose head row is gone.
        \(installationFunction("vetnet_audit_headless()", returns: "SETOF text", body: """
            RETURN QUERY SELECT p.id::text FROM practice p WHERE NOT EXISTS (SELECT 1 FROM audit_head h WHERE \
            h.chain = p.id::text)
                UNION SELECT DISTINCT e.chain FROM audit_entry e WHERE NOT EXISTS (SELECT 1 FROM audit_head h \
                WHERE h.chain = e.chain);
            """))
        """
}
