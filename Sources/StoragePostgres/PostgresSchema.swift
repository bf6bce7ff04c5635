import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL schema as a frozen list of migrations, applied in order and recorded in
/// `vetnet_migration`; a shipped migration is never edited, a change is a new one.
///
/// Invariants live here, where every instance sharing the database meets them:
/// - a clinician or a room is never double-booked: exclusion constraints over the occupied
///   range (`btree_gist`), checked by the database whichever instance inserts;
/// - practice isolation as row-level security (`FORCE`d, so it binds the owning role too):
///   a transaction sees only the rows of the practice in `vetnet.practice_id`, or every
///   practice when it says `installation` (sign-in before the practice is known,
///   housekeeping). A role with `BYPASSRLS` or superuser rights skips these policies, so the
///   server connects as an ordinary role (docs/postgresql.md);
/// - the audit trail is append-only (a trigger refuses UPDATE and DELETE) and its head is one
///   row that each append locks, so the chain stays linear across instances;
/// - each practice's event numbers come from its `event_head` row, locked by the append
///   until commit: gapless and in commit order.
public enum PostgresSchema {
    /// Row-level security on practice-owned `tables`: forced (it binds the owning role too), a
    /// row visible only to a transaction acting for its practice, or for the installation.
    static func rowLevelSecurity(_ tables: [String]) -> String {
        tables.map { table in
            """
            ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY;
            ALTER TABLE \(table) FORCE ROW LEVEL SECURITY;
            CREATE POLICY \(table)_tenant ON \(table)
                USING (current_setting('vetnet.practice_id', true) IN (practice_id::text, 'installation'));
            """
        }.joined(separator: "\n")
    }

