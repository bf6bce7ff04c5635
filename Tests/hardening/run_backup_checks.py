#!/usr/bin/env python3
"""A backup taken while the practice books, restored and served. Standard library only.

1. `vetnet serve --demo` on a temporary store; 8 clients book free slots as fast as they can.
2. While they book, `vetnet backup --to DIR` copies the store (keys left out); booking goes on.
3. A backup whose label was edited, or whose database was changed, is refused by `vetnet
   restore`; one restored without its keys is refused naming them, and one given another
   record key fails before it is served.
4. `vetnet restore` (with the keys given apart) verifies the audit chain and the record key;
   the restored store serves, and holds every booking acknowledged before the backup began,
   each as acknowledged; the audit chain verifies over the API.

Prints PASS/FAIL lines; exit status 0 only when every check passes.

    python3 Tests/hardening/run_backup_checks.py --vetnet .build/debug/vetnet
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from vetnet_live import DEMO_ADMIN, Server, call  # noqa: E402

PASSWORD = "backup-checks-plover-44"
CLIENTS = 8
failures: list[str] = []


def report(ok: bool, name: str, detail: str = "") -> None:
    print(f"  {'PASS' if ok else 'FAIL'}  {name}{(' — ' + detail) if detail else ''}", flush=True)
    if not ok:
        failures.append(name)


def token(base: str) -> str:
    status, body = call(base, "/api/v1/auth/login", "POST", body={"email": DEMO_ADMIN, "password": PASSWORD})
    assert status == 200, (status, body)
    return body["token"]


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run(binary: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **(env or {}))
    for name in ("VETNET_DATA_DIR", "VETNET_AUDIT_KEY", "VETNET_RECORD_KEY", "VETNET_DATABASE_URL"):
        if not env or name not in env:
            environment.pop(name, None)
    return subprocess.run([str(binary), *args], env=environment, capture_output=True, text=True, timeout=300)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vetnet", type=Path, default=Path(__file__).resolve().parents[2] / ".build/debug/vetnet")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="vetnet-backup-"))
    data = work / "data"
    server = Server(args.vetnet, data, PASSWORD, work / "server.log")
    server.start()
    acknowledged: list[tuple[float, dict]] = []  # (when the 201 arrived, the appointment)
    lock = threading.Lock()
    stop = threading.Event()
    try:
        admin = token(server.base)
        _, types = call(server.base, "/api/v1/appointment-types", token=admin)
        consult = next(t for t in types["items"] if not t.get("retiredAt") and not t.get("requiredSpecialty") and t.get("defaultDurationMinutes", 99) <= 30)
        _, patients = call(server.base, "/api/v1/patients?limit=100", token=admin)
        patient_ids = [item["patient"]["id"] for item in patients["items"] if item["patient"]["status"] == "active"]
        # A sealed note, so the restore has one to open with the record key.
        status, _ = call(server.base, f"/api/v1/patients/{patient_ids[0]}/notes", "POST", token=admin,
                         body={"subjective": "Backed-up note: lame left fore since Tuesday"})
        assert status == 201, status
        start = datetime.now(timezone.utc) + timedelta(days=1)
        _, slots = call(server.base, f"/api/v1/appointments/slots?appointmentTypeId={consult['id']}&from={iso(start)}"
                                     f"&to={iso(start + timedelta(days=21))}&limit=500", token=admin)
        offers = slots["items"]
        print(f"1. {CLIENTS} clients booking from {len(offers)} free slots")

        def client(index: int) -> None:
            own = token(server.base)
            for n, slot in enumerate(offers[index::CLIENTS]):
                if stop.is_set():
                    return
                body = {"patientId": patient_ids[(index + n) % len(patient_ids)], "clinicianId": slot["clinicianId"],
                        "appointmentTypeId": consult["id"], "start": slot["start"]}
                status, answer = call(server.base, "/api/v1/appointments", "POST", token=own, body=body)
                if status == 201:
                    with lock:
                        acknowledged.append((time.monotonic(), answer))

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        time.sleep(2.0)
        began = time.monotonic()
        with lock:
            before = [a for t, a in acknowledged if t < began]
        backups = work / "backups"
        taken = run(args.vetnet, "backup", "--data-dir", str(data), "--to", str(backups))
        time.sleep(1.0)
        stop.set()
        for thread in threads:
            thread.join()
        report(taken.returncode == 0, "2. a backup is taken while the clients book", (taken.stdout or taken.stderr).strip().splitlines()[0])
        copies = sorted(backups.glob("vetnet-backup-*"))
        if not copies:
            raise SystemExit("no backup directory was written")
        backup = copies[-1]
        manifest = json.loads((backup / "backup.json").read_text())
        report(not manifest["includesKeys"] and not (backup / "audit.key").exists() and not (backup / "record.key").exists(),
               "the keys are not in it", f"{len(manifest['files'])} files")
        after = len(acknowledged) - len(before)
        print(f"   {len(before)} bookings acknowledged before the backup began, {after} after")
        report(len(before) > 0, "bookings were acknowledged before the backup began", str(len(before)))

        print("3. Refusals")
        # The key files hold their keys in base64, as the variables do.
        keys = {"VETNET_AUDIT_KEY": (data / "audit.key").read_text().strip(), "VETNET_RECORD_KEY": (data / "record.key").read_text().strip()}
        no_keys = run(args.vetnet, "restore", "--from", str(backup), "--data-dir", str(work / "restored-no-keys"))
        report(no_keys.returncode != 0 and "VETNET_AUDIT_KEY" in no_keys.stderr and not (work / "restored-no-keys" / "vetnet.sqlite").exists(),
               "restoring without the keys is refused, naming them", no_keys.stderr.strip()[:100])
        edited = work / "edited"
        shutil.copytree(backup, edited)
        label = json.loads((edited / "backup.json").read_text())
        label["createdAt"] = "2020-01-01T00:00:00.000Z"
        (edited / "backup.json").write_text(json.dumps(label))
        refused = run(args.vetnet, "restore", "--from", str(edited), "--data-dir", str(work / "restored-edited"), env=keys)
        report(refused.returncode != 0 and "seal" in refused.stderr, "an edited label is refused", refused.stderr.strip()[:100])
        tampered = work / "tampered"
        shutil.copytree(backup, tampered)
        with open(tampered / "vetnet.sqlite", "r+b") as database:
            database.seek(200)
            database.write(b"\x00\x01\x02\x03")
        refused = run(args.vetnet, "restore", "--from", str(tampered), "--data-dir", str(work / "restored-tampered"), env=keys)
        report(refused.returncode != 0 and "vetnet.sqlite" in refused.stderr, "a changed database is refused", refused.stderr.strip()[:100])

        wrong = dict(keys, VETNET_RECORD_KEY=keys["VETNET_AUDIT_KEY"])
        refused = run(args.vetnet, "restore", "--from", str(backup), "--data-dir", str(work / "restored-wrong-key"), env=wrong)
        report(refused.returncode != 0 and "Restored" not in refused.stdout, "a restore with another record key fails before it is served",
               refused.stderr.strip().splitlines()[-1][:100] if refused.stderr.strip() else "")

        print("4. Restored and served")
        restored_dir = work / "restored"
        restored = run(args.vetnet, "restore", "--from", str(backup), "--data-dir", str(restored_dir), env=keys)
        report(restored.returncode == 0 and "audit chain intact" in restored.stdout and "1 sealed notes opened" in restored.stdout,
               "vetnet restore verifies the chain and opens the sealed note with the record key",
               (restored.stdout or restored.stderr).strip()[:160])
    finally:
        stop.set()
        server.stop()

    copy = Server(args.vetnet, restored_dir, PASSWORD, work / "restored.log", extra_env=keys)
    copy.start()
    try:
        admin = token(copy.base)
        missing = []
        for appointment in before:
            status, stored = call(copy.base, f"/api/v1/appointments/{appointment['id']}", token=admin)
            if status != 200 or stored["start"] != appointment["start"] or stored["clinicianId"] != appointment["clinicianId"]:
                missing.append(appointment["id"])
        report(not missing, "every booking acknowledged before the backup began is in the restored store, as acknowledged",
               f"{len(before) - len(missing)}/{len(before)}")
        status, verified = call(copy.base, "/api/v1/audit/verify", token=admin)
        report(status == 200 and verified.get("intact") is True, "the restored audit chain verifies over the API", json.dumps(verified)[:120])
    finally:
        copy.stop()
    print(f"backup checks: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
