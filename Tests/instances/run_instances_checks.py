#!/usr/bin/env python3
"""Two `vetnet serve` instances on one PostgreSQL database, checked end to end over HTTP:

- the booking race: 64 clients, half through each instance, book the same slots at the same
  moment: exactly one 201 per slot, every other answer 409;
- an overlapping appointment inserted directly into the database is refused by it;
- a booking made through instance A reaches an event stream opened on instance B in < 1 s;
- a session opened on A is valid on B, and one sign-out (on B) ends it on both;
- the sign-in throttle counts failures made through both instances together.

Needs `--database postgres://…` of an empty database (scripts/postgres-test-server gives
one) and `psql`. With `--runtime-database` (the same database as a role that owns nothing), the
owner migrates it (`vetnet migrate --runtime-role`) and both instances serve as that role, as a
deployment does. Exit status 0 only when every check passes."""
import argparse
import base64
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from vetnet_live import DEMO_ADMIN, EventStream, Server, call, read_until  # noqa: E402

CLIENTS = 64
SLOTS = 8


def free_slots(server: Server, token: str, type_id: str, count: int) -> list[dict]:
    """`count` free consultation slots in distinct hours, from the day after tomorrow on: slots
    that share no time cannot compete for a room, so each has exactly one rightful winner."""
    found: list[dict] = []
    seen: set[str] = set()
    for day in range(2, 60):
        start = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=day)
        query = (f"/api/v1/appointments/slots?from={start:%Y-%m-%dT%H:%M:%SZ}&to={start + timedelta(days=1):%Y-%m-%dT%H:%M:%SZ}"
                 f"&appointmentTypeId={type_id}&durationMinutes=15&limit=200")
        _, body = call(server.base, query, token=token)
        for slot in body["items"]:
            key = slot["start"][:13]
            if key not in seen:
                seen.add(key)
                found.append(slot)
                if len(found) == count:
                    return found
    raise RuntimeError(f"only {len(found)} free slots in the next 60 days")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vetnet", type=Path, default=Path(".build/debug/vetnet"))
    parser.add_argument("--database", default=os.environ.get("VETNET_TEST_DATABASE_URL"), help="postgres:// URL of an empty database")
    parser.add_argument("--runtime-database", default=None,
                        help="postgres:// URL of the same database as the runtime role the instances serve as")
    args = parser.parse_args()
    if not args.database:
        print("no database: pass --database or set VETNET_TEST_DATABASE_URL", file=sys.stderr)
        return 2
    results: list[tuple[str, bool]] = []

    def check(name: str, ok: bool, detail: str) -> None:
        results.append((name, ok))
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)

    # Every instance on one database shares the installation's keys.
    keys = {"VETNET_DATABASE_URL": args.runtime_database or args.database,
            "VETNET_AUDIT_KEY": base64.b64encode(os.urandom(32)).decode(),
            "VETNET_RECORD_KEY": base64.b64encode(os.urandom(32)).decode()}
    with tempfile.TemporaryDirectory(prefix="vetnet-instances-") as temporary:
        root = Path(temporary)
        if args.runtime_database:
            role = args.runtime_database.split("://", 1)[1].split(":", 1)[0].split("@", 1)[0]
            (root / "owner").mkdir(mode=0o700)
            migrated = subprocess.run([str(args.vetnet.resolve()), "migrate", "--database", args.database, "--data-dir", str(root / "owner"),
                                       "--runtime-role", role], capture_output=True, text=True,
                                      env={**os.environ, **keys, "VETNET_DATABASE_URL": args.database})
            check("the owner migrates and grants the runtime role", migrated.returncode == 0 and f"runtime role {role} granted" in migrated.stdout,
                  f"exit {migrated.returncode}: {(migrated.stdout + migrated.stderr).strip()[-200:]}")
        a = Server(args.vetnet.resolve(), root / "a", "instances-heron-4", root / "a.log", extra_env=keys)
        b = Server(args.vetnet.resolve(), root / "b", "instances-heron-4", root / "b.log", extra_env=keys)
        try:
            a.start()          # seeds the demo practice into the empty database
            b.start()          # finds it there: nothing seeded twice
            admin_a = a.login(DEMO_ADMIN)
            _, users = call(b.base, "/api/v1/users?limit=200", token=admin_a)
            check("one practice, seen by both", isinstance(users, dict) and len(users.get("items", [])) > 5,
                  f"instance B lists {len(users.get('items', [])) if isinstance(users, dict) else users} staff accounts with A's session")

            reception = a.login(a.account(admin_a, "receptionist"))
            _, types = call(a.base, "/api/v1/appointment-types", token=reception)
            consultation = next(t for t in types["items"] if t["name"] == "Consultation")
            _, patients = call(a.base, "/api/v1/patients?limit=50", token=reception)
            patient_ids = [item["patient"]["id"] for item in patients["items"]]

            # 1. The race: every slot asked for by 8 clients at once, 4 through each instance.
            slots = free_slots(a, reception, consultation["id"], SLOTS)
            answers: list[tuple[int, int]] = []
            lock = threading.Lock()
            barrier = threading.Barrier(CLIENTS)

            def client(index: int) -> None:
                slot = slots[index % SLOTS]
                server = a if index % 2 == 0 else b
                body = {"patientId": patient_ids[index % len(patient_ids)], "clinicianId": slot["clinicianId"],
                        "appointmentTypeId": consultation["id"], "start": slot["start"], "durationMinutes": 15}
                barrier.wait()
                status, _ = call(server.base, "/api/v1/appointments", "POST", token=reception, body=body)
                with lock:
                    answers.append((index % SLOTS, status))

            threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            per_slot = {s: sorted(st for slot, st in answers if slot == s) for s in range(SLOTS)}
            created = sum(st == 201 for _, st in answers)
            conflicts = sum(st == 409 for _, st in answers)
            exact = all(v.count(201) == 1 and v.count(409) == CLIENTS // SLOTS - 1 for v in per_slot.values())
            check("booking race across two instances", exact and created == SLOTS and conflicts == CLIENTS - SLOTS,
                  f"{CLIENTS} clients on {SLOTS} slots through 2 instances: {created} × 201, {conflicts} × 409, "
                  f"others {[st for _, st in answers if st not in (201, 409)]}")

            # 2. The database itself refuses an overlapping appointment.
            _, practice = call(a.base, "/api/v1/practice", token=admin_a)
            practice_id = practice["id"]
            sql = (f"BEGIN; SET LOCAL vetnet.practice_id = '{practice_id}'; "
                   "CREATE TEMP TABLE copy ON COMMIT DROP AS SELECT * FROM appointment LIMIT 1; "
                   "UPDATE copy SET id = gen_random_uuid(); INSERT INTO appointment SELECT * FROM copy; COMMIT;")
            insert = subprocess.run(["psql", args.database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], capture_output=True, text=True)
            refused = insert.returncode != 0 and "exclusion constraint" in insert.stderr
            check("direct overlapping INSERT refused", refused, (insert.stderr.strip().splitlines() or ["accepted"])[0])

            # 3. A booking through A reaches a stream opened on B.
            vet_b = b.login(b.account(admin_a, "veterinarian"))
            stream = EventStream(b.port, vet_b)
            read_until([stream], lambda: any(f.get("event") == "ready" for f in stream.frames), 10)
            slot = free_slots(a, reception, consultation["id"], SLOTS + 1)[-1]
            sent = time.perf_counter()
            status, booked = call(a.base, "/api/v1/appointments", "POST", token=reception,
                                  body={"patientId": patient_ids[0], "clinicianId": slot["clinicianId"], "appointmentTypeId": consultation["id"],
                                        "start": slot["start"], "durationMinutes": 15})
            arrived = read_until([stream], lambda: any(f.get("event") == "appointment.booked" and booked and booked.get("id", "") in f.get("data", "")
                                                        for f in stream.frames), 5)
            frame = next((f for f in stream.frames if f.get("event") == "appointment.booked"
                          and booked and booked.get("id", "") in f.get("data", "")), None)
            latency = (frame["at"] - sent) if frame and "at" in frame else None
            check("event through A on B's stream", status == 201 and arrived and latency is not None and latency < 1.0,
                  f"booked {status}, on B's stream after {latency * 1000:.0f} ms" if latency is not None else f"booked {status}, not on B's stream in 5 s")
            stream.sock.close()

            # 4. One session, two instances, one sign-out.
            token = a.login(a.account(admin_a, "technician"))
            on_b = call(b.base, "/api/v1/me", token=token)[0]
            out = call(b.base, "/api/v1/auth/logout", "POST", token=token)[0]
            after_a, after_b = call(a.base, "/api/v1/me", token=token)[0], call(b.base, "/api/v1/me", token=token)[0]
            check("session shared and revoked on both", on_b == 200 and out in (200, 204) and after_a == 401 and after_b == 401,
                  f"A's session on B {on_b}; sign-out on B {out}; then A {after_a}, B {after_b}")

            # 5. The throttle counts failures through both instances.
            victim = a.account(admin_a, "receptionist")
            statuses = [call((a if i % 2 == 0 else b).base, "/api/v1/auth/login", "POST",
                             body={"email": victim, "password": f"wrong-{i}"})[0] for i in range(10)]
            right = call(b.base, "/api/v1/auth/login", "POST", body={"email": victim, "password": a.password})[0]
            check("throttle counts across instances", statuses == [401] * 10 and right == 429,
                  f"10 failures alternating A/B: {sorted(set(statuses))}; the right password next, on B: {right}")

            # 6. A generated practice with two weeks of history, seeded by the command line into the
            #    database both instances serve; none of it is visible to the demo practice.
            (root / "seed").mkdir(mode=0o700)
            seeded = subprocess.run([str(args.vetnet.resolve()), "seed", "--database", args.database, "--data-dir", str(root / "seed"),
                                     "--scale", "--patients", "3000", "--owners", "1800", "--clinicians", "4", "--history", "14",
                                     "--practice-name", "Instances Scale Group"], capture_output=True, text=True, timeout=600,
                                    env={**os.environ, **keys, "VETNET_DATABASE_URL": args.database})
            summary = [line for line in seeded.stdout.splitlines() if line.startswith(("Seeded", "Added"))]
            check("seed --scale and --history on PostgreSQL",
                  seeded.returncode == 0 and "3000 patients, record numbers P-000001 to P-003000" in seeded.stdout
                  and "Added 14 days of history" in seeded.stdout,
                  f"exit {seeded.returncode}: {' | '.join(summary) or (seeded.stdout + seeded.stderr).strip()[-200:]}")
            _, found = call(b.base, "/api/v1/patients?q=P-002500", token=admin_a)
            check("the generated practice stays its own", isinstance(found, dict) and found.get("items") == [],
                  f"the demo administrator's search for P-002500 on B finds {len(found.get('items', [])) if isinstance(found, dict) else found}")

            # 7. After all that, the whole trail verifies through either instance.
            verify_status, verified = call(b.base, "/api/v1/audit/verify", token=admin_a)
            check("the audit trail verifies on B after the day", verify_status == 200 and isinstance(verified, dict) and verified.get("intact") is True,
                  f"{verify_status}: {str(verified)[:160]}")
        finally:
            a.stop()
            b.stop()
        # Serving as the schema's owner works, and says in the log that it should not.
        logs = (root / "a.log").read_text(errors="replace") + (root / "b.log").read_text(errors="replace")
        warned = "serving as the schema's owner" in logs
        if args.runtime_database:
            check("the instances served as the runtime role", not warned, "no owner warning in either log" if not warned else "an instance warned it is the owner")
        else:
            check("an instance serving as the owner warns of it", warned, "warning in the log" if warned else "no warning in either log")
    failed = [name for name, ok in results if not ok]
    print(f"{len(results) - len(failed)}/{len(results)} checks passed" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 0 if not failed and len(results) == (11 if args.runtime_database else 10) else 1


if __name__ == "__main__":
    sys.exit(main())
