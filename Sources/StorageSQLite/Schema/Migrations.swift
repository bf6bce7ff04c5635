import GRDB
import StoragePorts

/// The schema as an append-only list of migrations. A shipped migration is never edited;
/// changes come as new migrations so every store can be brought forward.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("2026-11-01 practices, staff, sessions, audit", migrate: v1Foundation)
        migrator.registerMigration("2026-11-02 owners, patients, clinicians", migrate: v2RecordsAndClinicians)
        migrator.registerMigration("2026-11-03 triage assessments and ER queue", migrate: v3Triage)
        migrator.registerMigration("2026-11-04 record search and idempotency keys", migrate: v4SearchAndIdempotency)
        migrator.registerMigration("2026-11-05 medical record", migrate: v5MedicalRecord)
        migrator.registerMigration("2026-11-06 scheduling", migrate: v6Scheduling)
        migrator.registerMigration("2026-11-21 scheduling configuration version", migrate: v7ConfigurationVersion)
        migrator.registerMigration("2026-11-23 idempotency keys belong to an account", migrate: v8IdempotencyOwner)
        migrator.registerMigration("2026-11-24 event log", migrate: v9EventLog)
        migrator.registerMigration("2026-11-24 staff email unique per practice", migrate: v10EmailPerPractice)
        migrator.registerMigration(
            "practice-admin-1 clinician preferences and retirement", migrate: practiceAdmin1Clinicians)
        migrator.registerMigration(
            "practice-admin-2 practice settings and closures", migrate: practiceAdmin2PracticeSettings)
        migrator.registerMigration(
            "practice-admin-3 appointments remember why they were booked", migrate: practiceAdmin3AppointmentBasis)
        migrator.registerMigration("practice-admin-4 visit records", migrate: practiceAdmin4Visits)
        migrator.registerMigration("analytics-1 cancellation times, triage arrivals, first visits", migrate: analytics1)
        migrator.registerMigration(
            "analytics-2 change stamps and removals, so an indexed history can be brought up to date",
            migrate: analytics2)
        migrator.registerMigration("2026-11-25 sign-in attempts in the store", migrate: signInAttempts)
        migrator.registerMigration(
            "2026-11-25 overlap checks on updates of time and resources only", migrate: overlapChecksOnRelevantUpdates)
        migrator.registerMigration("2026-11-27 idempotency keys of each account", migrate: idempotencyKeysPerAccount)
        migrator.registerMigration("2026-11-27 references checked inside their practice", migrate: practiceReferences)
        migrator.registerMigration(
            "2026-11-27 triage judgement, departures and board announcements", migrate: triageJudgement)
        migrator.registerMigration("2026-11-27 record corrections", migrate: recordCorrections)
        migrator.registerMigration("2026-11-27 appointment notes", migrate: appointmentNotes)
        migrator.registerMigration("2026-11-27 owners found by email", migrate: ownersFoundByEmail)
        migrator.registerMigration("2026-11-27 second factor", migrate: secondFactor)
        migrator.registerMigration("2026-11-27 shared devices", migrate: sharedDevices)
        migrator.registerMigration("2026-11-28 passkeys", migrate: passkeys)
        migrator.registerMigration("2026-11-28 sealed contact details", migrate: sealedContactDetails)
        return migrator
    }

    private static func v1Foundation(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE practice (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    time_zone TEXT NOT NULL,
                    opening_hours TEXT NOT NULL,         -- JSON: weekday -> [[open, close]] local "HH:mm"
                    phone TEXT,
                    address TEXT,
                    created_at TEXT NOT NULL
                );

                CREATE TABLE staff_user (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    email TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    display_name TEXT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('administrator','veterinarian','technician','receptionist')),
                    password_hash TEXT NOT NULL,
                    disabled INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX staff_user_practice ON staff_user(practice_id, display_name);

                -- Only a SHA-256 of each bearer token is stored: a copy of the file grants no session.
                CREATE TABLE session (
                    token_hash TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES staff_user(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    created_at_ms INTEGER NOT NULL,
                    last_seen_at_ms INTEGER NOT NULL,
                    expires_at_ms INTEGER NOT NULL,
                    revoked_at_ms INTEGER
                );
                CREATE INDEX session_user ON session(user_id);

                CREATE TABLE audit_entry (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    occurred_at TEXT NOT NULL,
                    practice_id TEXT,
                    actor_id TEXT,
                    action TEXT NOT NULL,
                    resource_type TEXT NOT NULL,
                    resource_id TEXT,
                    outcome TEXT NOT NULL CHECK (outcome IN ('success','denied','failure')),
                    request_id TEXT,
                    detail TEXT,
                    prev_hash TEXT NOT NULL,
                    hash TEXT NOT NULL
                );
                CREATE INDEX audit_entry_practice ON audit_entry(practice_id, seq);
                CREATE INDEX audit_entry_resource ON audit_entry(practice_id, resource_type, resource_id);

                -- The trail is append-only for every SQL path, not only for the API.
                CREATE TRIGGER audit_entry_no_update BEFORE UPDATE ON audit_entry
                BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
                CREATE TRIGGER audit_entry_no_delete BEFORE DELETE ON audit_entry
                BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
                """)
    }

    private static func v2RecordsAndClinicians(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Per-practice counters (medical record numbers).
                CREATE TABLE practice_counter (
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    name TEXT NOT NULL,
                    value INTEGER NOT NULL,
                    PRIMARY KEY (practice_id, name)
                );

                CREATE TABLE owner (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    first_name TEXT NOT NULL,
                    last_name TEXT NOT NULL,
                    email TEXT,
                    phones TEXT NOT NULL,            -- JSON [{label, number}]
                    phone_digits TEXT NOT NULL,      -- space-separated digits, for search
                    address TEXT,                    -- JSON
                    communication TEXT NOT NULL,     -- JSON
                    notes TEXT,
                    archived_at TEXT,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX owner_practice_name ON owner(practice_id, last_name, first_name);

                CREATE TABLE patient (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    mrn TEXT NOT NULL,
                    name TEXT NOT NULL,
                    species TEXT NOT NULL CHECK (species IN
                        ('dog','cat','rabbit','ferret','bird','horse','reptile','other')),
                    breed TEXT,
                    sex TEXT NOT NULL,
                    birth_date TEXT,
                    birth_date_estimated INTEGER NOT NULL DEFAULT 0,
                    colour TEXT,
                    microchip TEXT,
                    status TEXT NOT NULL CHECK (status IN ('active','deceased','archived')),
                    alerts TEXT NOT NULL,            -- JSON [String]
                    owner_id TEXT NOT NULL REFERENCES owner(id),
                    co_owner_id TEXT REFERENCES owner(id),
                    archived_at TEXT,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    UNIQUE (practice_id, mrn)
                );
                CREATE UNIQUE INDEX patient_microchip ON patient(practice_id, microchip) WHERE microchip IS NOT NULL;
                CREATE INDEX patient_owner ON patient(owner_id);
                CREATE INDEX patient_practice_name ON patient(practice_id, name);

                CREATE TABLE clinician (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    user_id TEXT REFERENCES staff_user(id),
                    display_name TEXT NOT NULL,
                    credentials TEXT NOT NULL,
                    species TEXT NOT NULL,           -- JSON [species]
                    max_appointments_per_day INTEGER NOT NULL CHECK (max_appointments_per_day BETWEEN 1 AND 60),
                    complexity_ceiling REAL NOT NULL CHECK (complexity_ceiling BETWEEN 0 AND 1),
                    active INTEGER NOT NULL DEFAULT 1,
                    created_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX clinician_practice ON clinician(practice_id, display_name);

                CREATE TABLE clinician_expertise (
                    clinician_id TEXT NOT NULL REFERENCES clinician(id) ON DELETE CASCADE,
                    specialty TEXT NOT NULL,
                    proficiency INTEGER NOT NULL CHECK (proficiency BETWEEN 1 AND 5),
                    years INTEGER NOT NULL CHECK (years >= 0),
                    PRIMARY KEY (clinician_id, specialty)
                );
                CREATE INDEX clinician_expertise_specialty ON clinician_expertise(specialty, proficiency);
                """)
    }

    private static func v3Triage(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Every assessment is kept: re-triage adds a row, history is never rewritten.
                CREATE TABLE triage_assessment (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    assessor_id TEXT REFERENCES staff_user(id),
                    arrival_at_ms INTEGER NOT NULL,
                    assessed_at_ms INTEGER NOT NULL,
                    level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
                    rules_version TEXT NOT NULL,
                    case_json TEXT NOT NULL,
                    result_json TEXT NOT NULL
                );
                CREATE INDEX triage_assessment_patient ON triage_assessment(practice_id, patient_id, assessed_at_ms);

                -- The ER board: one row per patient, following the latest assessment of the current visit.
                CREATE TABLE triage_queue_entry (
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    assessment_id TEXT NOT NULL REFERENCES triage_assessment(id),
                    level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
                    arrival_at_ms INTEGER NOT NULL,
                    assessed_at_ms INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('waiting','inTreatment','done','leftWithoutBeingSeen')),
                    status_changed_at_ms INTEGER NOT NULL,
                    PRIMARY KEY (practice_id, patient_id)
                );
                CREATE INDEX triage_queue_active ON triage_queue_entry(practice_id, status);
                """)
    }

    private static func v4SearchAndIdempotency(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Search over patient name, owners' names and phones, record number and microchip.
                -- unicode61 with remove_diacritics folds case and accents ("Zoë" matches "zoe").
                CREATE VIRTUAL TABLE patient_search USING fts5(
                    patient_id UNINDEXED, practice_id UNINDEXED, patient_name, owner_names, phones, mrn, microchip,
                    tokenize = 'unicode61 remove_diacritics 2'
                );

                -- A repeated create with the same Idempotency-Key answers with the first result.
                CREATE TABLE idempotency_key (
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    resource_id TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    PRIMARY KEY (practice_id, key)
                );
                """)
    }

    private static func v5MedicalRecord(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE weight (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    value TEXT NOT NULL,               -- exact decimal as entered
                    unit TEXT NOT NULL CHECK (unit IN ('kg','g','lb')),
                    grams INTEGER NOT NULL CHECK (grams > 0),
                    measured_at TEXT NOT NULL,
                    recorded_by TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX weight_patient ON weight(patient_id, measured_at);

                CREATE TABLE problem (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    name TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('active','resolved')),
                    onset_date TEXT,
                    resolved_date TEXT,
                    created_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX problem_patient ON problem(patient_id);

                CREATE TABLE allergy (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    substance TEXT NOT NULL,
                    reaction TEXT,
                    severity TEXT NOT NULL,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX allergy_patient ON allergy(patient_id);

                CREATE TABLE medication (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    drug TEXT NOT NULL,
                    concentration_mg_per_ml TEXT NOT NULL,
                    dose_mg_per_kg TEXT NOT NULL,
                    route TEXT NOT NULL,
                    frequency TEXT NOT NULL,
                    start_date TEXT NOT NULL,
                    end_date TEXT,
                    prescribed_by TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX medication_patient ON medication(patient_id);

                CREATE TABLE vaccination (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    vaccine TEXT NOT NULL,
                    administered_date TEXT NOT NULL,
                    batch TEXT,
                    next_due_date TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX vaccination_patient ON vaccination(patient_id);
                CREATE INDEX vaccination_due ON vaccination(practice_id, next_due_date);

                -- Notes and addenda hold their text encrypted (AES-GCM); the rest stays queryable.
                -- They are append-only: corrections are addenda. Only a purge of an archived
                -- patient may delete them.
                CREATE TABLE clinical_note (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    author_id TEXT NOT NULL,
                    author_name TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    sealed_text BLOB NOT NULL
                );
                CREATE INDEX clinical_note_patient ON clinical_note(patient_id, created_at);
                CREATE TABLE note_addendum (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    note_id TEXT NOT NULL REFERENCES clinical_note(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    author_id TEXT NOT NULL,
                    author_name TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    sealed_text BLOB NOT NULL
                );
                CREATE INDEX note_addendum_note ON note_addendum(note_id, created_at);
                CREATE TRIGGER clinical_note_no_update BEFORE UPDATE ON clinical_note
                BEGIN SELECT RAISE(ABORT, 'clinical notes are append-only; add an addendum'); END;
                CREATE TRIGGER note_addendum_no_update BEFORE UPDATE ON note_addendum
                BEGIN SELECT RAISE(ABORT, 'addenda are append-only'); END;
                CREATE TRIGGER clinical_note_no_delete BEFORE DELETE ON clinical_note
                WHEN (SELECT status FROM patient WHERE id = OLD.patient_id) IS NOT 'archived'
                BEGIN SELECT RAISE(ABORT, 'clinical notes are append-only'); END;
                CREATE TRIGGER note_addendum_no_delete BEFORE DELETE ON note_addendum
                WHEN (SELECT status FROM patient WHERE id = OLD.patient_id) IS NOT 'archived'
                BEGIN SELECT RAISE(ABORT, 'addenda are append-only'); END;

                -- Document bytes live encrypted under documents/ named by their SHA-256.
                CREATE TABLE document (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    file_name TEXT NOT NULL,
                    content_type TEXT NOT NULL,
                    byte_count INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    uploaded_by TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX document_patient ON document(patient_id);
                """)
    }

    private static func v6Scheduling(_ db: Database) throws {
        try db.execute(
            sql: """
                -- A clinician's week, breaks, time off and extra sessions (validated in the domain).
                CREATE TABLE clinician_availability (
                    clinician_id TEXT PRIMARY KEY NOT NULL REFERENCES clinician(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    availability TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1
                );

                CREATE TABLE room (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    name TEXT NOT NULL,
                    type TEXT NOT NULL CHECK (type IN ('exam','surgery','dental','imaging','isolation')),
                    active INTEGER NOT NULL DEFAULT 1,
                    UNIQUE (practice_id, name)
                );

                CREATE TABLE appointment_type (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    name TEXT NOT NULL,
                    definition TEXT NOT NULL,          -- JSON of the domain value
                    UNIQUE (practice_id, name)
                );

                -- holds_time is 1 while the appointment keeps its clinician and room busy; the CHECK
                -- ties it to the status so no statement can free time without changing status.
                CREATE TABLE appointment (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    clinician_id TEXT NOT NULL REFERENCES clinician(id),
                    appointment_type_id TEXT NOT NULL REFERENCES appointment_type(id),
                    room_type TEXT,
                    room_id TEXT REFERENCES room(id),
                    start_ms INTEGER NOT NULL,
                    end_ms INTEGER NOT NULL,
                    occupied_end_ms INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN
                        ('booked','checked_in','in_progress','completed','cancelled','no_show')),
                    holds_time INTEGER NOT NULL CHECK (holds_time = (status IN
                        ('booked','checked_in','in_progress','completed'))),
                    checked_in_at_ms INTEGER,
                    started_at_ms INTEGER,
                    completed_at_ms INTEGER,
                    actual_minutes INTEGER,
                    cancellation_reason TEXT,
                    reason TEXT,
                    created_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    CHECK (start_ms < end_ms AND end_ms <= occupied_end_ms AND occupied_end_ms - start_ms < 86400000)
                );
                CREATE INDEX appointment_clinician_time ON appointment(clinician_id, start_ms);
                CREATE INDEX appointment_room_time ON appointment(room_id, start_ms);
                CREATE INDEX appointment_practice_time ON appointment(practice_id, start_ms);
                CREATE INDEX appointment_patient ON appointment(patient_id);

                -- No two time-holding appointments of one clinician, or of one room, overlap
                -- (half-open intervals, buffers included) — on every write path, not only the API's.
                -- An appointment is shorter than a day (CHECK below), so only bookings that start in
                -- the day before can reach into this one; the bound keeps the check an index range scan.
                CREATE TRIGGER appointment_no_clinician_overlap_insert BEFORE INSERT ON appointment
                WHEN NEW.holds_time = 1 AND EXISTS (
                    SELECT 1 FROM appointment a WHERE a.clinician_id = NEW.clinician_id AND a.holds_time = 1
                        AND a.id <> NEW.id
                      AND a.start_ms > NEW.start_ms - 86400000 AND a.start_ms < NEW.occupied_end_ms
                          AND NEW.start_ms < a.occupied_end_ms)
                BEGIN SELECT RAISE(ABORT, 'appointment overlap: clinician already booked'); END;
                CREATE TRIGGER appointment_no_room_overlap_insert BEFORE INSERT ON appointment
                WHEN NEW.holds_time = 1 AND NEW.room_id IS NOT NULL AND EXISTS (
                    SELECT 1 FROM appointment a WHERE a.room_id = NEW.room_id AND a.holds_time = 1 AND a.id <> NEW.id
                      AND a.start_ms > NEW.start_ms - 86400000 AND a.start_ms < NEW.occupied_end_ms
                          AND NEW.start_ms < a.occupied_end_ms)
                BEGIN SELECT RAISE(ABORT, 'appointment overlap: room already booked'); END;
                CREATE TRIGGER appointment_no_clinician_overlap_update BEFORE UPDATE ON appointment
                WHEN NEW.holds_time = 1 AND EXISTS (
                    SELECT 1 FROM appointment a WHERE a.clinician_id = NEW.clinician_id AND a.holds_time = 1
                        AND a.id <> NEW.id
                      AND a.start_ms > NEW.start_ms - 86400000 AND a.start_ms < NEW.occupied_end_ms
                          AND NEW.start_ms < a.occupied_end_ms)
                BEGIN SELECT RAISE(ABORT, 'appointment overlap: clinician already booked'); END;
                CREATE TRIGGER appointment_no_room_overlap_update BEFORE UPDATE ON appointment
                WHEN NEW.holds_time = 1 AND NEW.room_id IS NOT NULL AND EXISTS (
                    SELECT 1 FROM appointment a WHERE a.room_id = NEW.room_id AND a.holds_time = 1 AND a.id <> NEW.id
                      AND a.start_ms > NEW.start_ms - 86400000 AND a.start_ms < NEW.occupied_end_ms
                          AND NEW.start_ms < a.occupied_end_ms)
                BEGIN SELECT RAISE(ABORT, 'appointment overlap: room already booked'); END;

                -- Calendar feeds: only a hash of each unguessable token is stored.
                CREATE TABLE calendar_feed (
                    token_hash TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    clinician_id TEXT NOT NULL REFERENCES clinician(id),
                    created_at TEXT NOT NULL,
                    revoked_at TEXT
                );
                CREATE INDEX calendar_feed_clinician ON calendar_feed(clinician_id);
                """)
    }

    private static func v7ConfigurationVersion(_ db: Database) throws {
        try db.execute(
            sql: """
                -- What scheduling reads on every call (the practice's hours and time zone, clinicians,
                -- expertise, availability, rooms, appointment types) is cached in memory; this counter
                -- changes with any write to any of it, whatever statement makes the write, so a cached
                -- copy is used only while its version is current.
                ALTER TABLE practice ADD COLUMN config_version INTEGER NOT NULL DEFAULT 0;
                -- A booking checks room capacity over its own time window only.
                CREATE INDEX appointment_practice_room_type_time ON appointment(practice_id, room_type, start_ms);
                CREATE TRIGGER practice_config_update AFTER UPDATE OF name, time_zone, opening_hours, phone,
                    address ON practice
                BEGIN UPDATE practice SET config_version = config_version + 1 WHERE id = NEW.id; END;
                """)
        // Each configuration table bumps its practice's counter on insert, update and delete.
        // `row` is NEW or OLD; expertise rows reach their practice through the clinician.
        let practiceOf: [(table: String, practice: (String) -> String)] = [
            ("clinician", { "\($0).practice_id" }),
            ("clinician_availability", { "\($0).practice_id" }),
            ("room", { "\($0).practice_id" }),
            ("appointment_type", { "\($0).practice_id" }),
            ("clinician_expertise", { "(SELECT practice_id FROM clinician WHERE id = \($0).clinician_id)" }),
        ]
        let bump = "UPDATE practice SET config_version = config_version + 1 WHERE id"
        for (table, practice) in practiceOf {
            try db.execute(
                sql: """
                    CREATE TRIGGER \(table)_config_insert AFTER INSERT ON \(table)
                    BEGIN \(bump) = \(practice("NEW")); END;
                    CREATE TRIGGER \(table)_config_update AFTER UPDATE ON \(table)
                    BEGIN \(bump) IN (\(practice("OLD")), \(practice("NEW"))); END;
                    CREATE TRIGGER \(table)_config_delete AFTER DELETE ON \(table)
                    BEGIN \(bump) = \(practice("OLD")); END;
                    """)
        }
    }

    private static func v8IdempotencyOwner(_ db: Database) throws {
        // A replay answers with the first request's resource, so only the account that sent
        // the first request may replay it. Keys written before this have no owner and are
        // replayable by nobody but a request identical in every respect.
        try db.execute(sql: "ALTER TABLE idempotency_key ADD COLUMN actor_id TEXT")
    }

    private static func v9EventLog(_ db: Database) throws {
        // The practice's durable event log (a transactional outbox): rows are written in the
        // same transaction as the change they describe. `event_head` holds the last number
        // handed out and the last number pruned, so numbers are never reused after pruning and
        // a client resuming from a pruned position can be told to reload.
        try db.execute(
            sql: """
                CREATE TABLE event_head (
                    practice_id TEXT PRIMARY KEY NOT NULL REFERENCES practice(id),
                    seq INTEGER NOT NULL CHECK (seq >= 0),
                    pruned_through INTEGER NOT NULL DEFAULT 0 CHECK (pruned_through >= 0 AND pruned_through <= seq)
                );
                CREATE TABLE event_log (
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    seq INTEGER NOT NULL CHECK (seq > 0),
                    kind TEXT NOT NULL,
                    occurred_at_ms INTEGER NOT NULL,
                    resource_type TEXT NOT NULL,
                    resource_id TEXT,
                    actor_id TEXT,
                    payload TEXT NOT NULL,
                    PRIMARY KEY (practice_id, seq)
                ) WITHOUT ROWID;
                CREATE INDEX event_log_by_time ON event_log (occurred_at_ms);
                CREATE TRIGGER event_log_append_only BEFORE UPDATE ON event_log
                BEGIN SELECT RAISE(ABORT, 'event log entries are never changed'); END;
                """)
    }

    private static func v10EmailPerPractice(_ db: Database) throws {
        // An address unique across the installation let one practice learn that a person
        // works at another (creating their account was refused). Unique per practice now;
        // sign-in tells accounts of the same address apart by the password, or by the
        // practice when it is given. SQLite cannot drop a column's UNIQUE, so the table is
        // rebuilt (the migrator checks foreign keys after the migration).
        try db.execute(
            sql: """
                CREATE TABLE staff_user_new (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    email TEXT NOT NULL COLLATE NOCASE,
                    display_name TEXT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('administrator','veterinarian','technician','receptionist')),
                    password_hash TEXT NOT NULL,
                    disabled INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    UNIQUE (practice_id, email)
                );
                INSERT INTO staff_user_new (id, practice_id, email, display_name, role, password_hash, disabled,
                    created_at, version)
                    SELECT id, practice_id, email, display_name, role, password_hash, disabled, created_at,
                        version FROM staff_user;
                DROP TABLE staff_user;
                ALTER TABLE staff_user_new RENAME TO staff_user;
                CREATE INDEX staff_user_practice ON staff_user(practice_id, display_name);
                CREATE INDEX staff_user_email ON staff_user(email);
                """)
    }

    private static func practiceAdmin1Clinicians(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Case-load preferences (JSON of the domain value) and when a clinician retired; a
                -- retired clinician keeps `active = 0` and stays for the history of their appointments.
                ALTER TABLE clinician ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}';
                ALTER TABLE clinician ADD COLUMN retired_at TEXT;
                -- One working clinician per staff account.
                CREATE UNIQUE INDEX clinician_user ON clinician(user_id) WHERE user_id IS NOT NULL AND active = 1;
                """)
    }

    private static func practiceAdmin2PracticeSettings(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Closures (JSON of the domain values), the booking grid, the default buffer of new
                -- appointment types, the services offered, the retention period, and a version for
                -- If-Match on the practice's settings.
                ALTER TABLE practice ADD COLUMN closures TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE practice ADD COLUMN slot_grid_minutes INTEGER NOT NULL DEFAULT 5 CHECK (slot_grid_minutes IN
                    (5, 10, 15, 20, 30, 60));
                ALTER TABLE practice ADD COLUMN default_buffer_minutes INTEGER NOT NULL DEFAULT 0 CHECK
                    (default_buffer_minutes BETWEEN 0 AND 240);
                ALTER TABLE practice ADD COLUMN services TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE practice ADD COLUMN retention_years INTEGER NOT NULL DEFAULT 7 CHECK (retention_years
                    BETWEEN 1 AND 100);
                ALTER TABLE practice ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
                -- Scheduling reads closures and the grid from its cached configuration: changing them bumps it.
                CREATE TRIGGER practice_settings_config_update
                AFTER UPDATE OF closures, slot_grid_minutes, default_buffer_minutes, services,
                    retention_years ON practice
                BEGIN UPDATE practice SET config_version = config_version + 1 WHERE id = NEW.id; END;
                """)
    }

    private static func practiceAdmin3AppointmentBasis(_ db: Database) throws {
        try db.execute(
            sql: """
                -- What an intake ranked, kept with its assessment, so a booking made from it records
                -- the reasons the clinician was offered (not a re-ranking made later).
                CREATE TABLE intake_ranking (
                    id TEXT PRIMARY KEY NOT NULL REFERENCES triage_assessment(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    appointment_type_id TEXT REFERENCES appointment_type(id),
                    ranking TEXT NOT NULL,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX intake_ranking_patient ON intake_ranking(patient_id);
                -- Staff notes, and for a booking made from an intake: its assessment, level and the
                -- match it was booked on (JSON).
                ALTER TABLE appointment ADD COLUMN staff_notes TEXT;
                ALTER TABLE appointment ADD COLUMN assessment_id TEXT REFERENCES triage_assessment(id);
                ALTER TABLE appointment ADD COLUMN triage_level INTEGER CHECK (triage_level BETWEEN 1 AND 5);
                ALTER TABLE appointment ADD COLUMN match_basis TEXT;
                -- A patient's appointments, past and future ("when was Rex last in?").
                CREATE INDEX appointment_patient_time ON appointment(practice_id, patient_id, start_ms);
                """)
    }

    private static func practiceAdmin4Visits(_ db: Database) throws {
        try db.execute(
            sql: """
                -- The record of one visit: complaint, vitals, diagnoses, treatment plan (JSON of the
                -- domain value) and the follow-up date that puts the patient on the recall list.
                CREATE TABLE visit (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    appointment_id TEXT UNIQUE REFERENCES appointment(id),
                    clinician_id TEXT REFERENCES clinician(id),
                    occurred_at TEXT NOT NULL,
                    record TEXT NOT NULL,
                    follow_up_date TEXT,
                    recorded_by TEXT,
                    created_at TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX visit_patient ON visit(practice_id, patient_id, occurred_at);
                CREATE INDEX visit_follow_up ON visit(practice_id, follow_up_date) WHERE follow_up_date IS NOT NULL;
                """)
    }

    private static func analytics1(_ db: Database) throws {
        try db.execute(
            sql: """
                -- When an appointment was cancelled: a late cancellation (less than the notice period
                -- before the start) costs a slot that an early one does not. Written with the change of
                -- status; cancellations made before this migration take the time of their
                -- `appointment.cancelled` event while the event log still holds it.
                ALTER TABLE appointment ADD COLUMN cancelled_at_ms INTEGER;
                UPDATE appointment SET cancelled_at_ms = (
                    SELECT MIN(e.occurred_at_ms) FROM event_log e
                    WHERE e.practice_id = appointment.practice_id AND e.kind = 'appointment.cancelled'
                        AND e.resource_id = appointment.id)
                WHERE status = 'cancelled';

                -- Every triaged visit to the emergency service, kept after the ER board has moved on
                -- (the board holds one row per patient and only its latest status): the level the
                -- patient was seen under and when a clinician first saw them, for VTL compliance.
                CREATE TABLE triage_arrival (
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    arrival_at_ms INTEGER NOT NULL,
                    level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
                    first_seen_at_ms INTEGER CHECK (first_seen_at_ms IS NULL OR first_seen_at_ms >= arrival_at_ms),
                    PRIMARY KEY (practice_id, patient_id, arrival_at_ms)
                ) WITHOUT ROWID;
                CREATE INDEX triage_arrival_time ON triage_arrival (practice_id, arrival_at_ms);

                -- The visits on the board now: a patient in treatment was first seen at their last
                -- status change; a finished visit takes the time of the move to treatment from the
                -- event log while it holds it, and is left out when it does not (its wait is unknown).
                INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level, first_seen_at_ms)
                SELECT q.practice_id, q.patient_id, q.arrival_at_ms, q.level,
                       CASE q.status
                           WHEN 'inTreatment' THEN MAX(q.status_changed_at_ms, q.arrival_at_ms)
                           WHEN 'done' THEN (
                               SELECT MAX(MIN(e.occurred_at_ms), q.arrival_at_ms) FROM event_log e
                               WHERE e.practice_id = q.practice_id AND e.kind = 'triage.queue_changed'
                                 AND e.resource_id = q.patient_id AND e.occurred_at_ms >= q.arrival_at_ms
                                 AND json_extract(e.payload, '$.status') = 'inTreatment')
                       END
                FROM triage_queue_entry q
                WHERE q.status IN ('waiting', 'inTreatment', 'leftWithoutBeingSeen')
                   OR EXISTS (SELECT 1 FROM event_log e
                              WHERE e.practice_id = q.practice_id AND e.kind = 'triage.queue_changed'
                                  AND e.resource_id = q.patient_id
                                AND e.occurred_at_ms >= q.arrival_at_ms AND json_extract(e.payload,
                                    '$.status') = 'inTreatment');

                -- A patient's first visit (new or returning patients): the earliest attended
                -- appointment, found from the index alone.
                CREATE INDEX appointment_patient_visits ON appointment (practice_id, patient_id, start_ms)
                WHERE status IN ('checked_in', 'in_progress', 'completed');

                -- The patient's species on each appointment (figures per species, the duration model),
                -- written with the row and kept in step when a patient's species is corrected: a
                -- year's analytics then reads one table instead of looking up every patient.
                ALTER TABLE appointment ADD COLUMN patient_species TEXT;
                UPDATE appointment SET patient_species = (SELECT species FROM patient
                    WHERE patient.id = appointment.patient_id);
                CREATE TRIGGER patient_species_on_appointments AFTER UPDATE OF species ON patient
                BEGIN UPDATE appointment SET patient_species = NEW.species WHERE patient_id = NEW.id; END;

                -- Changes with every write to what the figures are computed from (appointments and
                -- triage arrivals, whatever statement makes the write), so a computed picture of the
                -- practice is reused only while it is current; the configuration has config_version.
                ALTER TABLE practice ADD COLUMN analytics_version INTEGER NOT NULL DEFAULT 0;
                """)
        for table in ["appointment", "triage_arrival"] {
            let bump = "UPDATE practice SET analytics_version = analytics_version + 1 WHERE id"
            try db.execute(
                sql: """
                    CREATE TRIGGER \(table)_analytics_insert AFTER INSERT
                        ON \(table) BEGIN \(bump) = NEW.practice_id; END;
                    CREATE TRIGGER \(table)_analytics_update AFTER UPDATE ON \(table) BEGIN \(bump) IN (OLD.practice_id,
                        NEW.practice_id); END;
                    CREATE TRIGGER \(table)_analytics_delete AFTER DELETE
                        ON \(table) BEGIN \(bump) = OLD.practice_id; END;
                    """)
        }
    }

    private static func idempotencyKeysPerAccount(_ db: Database) throws {
        // A key names one request of one account: another account's same key is a request of
        // its own, not a conflict with the first. (The primary key moves from (practice, key)
        // to a unique index that takes the account in.)
        try db.execute(
            sql: """
                CREATE TABLE idempotency_key_by_account (
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    resource_id TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    actor_id TEXT
                );
                INSERT INTO idempotency_key_by_account (practice_id, key, operation, fingerprint, resource_id,
                    created_at, actor_id)
                    SELECT practice_id, key, operation, fingerprint, resource_id, created_at,
                        actor_id FROM idempotency_key;
                DROP TABLE idempotency_key;
                ALTER TABLE idempotency_key_by_account RENAME TO idempotency_key;
                CREATE UNIQUE INDEX idempotency_key_claim ON idempotency_key (practice_id, IFNULL(actor_id, ''), key);
                CREATE INDEX idempotency_key_age ON idempotency_key (created_at);
                """)
    }

    private static func overlapChecksOnRelevantUpdates(_ db: Database) throws {
        // The update checks ran on every update of a row, including the analytics stamp that
        // follows each write and changes of notes or intake basis: an index probe each time
        // for nothing. An update can only create an overlap by changing when the appointment
        // is, whose or which room it is, or whether it holds time.
        let columns = "clinician_id, room_id, start_ms, occupied_end_ms, holds_time"
        try db.execute(
            sql: """
                DROP TRIGGER appointment_no_clinician_overlap_update;
                DROP TRIGGER appointment_no_room_overlap_update;
                CREATE TRIGGER appointment_no_clinician_overlap_update BEFORE UPDATE OF \(columns) ON appointment
                WHEN NEW.holds_time = 1 AND EXISTS (
                    SELECT 1 FROM appointment a WHERE a.clinician_id = NEW.clinician_id AND a.holds_time = 1
                        AND a.id <> NEW.id
                      AND a.start_ms > NEW.start_ms - 86400000 AND a.start_ms < NEW.occupied_end_ms
                          AND NEW.start_ms < a.occupied_end_ms)
                BEGIN SELECT RAISE(ABORT, 'appointment overlap: clinician already booked'); END;
                CREATE TRIGGER appointment_no_room_overlap_update BEFORE UPDATE OF \(columns) ON appointment
                WHEN NEW.holds_time = 1 AND NEW.room_id IS NOT NULL AND EXISTS (
                    SELECT 1 FROM appointment a WHERE a.room_id = NEW.room_id AND a.holds_time = 1 AND a.id <> NEW.id
                      AND a.start_ms > NEW.start_ms - 86400000 AND a.start_ms < NEW.occupied_end_ms
                          AND NEW.start_ms < a.occupied_end_ms)
                BEGIN SELECT RAISE(ABORT, 'appointment overlap: room already booked'); END;
                """)
    }

    private static func signInAttempts(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Sign-in attempts the throttle counts, kept in the store rather than in one process,
                -- so every process on the store sees the same counts. Keys are hashes of the account
                -- and client address; an attempt counts against both (one row each), pending until
                -- its password has been checked.
                CREATE TABLE sign_in_attempt (
                    ticket TEXT NOT NULL,
                    key TEXT NOT NULL,
                    at_ms INTEGER NOT NULL,
                    pending INTEGER NOT NULL CHECK (pending IN (0, 1)),
                    PRIMARY KEY (key, ticket)
                ) WITHOUT ROWID;
                CREATE INDEX sign_in_attempt_ticket ON sign_in_attempt (ticket);
                CREATE INDEX sign_in_attempt_time ON sign_in_attempt (at_ms);
                """)
    }

    private static func analytics2(_ db: Database) throws {
        // Each write to appointments or triage arrivals still moves `practice.analytics_version`
        // by one; the row written now also keeps the version it brought the practice to
        // (`analytics_seq`), and a removed row leaves its identity in `analytics_removal` under
        // that version. What changed since a version is then an index range read, and an indexed
        // history can be brought up to date without reading the whole stretch again.
        try db.execute(
            sql: """
                ALTER TABLE appointment ADD COLUMN analytics_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE triage_arrival ADD COLUMN analytics_seq INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX appointment_analytics_seq ON appointment (practice_id, analytics_seq);
                CREATE INDEX triage_arrival_analytics_seq ON triage_arrival (practice_id, analytics_seq);

                -- Rows that left a practice's records (a purge, or a row whose identity changed):
                -- an appointment by id, an arrival by patient and arrival time, each with its patient.
                -- Kept for the last 100 000 versions of the practice; older histories are read afresh.
                CREATE TABLE analytics_removal (
                    practice_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    appointment_id TEXT,
                    patient_id TEXT NOT NULL,
                    arrival_at_ms INTEGER
                );
                CREATE INDEX analytics_removal_seq ON analytics_removal (practice_id, seq);

                DROP TRIGGER appointment_analytics_insert;
                DROP TRIGGER appointment_analytics_update;
                DROP TRIGGER appointment_analytics_delete;
                DROP TRIGGER triage_arrival_analytics_insert;
                DROP TRIGGER triage_arrival_analytics_update;
                DROP TRIGGER triage_arrival_analytics_delete;
                """)
        let bump = "UPDATE practice SET analytics_version = analytics_version + 1 WHERE id"
        func version(_ practice: String) -> String { "(SELECT analytics_version FROM practice WHERE id = \(practice))" }
        let prune =
            """
            DELETE FROM analytics_removal WHERE practice_id = OLD.practice_id AND seq <= \
            \(version("OLD.practice_id")) - 100000
            """
        // (table, the row's key for the stamp, what a removal records, when an update changed the row's identity)
        let tables = [
            (
                table: "appointment", key: "id = NEW.id", removed: "OLD.id, OLD.patient_id, NULL",
                moved:
                    """
                OLD.id IS NOT NEW.id OR OLD.practice_id IS NOT NEW.practice_id OR OLD.patient_id IS NOT \
                NEW.patient_id
                """
            ),
            (
                table: "triage_arrival",
                key:
                    """
                practice_id = NEW.practice_id AND patient_id = NEW.patient_id AND arrival_at_ms = NEW.arrival_at_ms
                """,
                removed: "NULL, OLD.patient_id, OLD.arrival_at_ms",
                moved:
                    """
                OLD.practice_id IS NOT NEW.practice_id OR OLD.patient_id IS NOT NEW.patient_id OR \
                OLD.arrival_at_ms IS NOT NEW.arrival_at_ms
                """
            ),
        ]
        for (table, key, removed, moved) in tables {
            let stamp = "UPDATE \(table) SET analytics_seq = \(version("NEW.practice_id")) WHERE \(key)"
            // The stamp is itself an update of the row; it changes `analytics_seq` and so does not count again.
            try db.execute(
                sql: """
                    CREATE TRIGGER \(table)_analytics_insert AFTER INSERT ON \(table)
                    BEGIN \(bump) = NEW.practice_id; \(stamp); END;
                    CREATE TRIGGER \(table)_analytics_update AFTER UPDATE ON \(table)
                        WHEN NEW.analytics_seq IS OLD.analytics_seq
                    BEGIN
                        \(bump) IN (OLD.practice_id, NEW.practice_id);
                        \(stamp);
                        INSERT INTO analytics_removal (practice_id, seq, appointment_id, patient_id, arrival_at_ms)
                        SELECT OLD.practice_id, \(version("OLD.practice_id")), \(removed) WHERE \(moved);
                    END;
                    CREATE TRIGGER \(table)_analytics_delete AFTER DELETE ON \(table)
                    BEGIN
                        \(bump) = OLD.practice_id;
                        \(prune);
                        INSERT INTO analytics_removal (practice_id, seq, appointment_id, patient_id, arrival_at_ms)
                        VALUES (OLD.practice_id, \(version("OLD.practice_id")), \(removed));
                    END;
                    """)
        }
        // Arrivals read the patient's species from the patient (appointments keep a copy, kept in
        // step by `patient_species_on_appointments`): a corrected species is a change to them.
        try db.execute(
            sql: """
                CREATE TRIGGER patient_species_on_arrivals AFTER UPDATE OF species ON patient
                WHEN OLD.species IS NOT NEW.species AND EXISTS (SELECT 1 FROM triage_arrival
                    WHERE practice_id = NEW.practice_id AND patient_id = NEW.id)
                BEGIN
                    \(bump) = NEW.practice_id;
                    UPDATE triage_arrival SET analytics_seq = \(version("NEW.practice_id"))
                        WHERE practice_id = NEW.practice_id AND patient_id = NEW.id;
                END;
                """)
    }

    /// Every ``PracticeReference`` checked by the database, as PostgreSQL's composite foreign
    /// keys check it: a row naming a record that is missing or another practice's is refused
    /// on insert and on update (`RAISE`, read back as a 404 naming the resource).
    private static func practiceReferences(_ db: Database) throws {
        for reference in PracticeReference.all {
            let missing = """
                NEW.\(reference.column) IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM \(reference.target) WHERE id = NEW.\(reference.column)
                        AND practice_id = NEW.practice_id)
                """
            let raise = "BEGIN SELECT RAISE(ABORT, '\(reference.refusalMessage)'); END"
            try db.execute(
                sql: """
                    CREATE TRIGGER \(reference.name) BEFORE INSERT ON \(reference.table) WHEN \(missing) \(raise);
                    CREATE TRIGGER \(reference.name)_update BEFORE UPDATE OF \(reference.column),
                        practice_id ON \(reference.table)
                        WHEN \(missing) \(raise);
                    """)
        }
    }

    private static func triageJudgement(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Clinical judgement on an assessment: every override is kept beside the computed
                -- level, which is never rewritten.
                CREATE TABLE triage_override (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    assessment_id TEXT NOT NULL REFERENCES triage_assessment(id),
                    computed_level INTEGER NOT NULL CHECK (computed_level BETWEEN 1 AND 5),
                    previous_level INTEGER NOT NULL CHECK (previous_level BETWEEN 1 AND 5),
                    level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
                    reason TEXT NOT NULL,
                    overridden_by TEXT NOT NULL,
                    overridden_at_ms INTEGER NOT NULL,
                    lowers_red_finding INTEGER NOT NULL CHECK (lowers_red_finding IN (0, 1))
                );
                CREATE INDEX triage_override_assessment ON triage_override (assessment_id, overridden_at_ms);
                CREATE INDEX triage_override_time ON triage_override (practice_id, overridden_at_ms);

                -- The board entry keeps the latest override of the assessment it follows, and which
                -- of its deadlines have been announced (each is announced once).
                ALTER TABLE triage_queue_entry ADD COLUMN override_json TEXT;
                ALTER TABLE triage_queue_entry ADD COLUMN overdue_announced INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE triage_queue_entry ADD COLUMN reassessment_announced INTEGER NOT NULL DEFAULT 0;

                -- A patient who left unseen stops waiting when they left.
                ALTER TABLE triage_arrival ADD COLUMN left_at_ms INTEGER;
                UPDATE triage_arrival SET left_at_ms = (
                    SELECT MAX(q.status_changed_at_ms, q.arrival_at_ms) FROM triage_queue_entry q
                    WHERE q.practice_id = triage_arrival.practice_id AND q.patient_id = triage_arrival.patient_id
                      AND q.arrival_at_ms = triage_arrival.arrival_at_ms AND q.status = 'leftWithoutBeingSeen')
                WHERE first_seen_at_ms IS NULL;
                """)
    }

    private static func recordCorrections(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Corrections of the medical record, kept in order and applied on every read: nothing
                -- recorded is deleted or rewritten.
                CREATE TABLE record_correction (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    entry_kind TEXT NOT NULL CHECK (entry_kind IN
                        ('weight','problem','allergy','medication','vaccination','note')),
                    entry_id TEXT NOT NULL,
                    change_json TEXT NOT NULL,
                    recorded_by TEXT,
                    recorded_at_ms INTEGER NOT NULL
                );
                CREATE INDEX record_correction_patient ON record_correction (practice_id, patient_id, recorded_at_ms);
                CREATE INDEX record_correction_kind ON record_correction (practice_id, entry_kind);
                """)
    }

    private static func appointmentNotes(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Timestamped notes on an appointment, added and never edited; the text is sealed
                -- under the record key. The patient is kept so a purge finds the notes of its
                -- appointments.
                CREATE TABLE appointment_note (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    appointment_id TEXT NOT NULL REFERENCES appointment(id),
                    patient_id TEXT NOT NULL REFERENCES patient(id),
                    author_id TEXT,
                    author_name TEXT NOT NULL,
                    created_at_ms INTEGER NOT NULL,
                    sealed_text BLOB NOT NULL
                );
                CREATE INDEX appointment_note_appointment ON appointment_note (practice_id, appointment_id,
                    created_at_ms);
                """)
    }

    /// Owners' email addresses join the patient search (reception finds a client by the address
    /// they write from, and a registration by it as a possible duplicate): every row rebuilt.
    private static func ownersFoundByEmail(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM patient_search")
        try db.execute(
            sql: """
                INSERT INTO patient_search (rowid, patient_id, practice_id, patient_name, owner_names, phones, mrn,
                    microchip)
                SELECT p.rowid, p.id, p.practice_id, p.name,
                       o.first_name || ' ' || o.last_name || COALESCE(' ' || c.first_name || ' ' || c.last_name, '')
                           || COALESCE(' ' || o.email, '') || COALESCE(' ' || c.email, ''),
                       o.phone_digits || ' ' || (SELECT COALESCE(group_concat(json_extract(value, '$.number'), ' '),
                           '') FROM json_each(o.phones))
                           || COALESCE(' ' || c.phone_digits, ''),
                       p.mrn || ' ' || REPLACE(p.mrn, '-', ''), COALESCE(p.microchip, '')
                FROM patient p JOIN owner o ON o.id = p.owner_id LEFT JOIN owner c ON c.id = p.co_owner_id
                """)
    }

    private static func secondFactor(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Roles whose members sign in with a second factor (a JSON array of role names).
                ALTER TABLE practice ADD COLUMN second_factor_roles TEXT NOT NULL DEFAULT '["administrator"]';

                -- How each session was opened: with a second factor, or one that must set a second
                -- factor up before it may do anything else.
                ALTER TABLE session ADD COLUMN second_factor INTEGER NOT NULL DEFAULT 0 CHECK (second_factor IN (0, 1));
                ALTER TABLE session ADD COLUMN must_enrol INTEGER NOT NULL DEFAULT 0 CHECK (must_enrol IN (0, 1));

                -- An account's authenticator secret (sealed under the record key), the one being set
                -- up, and the last time step a code was accepted for (older ones are spent).
                CREATE TABLE second_factor (
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES staff_user(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    sealed_secret BLOB,
                    sealed_pending BLOB,
                    last_step INTEGER NOT NULL DEFAULT 0,
                    enrolled_at_ms INTEGER
                );
                -- The SHA-256 of each unused recovery code; a used one is deleted.
                CREATE TABLE second_factor_recovery (
                    user_id TEXT NOT NULL REFERENCES staff_user(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    code_hash TEXT NOT NULL,
                    PRIMARY KEY (user_id, code_hash)
                );
                """)
    }

    private static func sharedDevices(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Browsers registered as shared workstations, known by the SHA-256 of their token.
                CREATE TABLE shared_device (
                    id TEXT PRIMARY KEY NOT NULL,
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    name TEXT NOT NULL,
                    idle_lock_seconds INTEGER NOT NULL CHECK (idle_lock_seconds BETWEEN 10 AND 3600),
                    token_hash TEXT NOT NULL UNIQUE,
                    registered_by TEXT,
                    registered_at_ms INTEGER NOT NULL,
                    revoked_at_ms INTEGER
                );
                CREATE INDEX shared_device_practice ON shared_device (practice_id, registered_at_ms);
                -- Each staff member's PIN for shared devices, as a bcrypt hash.
                CREATE TABLE staff_pin (
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES staff_user(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    pin_hash TEXT NOT NULL,
                    set_at_ms INTEGER NOT NULL
                );
                -- The latest full sign-in of each person on each shared device.
                CREATE TABLE shared_device_sign_in (
                    device_id TEXT NOT NULL REFERENCES shared_device(id),
                    user_id TEXT NOT NULL REFERENCES staff_user(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    signed_in_at_ms INTEGER NOT NULL,
                    second_factor INTEGER NOT NULL CHECK (second_factor IN (0, 1)),
                    PRIMARY KEY (device_id, user_id)
                );
                """)
    }

    private static func passkeys(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Staff members' passkeys: the public key and what a sign-in with it is checked
                -- against (its site, its origin, the authenticator's counter, the last challenge
                -- it answered, so one answer is taken once).
                CREATE TABLE passkey (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES staff_user(id),
                    practice_id TEXT NOT NULL REFERENCES practice(id),
                    credential_id BLOB NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1023),
                    public_key BLOB NOT NULL CHECK (length(public_key) = 65),
                    relying_party TEXT NOT NULL,
                    origin TEXT NOT NULL,
                    name TEXT NOT NULL,
                    sign_count INTEGER NOT NULL CHECK (sign_count >= 0),
                    last_challenge TEXT,
                    created_at_ms INTEGER NOT NULL,
                    last_used_at_ms INTEGER
                );
                CREATE INDEX passkey_user ON passkey (practice_id, user_id, created_at_ms);
                """)
    }

    /// Owners' phone numbers and email addresses leave the search index: it holds keyed tokens
    /// of them instead (`contact_tokens`, computed with the record key, so written by the
    /// store's sealing pass that follows the migrations, which also seals the details).
    private static func sealedContactDetails(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE owner RENAME COLUMN phone_digits TO contact_tokens;
                UPDATE owner SET contact_tokens = '';
                DELETE FROM patient_search;
                """)
        try db.execute(sql: VetNetStore.searchRowsSQL)
        try db.execute(sql: "INSERT INTO patient_search (patient_search) VALUES ('optimize')")
    }
}