    /// Name and SQL of each migration, in order.
    static let migrations: [(name: String, sql: String)] = [
        (
            "pg-1 accounts, sessions, audit, events, appointments",
            """
            CREATE EXTENSION IF NOT EXISTS btree_gist;

            CREATE TABLE practice (
                id uuid PRIMARY KEY,
                name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
                time_zone text NOT NULL,
                profile jsonb NOT NULL,
                created_at timestamptz NOT NULL,
                version integer NOT NULL DEFAULT 1
            );

            CREATE TABLE staff_user (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                email text NOT NULL CHECK (email = lower(email)),
                display_name text NOT NULL,
                role text NOT NULL CHECK (role IN ('administrator', 'veterinarian', 'technician', 'receptionist')),
                password_hash text NOT NULL,
                disabled boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL,
                version integer NOT NULL DEFAULT 1,
                UNIQUE (practice_id, email)
            );
            CREATE INDEX staff_user_email ON staff_user (email);

            CREATE TABLE session (
                token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
                user_id uuid NOT NULL REFERENCES staff_user(id),
                practice_id uuid NOT NULL REFERENCES practice(id),
                created_at_ms bigint NOT NULL,
                last_seen_at_ms bigint NOT NULL,
                expires_at_ms bigint NOT NULL,
                revoked_at_ms bigint
            );
            CREATE INDEX session_by_user ON session (user_id);

            CREATE TABLE audit_head (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                seq bigint NOT NULL,
                hash text NOT NULL
            );
            INSERT INTO audit_head (seq, hash) VALUES (0, repeat('0', 64));
            CREATE TABLE audit_entry (
                seq bigint PRIMARY KEY,
                id uuid NOT NULL UNIQUE,
                occurred_at text NOT NULL,
                practice_id text,
                actor_id text,
                action text NOT NULL,
                resource_type text NOT NULL,
                resource_id text,
                outcome text NOT NULL CHECK (outcome IN ('success', 'denied', 'failure')),
                request_id text,
                detail text,
                prev_hash text NOT NULL,
                hash text NOT NULL
            );
            CREATE INDEX audit_entry_practice ON audit_entry (practice_id, seq);
            CREATE FUNCTION audit_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'audit entries are append-only'; END $$;
            CREATE TRIGGER audit_entry_no_change BEFORE UPDATE OR DELETE ON audit_entry
                FOR EACH ROW EXECUTE FUNCTION audit_entry_append_only();

            CREATE TABLE event_head (
                practice_id uuid PRIMARY KEY REFERENCES practice(id),
                seq bigint NOT NULL,
                pruned_through bigint NOT NULL DEFAULT 0
            );
            CREATE TABLE event_log (
                practice_id uuid NOT NULL REFERENCES practice(id),
                seq bigint NOT NULL,
                kind text NOT NULL,
                occurred_at_ms bigint NOT NULL,
                resource_type text,
                resource_id text,
                actor_id text,
                payload jsonb NOT NULL,
                PRIMARY KEY (practice_id, seq)
            );
            CREATE INDEX event_log_time ON event_log (occurred_at_ms);

            CREATE TABLE appointment (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                clinician_id uuid NOT NULL,
                appointment_type_id uuid NOT NULL,
                room_type text,
                room_id uuid,
                start_ms bigint NOT NULL,
                end_ms bigint NOT NULL,
                occupied_end_ms bigint NOT NULL,
                status text NOT NULL CHECK (status IN ('booked', 'checked_in', 'in_progress', 'completed', 'cancelled',
                    'no_show')),
                holds_time boolean NOT NULL,
                reason text,
                created_at timestamptz NOT NULL,
                version integer NOT NULL DEFAULT 1,
                CHECK (end_ms > start_ms AND occupied_end_ms >= end_ms AND occupied_end_ms - start_ms <= 86400000),
                CONSTRAINT appointment_clinician_overlap EXCLUDE USING gist (
                    practice_id WITH =, clinician_id WITH =, int8range(start_ms,
                        occupied_end_ms) WITH &&) WHERE (holds_time),
                CONSTRAINT appointment_room_overlap EXCLUDE USING gist (
                    practice_id WITH =, room_id WITH =, int8range(start_ms,
                        occupied_end_ms) WITH &&) WHERE (holds_time AND room_id IS NOT NULL)
            );
            CREATE INDEX appointment_practice_time ON appointment (practice_id, start_ms);
            """
        ),
        (
            "pg-2 row-level security by practice",
            """
            ALTER TABLE practice ENABLE ROW LEVEL SECURITY;
            ALTER TABLE practice FORCE ROW LEVEL SECURITY;
            CREATE POLICY practice_tenant ON practice
                USING (current_setting('vetnet.practice_id', true) IN (id::text, 'installation'));
            \(rowLevelSecurity(["staff_user", "session", "event_head", "event_log", "appointment"]))
            -- The chain is one for the installation: any transaction appends (its head row is
            -- what orders appends), but a practice reads only its own entries.
            ALTER TABLE audit_entry ENABLE ROW LEVEL SECURITY;
            ALTER TABLE audit_entry FORCE ROW LEVEL SECURITY;
            CREATE POLICY audit_entry_append ON audit_entry FOR INSERT WITH CHECK (true);
            CREATE POLICY audit_entry_read ON audit_entry FOR SELECT
                USING (current_setting('vetnet.practice_id', true) IN (practice_id, 'installation'));
            """
        ),
        (
            "pg-3 owners, patients, search",
            """
            -- Per-practice counters (medical record numbers): the upsert that advances one locks
            -- its row until commit, so numbers are gap-free and never handed out twice.
            CREATE TABLE practice_counter (
                practice_id uuid NOT NULL REFERENCES practice(id),
                name text NOT NULL,
                value bigint NOT NULL CHECK (value >= 1),
                PRIMARY KEY (practice_id, name)
            );

            CREATE TABLE owner (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                first_name text NOT NULL,
                last_name text NOT NULL,
                email text,
                phones jsonb NOT NULL CHECK (jsonb_typeof(phones) = 'array'),
                address jsonb,
                communication jsonb NOT NULL,
                notes text,
                archived_at timestamptz,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version integer NOT NULL DEFAULT 1,
                UNIQUE (practice_id, id)
            );
            CREATE INDEX owner_practice_name ON owner (practice_id, last_name, first_name);

            -- Names sort by code point ("C"), as the embedded store's BINARY collation does, so
            -- both stores page in the same order whatever the database's locale. The owners are
            -- referenced with the practice, so a patient can never point at another practice's owner.
            CREATE TABLE patient (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                mrn text NOT NULL,
                name text COLLATE "C" NOT NULL,
                species text NOT NULL CHECK (species IN ('dog', 'cat', 'rabbit', 'ferret', 'bird', 'horse', 'reptile',
                    'other')),
                breed text,
                sex text NOT NULL,
                birth_date date,
                birth_date_estimated boolean NOT NULL DEFAULT false,
                colour text,
                microchip text,
                status text NOT NULL CHECK (status IN ('active', 'deceased', 'archived')),
                alerts jsonb NOT NULL CHECK (jsonb_typeof(alerts) = 'array'),
                owner_id uuid NOT NULL,
                co_owner_id uuid,
                archived_at timestamptz,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version integer NOT NULL DEFAULT 1,
                UNIQUE (practice_id, mrn),
                UNIQUE (practice_id, id),
                FOREIGN KEY (practice_id, owner_id) REFERENCES owner (practice_id, id),
                FOREIGN KEY (practice_id, co_owner_id) REFERENCES owner (practice_id, id)
            );
            CREATE UNIQUE INDEX patient_microchip ON patient (practice_id, microchip) WHERE microchip IS NOT NULL;
            CREATE INDEX patient_owner ON patient (owner_id);
            CREATE INDEX patient_co_owner ON patient (co_owner_id) WHERE co_owner_id IS NOT NULL;
            CREATE INDEX patient_practice_name ON patient (practice_id, name, id);

            -- Patient search: one row per folded word of a patient's name, its owners' names and
            -- phones, record number and microchip (cut and folded by the store, see
            -- PatientSearchTerms). A prefix is a range of the primary key, whose index also
            -- carries the patient's name, species and status: a search reads only index
            -- entries of the matching words, sorts them by name and fetches just one page of
            -- patients. Not a tsvector with a GIN index: under FORCE'd row-level security
            -- PostgreSQL evaluates the policy before any operator not marked LEAKPROOF, and `@@`
            -- is not, so the GIN index is never used (every search read every patient: 72 ms
            -- median at 100,000). Btree comparisons of text and uuid are leakproof. The copied
            -- columns are rewritten with the words whenever the patient changes.
            CREATE TABLE patient_word (
                practice_id uuid NOT NULL,
                word text COLLATE "C" NOT NULL,
                patient_id uuid NOT NULL,
                name text COLLATE "C" NOT NULL,
                species text NOT NULL,
                status text NOT NULL,
                PRIMARY KEY (practice_id, word, patient_id) INCLUDE (name, species, status),
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id) ON DELETE CASCADE
            );
            CREATE INDEX patient_word_patient ON patient_word (patient_id);

            -- A repeated create with the same Idempotency-Key answers with the first result.
            -- The primary key is the claim: two instances receiving the same retry at once create
            -- one resource, the second waiting for the first to commit. A key belongs to one
            -- operation of one account (any other use is refused); `resource_id` is filled in by
            -- the creating transaction before it commits.
            CREATE TABLE idempotency_key (
                practice_id uuid NOT NULL REFERENCES practice(id),
                key text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
                operation text NOT NULL,
                fingerprint text NOT NULL,
                resource_id text,
                actor_id text,
                created_at_ms bigint NOT NULL,
                PRIMARY KEY (practice_id, key)
            );
            CREATE INDEX idempotency_key_age ON idempotency_key (created_at_ms);
            \(rowLevelSecurity(["practice_counter", "owner", "patient", "idempotency_key"]))
            -- Search words are read by one practice at a time only, so their policy is a plain
            -- equality with the setting: the planner turns it into a one-time check instead of
            -- evaluating it on every index entry a prefix covers (twice as fast on common
            -- prefixes), and sees real row counts. `installation` sees no words: housekeeping
            -- works on patients, and deleting one cascades to its words.
            ALTER TABLE patient_word ENABLE ROW LEVEL SECURITY;
            ALTER TABLE patient_word FORCE ROW LEVEL SECURITY;
            CREATE POLICY patient_word_tenant ON patient_word
                USING (practice_id = NULLIF(NULLIF(current_setting('vetnet.practice_id', true), ''),
                    'installation')::uuid);
            """
        ),
        (
            "pg-4 scheduling: clinicians, availability, rooms, appointment types",
            """
            -- A clinician as their domain value in JSON (expertise, species, preferences): read
            -- whole, never searched inside; `active` and the name are columns for filtering and order.
            CREATE TABLE clinician (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                display_name text NOT NULL,
                definition jsonb NOT NULL,
                active boolean NOT NULL DEFAULT true,
                created_at timestamptz NOT NULL,
                version integer NOT NULL DEFAULT 1
            );
            CREATE INDEX clinician_practice ON clinician (practice_id, display_name);

            CREATE TABLE clinician_availability (
                clinician_id uuid PRIMARY KEY REFERENCES clinician(id),
                practice_id uuid NOT NULL REFERENCES practice(id),
                availability jsonb NOT NULL,
                version integer NOT NULL
            );
            CREATE INDEX clinician_availability_practice ON clinician_availability (practice_id);

            CREATE TABLE room (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                name text NOT NULL,
                type text NOT NULL,
                active boolean NOT NULL DEFAULT true,
                UNIQUE (practice_id, name)
            );

            CREATE TABLE appointment_type (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                name text NOT NULL,
                definition jsonb NOT NULL,
                UNIQUE (practice_id, name)
            );

            -- The lifecycle of an appointment after booking, and what a booking may carry.
            ALTER TABLE appointment
                ADD COLUMN checked_in_at_ms bigint,
                ADD COLUMN started_at_ms bigint,
                ADD COLUMN completed_at_ms bigint,
                ADD COLUMN actual_minutes integer,
                ADD COLUMN cancellation_reason text,
                ADD COLUMN cancelled_at_ms bigint,
                ADD COLUMN staff_notes text;
            CREATE INDEX appointment_clinician_time ON appointment (practice_id, clinician_id, start_ms);
            CREATE INDEX appointment_room_type_time ON appointment (practice_id, room_type,
                start_ms) WHERE room_type IS NOT NULL;
            \(rowLevelSecurity(["clinician", "clinician_availability", "room", "appointment_type"]))
            """
        ),
        (
            "pg-5 sign-in attempts",
            """
            -- The sign-in throttle's counts, shared by every instance. Keys are hashes of the
            -- account and the client address (no practice is known before sign-in, so no
            -- row-level security); an attempt counts against both, pending until checked.
            CREATE TABLE sign_in_attempt (
                ticket uuid NOT NULL,
                key text NOT NULL,
                at_ms bigint NOT NULL,
                pending boolean NOT NULL,
                PRIMARY KEY (key, ticket)
            );
            CREATE INDEX sign_in_attempt_ticket ON sign_in_attempt (ticket);
            CREATE INDEX sign_in_attempt_time ON sign_in_attempt (at_ms);
            """
        ),
        (
            "pg-6 medical records, visits, documents",
            """
            -- A patient's record entries, one table per kind as the embedded store keeps them:
            -- exact decimals as the text entered, record days as dates, times as milliseconds
            -- (the embedded store's precision). Each refers to its patient with the practice, so
            -- an entry can never point at another practice's patient; `seq` keeps insertion order
            -- among entries written at the same moment.
            CREATE TABLE weight (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                value text NOT NULL,
                unit text NOT NULL CHECK (unit IN ('kg', 'g', 'lb')),
                grams bigint NOT NULL CHECK (grams > 0),
                measured_at_ms bigint NOT NULL,
                recorded_by text,
                created_at_ms bigint NOT NULL,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX weight_patient ON weight (practice_id, patient_id, measured_at_ms);

            CREATE TABLE problem (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                name text NOT NULL,
                status text NOT NULL CHECK (status IN ('active', 'resolved')),
                onset_date date,
                resolved_date date,
                created_at_ms bigint NOT NULL,
                version integer NOT NULL DEFAULT 1,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX problem_patient ON problem (practice_id, patient_id);

            CREATE TABLE allergy (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                substance text NOT NULL,
                reaction text,
                severity text NOT NULL CHECK (severity IN ('mild', 'moderate', 'severe', 'life_threatening')),
                created_at_ms bigint NOT NULL,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX allergy_patient ON allergy (practice_id, patient_id);

            CREATE TABLE medication (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                drug text NOT NULL,
                concentration_mg_per_ml text NOT NULL,
                dose_mg_per_kg text NOT NULL,
                route text NOT NULL,
                frequency text NOT NULL,
                start_date date NOT NULL,
                end_date date,
                prescribed_by text,
                created_at_ms bigint NOT NULL,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX medication_patient ON medication (practice_id, patient_id);

            CREATE TABLE vaccination (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                vaccine text NOT NULL,
                administered_date date NOT NULL,
                batch text,
                next_due_date date,
                created_at_ms bigint NOT NULL,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX vaccination_patient ON vaccination (practice_id, patient_id);
            CREATE INDEX vaccination_due ON vaccination (practice_id, next_due_date) WHERE next_due_date IS NOT NULL;

            -- Notes and addenda hold their text sealed with the record key (AES-GCM, bound to the
            -- practice and the entry's id, exactly as the embedded store seals it). They are
            -- append-only: corrections are addenda, and only the purge of an archived patient
            -- may delete them (a trigger, so no instance and no hand-written statement can).
            CREATE TABLE clinical_note (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                author_id uuid NOT NULL,
                author_name text NOT NULL,
                created_at_ms bigint NOT NULL,
                sealed_text bytea NOT NULL,
                UNIQUE (practice_id, id),
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX clinical_note_patient ON clinical_note (practice_id, patient_id, created_at_ms);
            CREATE TABLE note_addendum (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                note_id uuid NOT NULL,
                patient_id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                author_id uuid NOT NULL,
                author_name text NOT NULL,
                created_at_ms bigint NOT NULL,
                sealed_text bytea NOT NULL,
                FOREIGN KEY (practice_id, note_id) REFERENCES clinical_note (practice_id, id),
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX note_addendum_patient ON note_addendum (practice_id, patient_id, created_at_ms);
            CREATE INDEX note_addendum_note ON note_addendum (note_id);
            CREATE FUNCTION clinical_text_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' AND (SELECT status FROM patient WHERE id = OLD.patient_id) = 'archived' THEN
                    RETURN OLD;
                END IF;
                RAISE EXCEPTION '% rows are append-only: a correction is an addendum', TG_TABLE_NAME;
            END $$;
            CREATE TRIGGER clinical_note_append_only BEFORE UPDATE OR DELETE ON clinical_note
                FOR EACH ROW EXECUTE FUNCTION clinical_text_append_only();
            CREATE TRIGGER note_addendum_append_only BEFORE UPDATE OR DELETE ON note_addendum
                FOR EACH ROW EXECUTE FUNCTION clinical_text_append_only();

            -- The record of one visit as its domain value (JSON), with the columns the recall
            -- list and the history read. One visit per appointment, whichever instance records it.
            CREATE TABLE visit (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                appointment_id uuid UNIQUE REFERENCES appointment(id),
                clinician_id uuid REFERENCES clinician(id),
                occurred_at_ms bigint NOT NULL,
                record jsonb NOT NULL CHECK (jsonb_typeof(record) = 'object'),
                follow_up_date date,
                recorded_by text,
                created_at_ms bigint NOT NULL,
                version integer NOT NULL DEFAULT 1,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX visit_patient ON visit (practice_id, patient_id, occurred_at_ms);
            CREATE INDEX visit_follow_up ON visit (practice_id, follow_up_date) WHERE follow_up_date IS NOT NULL;

            -- Documents: the metadata, and the content in the database itself — every instance
            -- serves every document, none keeps it on its own disk. The content is the sealed
            -- upload file (VNDOC2: AES-GCM boxes of 64 KiB bound to a random file id, their
            -- index and whether they are the last) cut into rows of 1 MiB, written in the
            -- transaction that records the document. It is ciphertext, so compressing it is
            -- wasted work: stored out of line as it is.
            CREATE TABLE document (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                file_name text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 200),
                content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
                byte_count integer NOT NULL CHECK (byte_count > 0),
                sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
                uploaded_by text,
                created_at_ms bigint NOT NULL,
                UNIQUE (practice_id, id),
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX document_patient ON document (practice_id, patient_id, created_at_ms);
            CREATE TABLE document_chunk (
                document_id uuid NOT NULL,
                practice_id uuid NOT NULL,
                seq integer NOT NULL CHECK (seq >= 0),
                bytes bytea NOT NULL,
                PRIMARY KEY (document_id, seq),
                FOREIGN KEY (practice_id, document_id) REFERENCES document (practice_id, id) ON DELETE CASCADE
            );
            ALTER TABLE document_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL;
            \(rowLevelSecurity(["weight", "problem", "allergy", "medication", "vaccination",
               "clinical_note", "note_addendum", "visit", "document",
               "document_chunk"]))
            """
        ),
        (
            "pg-7 triage: assessments, the board, arrivals, intake rankings",
            """
            -- Assessments as the embedded store keeps them (the case and result as the wire
            -- format's JSON), the ER board (one entry per patient, following the latest
            -- assessment), the triaged arrivals VTL compliance is measured on, and the
            -- clinicians an intake ranked for an assessment (so a booking made from it records
            -- what it was booked on). Patient rows are referenced within the practice.
            CREATE TABLE triage_assessment (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                assessor_id text,
                arrival_at_ms bigint NOT NULL,
                assessed_at_ms bigint NOT NULL,
                level integer NOT NULL CHECK (level BETWEEN 1 AND 5),
                rules_version text NOT NULL,
                case_json text NOT NULL,
                result_json text NOT NULL,
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX triage_assessment_patient ON triage_assessment (practice_id, patient_id, assessed_at_ms);

            CREATE TABLE triage_queue (
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                assessment_id uuid NOT NULL,
                level integer NOT NULL CHECK (level BETWEEN 1 AND 5),
                arrival_at_ms bigint NOT NULL,
                assessed_at_ms bigint NOT NULL,
                status text NOT NULL,
                status_changed_at_ms bigint NOT NULL,
                PRIMARY KEY (practice_id, patient_id),
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX triage_queue_active ON triage_queue (practice_id) WHERE status IN ('waiting', 'inTreatment');

            CREATE TABLE triage_arrival (
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                arrival_at_ms bigint NOT NULL,
                level integer NOT NULL CHECK (level BETWEEN 1 AND 5),
                first_seen_at_ms bigint,
                PRIMARY KEY (practice_id, patient_id, arrival_at_ms),
                FOREIGN KEY (practice_id, patient_id) REFERENCES patient (practice_id, id)
            );
            CREATE INDEX triage_arrival_time ON triage_arrival (practice_id, arrival_at_ms);

            CREATE TABLE intake_ranking (
                id uuid PRIMARY KEY,
                practice_id uuid NOT NULL REFERENCES practice(id),
                patient_id uuid NOT NULL,
                appointment_type_id uuid,
                ranking jsonb NOT NULL CHECK (jsonb_typeof(ranking) = 'array'),
                created_at timestamptz NOT NULL
            );

            -- What an intake booking was booked on: the assessment, its level and the match.
            ALTER TABLE appointment
                ADD COLUMN assessment_id uuid,
                ADD COLUMN triage_level integer CHECK (triage_level BETWEEN 1 AND 5),
                ADD COLUMN match_basis jsonb;
            \(rowLevelSecurity(["triage_assessment", "triage_queue", "triage_arrival", "intake_ranking"]))
            """
        ),
        (
            "pg-8 calendar feeds",
            """
            -- Calendar feeds: only a hash of each unguessable token is stored. A feed is looked
            -- up by its hash before any practice is known (an installation-wide read), and a
            -- clinician's feeds are revoked together, when asked or when they retire.
            CREATE TABLE calendar_feed (
                token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
                practice_id uuid NOT NULL REFERENCES practice(id),
                clinician_id uuid NOT NULL REFERENCES clinician(id),
                created_at timestamptz NOT NULL,
                revoked_at timestamptz
            );
            CREATE INDEX calendar_feed_clinician ON calendar_feed (practice_id, clinician_id) WHERE revoked_at IS NULL;
            \(rowLevelSecurity(["calendar_feed"]))
            -- A patient's appointments, past and future ("when was Rex last in?").
            CREATE INDEX appointment_patient_time ON appointment (practice_id, patient_id, start_ms);
            """
        ),
        (
            "pg-9 practice settings, analytics versions",
            """
            -- Where each practice's records stand for analytics: `analytics_version` moves with
            -- writes to appointments and triage arrivals, `config_version` with writes to the
            -- configuration (clinicians, availability, rooms, appointment types, the practice's
            -- settings). Both are moved by triggers, so every writer, whatever its statement,
            -- moves them. A transaction moves each at most once (the value it took is kept in a
            -- transaction-local setting): updating the practice row once per written row would
            -- make a bulk load slower with every row, and the row lock the first move takes
            -- until commit orders the versions as the commits.
            ALTER TABLE practice
                ADD COLUMN analytics_version bigint NOT NULL DEFAULT 0,
                ADD COLUMN config_version bigint NOT NULL DEFAULT 0;

            -- The analytics version an appointment was last written under: what changed since
            -- a version is an index range read.
            ALTER TABLE appointment ADD COLUMN analytics_stamp bigint NOT NULL DEFAULT 0;
            CREATE INDEX appointment_analytics_stamp ON appointment (practice_id, analytics_stamp);

            -- What the stamps cannot tell: appointments that left a practice's records (deleted,
            -- or moved to another id, practice or patient), and every triage arrival written or
            -- removed (that table is another migration's and carries no stamp; an arrival named
            -- here is taken out of an indexed history and read back by its key). Kept for the
            -- last 100,000 versions of the practice; older histories are read afresh.
            CREATE TABLE analytics_change (
                practice_id uuid NOT NULL REFERENCES practice(id),
                stamp bigint NOT NULL,
                appointment_id uuid,
                patient_id uuid NOT NULL,
                arrival_at_ms bigint
            );
            CREATE INDEX analytics_change_stamp ON analytics_change (practice_id, stamp);
            ALTER TABLE analytics_change ENABLE ROW LEVEL SECURITY;
            ALTER TABLE analytics_change FORCE ROW LEVEL SECURITY;
            CREATE POLICY analytics_change_tenant ON analytics_change
                USING (current_setting('vetnet.practice_id', true) IN (practice_id::text, 'installation'));

            CREATE FUNCTION analytics_bump(target uuid) RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
                setting text := 'vetnet.analytics_' || replace(target::text, '-', '');
                taken bigint := NULLIF(current_setting(setting, true), '')::bigint;
            BEGIN
                IF taken IS NULL THEN
                    UPDATE practice SET analytics_version = analytics_version + 1 WHERE id = target
                        RETURNING analytics_version INTO taken;
                    IF taken IS NULL THEN RAISE EXCEPTION 'practice % not found for its analytics version',
                        target; END IF;
                    PERFORM set_config(setting, taken::text, true);
                    DELETE FROM analytics_change WHERE practice_id = target AND stamp <= taken - 100000;
                END IF;
                RETURN taken;
            END $$;

            CREATE FUNCTION config_bump(target uuid) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                setting text := 'vetnet.config_' || replace(target::text, '-', '');
                taken bigint;
            BEGIN
                IF NULLIF(current_setting(setting, true), '') IS NULL THEN
                    UPDATE practice SET config_version = config_version + 1 WHERE id = target
                        RETURNING config_version INTO taken;
                    PERFORM set_config(setting, COALESCE(taken, 0)::text, true);
                END IF;
            END $$;

            CREATE FUNCTION appointment_analytics() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    INSERT INTO analytics_change (practice_id, stamp, appointment_id, patient_id)
                    VALUES (OLD.practice_id, analytics_bump(OLD.practice_id), OLD.id, OLD.patient_id);
                    RETURN OLD;
                END IF;
                IF TG_OP = 'UPDATE' THEN
                    IF OLD.id <> NEW.id OR OLD.practice_id <> NEW.practice_id OR OLD.patient_id <> NEW.patient_id THEN
                        INSERT INTO analytics_change (practice_id, stamp, appointment_id, patient_id)
                        VALUES (OLD.practice_id, analytics_bump(OLD.practice_id), OLD.id, OLD.patient_id);
                    END IF;
                END IF;
                NEW.analytics_stamp := analytics_bump(NEW.practice_id);
                RETURN NEW;
            END $$;
            CREATE TRIGGER appointment_analytics BEFORE INSERT OR UPDATE OR DELETE ON appointment
                FOR EACH ROW EXECUTE FUNCTION appointment_analytics();

            -- Arrivals, once their table exists (it is created by an earlier migration of the
            -- triage context on databases that have it).
            CREATE FUNCTION triage_arrival_analytics() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    INSERT INTO analytics_change (practice_id, stamp, patient_id, arrival_at_ms)
                    VALUES (OLD.practice_id, analytics_bump(OLD.practice_id), OLD.patient_id, OLD.arrival_at_ms);
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    INSERT INTO analytics_change (practice_id, stamp, patient_id, arrival_at_ms)
                    VALUES (NEW.practice_id, analytics_bump(NEW.practice_id), NEW.patient_id, NEW.arrival_at_ms);
                END IF;
                RETURN NULL;
            END $$;
            DO $$ BEGIN
                IF to_regclass('triage_arrival') IS NOT NULL THEN
                    CREATE TRIGGER triage_arrival_analytics AFTER INSERT OR UPDATE OR DELETE ON triage_arrival
                        FOR EACH ROW EXECUTE FUNCTION triage_arrival_analytics();
                END IF;
            END $$;

            -- History reads take the species from the patient: a corrected species is a change
            -- to the patient's appointments and arrivals.
            CREATE FUNCTION patient_species_analytics() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE appointment SET analytics_stamp = analytics_stamp WHERE practice_id = NEW.practice_id
                    AND patient_id = NEW.id;
                IF to_regclass('triage_arrival') IS NOT NULL THEN
                    EXECUTE 'INSERT INTO analytics_change (practice_id, stamp, patient_id, arrival_at_ms)
                             SELECT practice_id, analytics_bump(practice_id), patient_id,
                                 arrival_at_ms FROM triage_arrival
                             WHERE practice_id = $1 AND patient_id = $2' USING NEW.practice_id, NEW.id;
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER patient_species_analytics AFTER UPDATE OF species ON patient
                FOR EACH ROW WHEN (OLD.species IS DISTINCT
                    FROM NEW.species) EXECUTE FUNCTION patient_species_analytics();

            CREATE FUNCTION configuration_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN PERFORM config_bump(OLD.practice_id);
                    ELSE PERFORM config_bump(NEW.practice_id); END IF;
                RETURN NULL;
            END $$;
            \(["clinician", "clinician_availability", "room", "appointment_type"].map { table in """
                CREATE TRIGGER \(table)_configuration AFTER INSERT OR UPDATE OR DELETE ON \(table)
                    FOR EACH ROW EXECUTE FUNCTION configuration_changed();
                """ }.joined(separator: "\n"))
            -- The practice's own settings: any change of its profile, name or zone (the version
            -- columns' own moves leave these alone, and so do not count).
            CREATE FUNCTION practice_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.config_version := OLD.config_version + 1;
                RETURN NEW;
            END $$;
            CREATE TRIGGER practice_settings_changed BEFORE UPDATE ON practice FOR EACH ROW
                WHEN (OLD.profile IS DISTINCT FROM NEW.profile OR OLD.name IS DISTINCT FROM NEW.name
                    OR OLD.time_zone IS DISTINCT FROM NEW.time_zone)
                EXECUTE FUNCTION practice_settings_changed();
            """
        ),
        (
            "pg-10 installation key fingerprints",
            """
            -- Every instance on the database must hold the installation's keys: an instance
            -- with another audit key would fork the chain, one with another record key would
            -- seal notes no other instance can open. One row of keyed fingerprints (never the
            -- keys) lets an instance with a wrong key refuse to start.
            CREATE TABLE installation_key (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                audit_key_check text NOT NULL,
                record_key_check text NOT NULL
            );
            """
        ),
        (
            "pg-11 idempotency keys of each account",
            """
            -- A key names one request of one account: another account's same key is a request
            -- of its own, not a conflict with the first.
            ALTER TABLE idempotency_key DROP CONSTRAINT idempotency_key_pkey;
            CREATE UNIQUE INDEX idempotency_key_claim ON idempotency_key (practice_id, COALESCE(actor_id, ''), key);
            """
        ),
        (
            headSignatureMigration,
            """
            -- The head of the chain signed with the audit key (written with every append): a head
            -- moved back by someone without the key to match a cut chain fails verify.
            ALTER TABLE audit_head ADD COLUMN signature text;
            """
        ),
        (runtimeRoleMigration, runtimeRoleSQL),
        (practiceReferencesMigration, practiceReferencesSQL),
        (triageJudgementMigration, triageJudgementSQL),
        (recordCorrectionsMigration, recordCorrectionsSQL),
        (appointmentNotesMigration, appointmentNotesSQL),
        (ownersFoundByEmailMigration, ownersFoundByEmailSQL),
        (secondFactorMigration, secondFactorSQL),
        (sharedDevicesMigration, sharedDevicesSQL),
        (passkeysMigration, passkeysSQL),
        (sealedFieldsMigration, sealedFieldsSQL),
        (auditChainPerPracticeMigration, auditChainPerPracticeSQL),
    ]

    /// The migration that added the head's signature: the process that applies it signs the
    /// existing head (``PostgresStore/signAuditHeadAfterUpgrade()``).
    public static let headSignatureMigration = "pg-12 signed audit head"

    /// Applies the migrations not yet recorded, each in its own transaction, under an
    /// advisory lock so instances starting together do not race, then grants every runtime
    /// role recorded (and `runtimeRole`, recorded now) what serving needs. Returns the names
    /// applied. A schema already current is only read, so a runtime role may call this too;
    /// one that is not current needs its owner (``MigrationNeedsOwner``).
    @discardableResult
    public static func migrate(_ client: PostgresClient, runtimeRole: String? = nil, logger: Logger) async throws
        -> [String]
    {
        if let runtimeRole, !isPlainRoleName(runtimeRole) {
            throw RuntimeRoleRefused(
                role: runtimeRole, reason: "must be a plain lower-case role name (letters, digits, _)")
        }
        let (current, ownsSchema) = try await client.withConnection { connection -> (Set<String>?, Bool) in
            var owns = true
            // No schema yet: whoever creates it will own it.
            for try await row in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(connectedRoleOwnsSchemaSQL)"), logger: logger
            )
            .decode(Bool?.self) { owns = row ?? true }
            var names: Set<String>?
            for try await exists in try await connection.query(
                "SELECT to_regclass('public.vetnet_migration') IS NOT NULL", logger: logger
            )
            .decode(Bool.self) where exists {
                names = []
                for try await name in try await connection.query("SELECT name FROM vetnet_migration", logger: logger)
                    .decode(String.self)
                {
                    names?.insert(name)
                }
            }
            return (names, owns)
        }
        let pending = migrations.map(\.name).filter { !(current?.contains($0) ?? false) }
        if pending.isEmpty && runtimeRole == nil { return [] }
        if !ownsSchema { throw MigrationNeedsOwner(pending: pending) }
        do {
            return try await applyMigrations(client, runtimeRole: runtimeRole, logger: logger)
        } catch let error as PostgresTransactionError {
            // A refusal of ours inside the transaction is the answer, not the wrapper.
            if let refusal = error.closureError as? RuntimeRoleRefused { throw refusal }
            throw error
        }
    }

    /// Applies the migrations before `name` only (and grants nothing): a database as an
    /// earlier version left it, for the tests of an upgrade.
    package static func migrate(_ client: PostgresClient, stoppingBefore name: String, logger: Logger) async throws {
        try await applyMigrations(client, runtimeRole: nil, stoppingBefore: name, logger: logger)
    }

    @discardableResult
    private static func applyMigrations(
        _ client: PostgresClient, runtimeRole: String?, stoppingBefore: String? = nil, logger: Logger
    ) async throws -> [String] {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7242019)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS vetnet_migration (name text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM vetnet_migration", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                if migration.name == stoppingBefore { return done }
                // Statements one by one: the extended protocol takes one statement per query.
                for statement in statements(of: migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO vetnet_migration (name) VALUES (\(migration.name))", logger: logger)
                done.append(migration.name)
            }
            if let runtimeRole {
                for try await owner in try await connection.query(
                    "SELECT current_user::text = \(runtimeRole)", logger: logger
                )
                .decode(Bool.self) where owner {
                    throw RuntimeRoleRefused(
                        role: runtimeRole, reason: "is the schema's owner; name the role the server connects as")
                }
                for try await exists in try await connection.query(
                    "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = \(runtimeRole))",
                    logger: logger
                ).decode(Bool.self) where !exists {
                    throw RuntimeRoleRefused(
                        role: runtimeRole,
                        reason:
                            """
                            no such role on this server (create it first: CREATE ROLE \(runtimeRole) LOGIN PASSWORD '…')
                            """
                    )
                }
                try await connection.query(
                    "INSERT INTO vetnet_runtime_role (name) VALUES (\(runtimeRole)) ON CONFLICT DO NOTHING",
                    logger: logger)
            }
            var roles: [String] = []
            for try await name in try await connection.query(
                "SELECT name FROM vetnet_runtime_role ORDER BY name", logger: logger
            ).decode(String.self) {
                roles.append(name)
            }
            for role in roles where isPlainRoleName(role) {
                try await grantRuntime(role, connection: connection, logger: logger)
            }
            return done
        }
    }

    /// Connects to `configuration`, applies what is missing, and disconnects (`vetnet migrate`).
    @discardableResult
    public static func migrate(
        _ configuration: PostgresDatabaseConfiguration, runtimeRole: String? = nil,
        logger: Logger
    ) async throws -> [String] {
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        do {
            return try await migrate(client, runtimeRole: runtimeRole, logger: logger)
        } catch let error as RuntimeRoleRefused {
            throw error
        } catch let error as MigrationNeedsOwner {
            throw error
        } catch let error as PSQLError where error.serverInfo != nil {
            throw DatabaseUnavailable(
                database: configuration.redacted, reason: error.serverInfo?[.message] ?? "the server refused")
        } catch let error as PSQLError {
            throw DatabaseUnavailable(database: configuration.redacted, reason: "\(error.code)")
        } catch is PostgresTransactionError {
            throw DatabaseUnavailable(database: configuration.redacted, reason: "the migration's transaction failed")
        } catch {
            // The pool's own errors (no server answering) say nothing a person can act on.
            throw DatabaseUnavailable(
                database: configuration.redacted,
                reason: "no connection could be made (is the server running and the URL right?)")
        }
    }

    /// The database could not be reached or refused the work; names it without its password.
    public struct DatabaseUnavailable: Error, CustomStringConvertible {
        /// The database, password redacted.
        public let database: String
        /// Why.
        public let reason: String
        public var description: String { "\(database): \(reason)" }
    }

    /// Splits a migration into statements at semicolons that end a line outside a
    /// dollar-quoted function body.
    static func statements(of sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("--") && current.isEmpty { continue }
            current += line + "\n"
            if text.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && text.hasSuffix(";") {
                statements.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                current = ""
            }
        }
        let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty { statements.append(rest) }
        return statements
    }
}
