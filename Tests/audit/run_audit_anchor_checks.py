#!/usr/bin/env python3
"""The embedded store's audit trail cannot be cut quietly: end-to-end checks against a real
`vetnet serve --demo` on a SQLite store (DIR/vetnet.sqlite, checkpoint DIR/audit.checkpoint).

1. A crash alone never fails verification: N times, a burst of bookings and cancellations from
   8 threads through the API is cut by SIGKILL of the server's process group at a random
   moment (1-4 s); `vetnet audit verify` (on a copy of the store as the kill left it) must exit
   0 and the server must start again on the store exactly as the kill left it. After
   each kill the lag is printed: the checkpoint's entry against the chain's head, and how many
   acknowledged (2xx) writes have an entry beyond the checkpoint (must be 0) or none at all.
2. After a crash, deleting any acknowledged entry is found: on copies of the stores left by the
   kills, the delete trigger is dropped and every entry from an acknowledged one (random ones,
   and the very last one acknowledged) to the end is deleted; `vetnet audit verify` must exit 1
   naming deleted entries, `vetnet serve` must refuse to start ("Refusing to start"), and the
   checkpoint file must be byte-equal afterwards.
3. A restart does not bless a missing checkpoint: the newest 3 entries and audit.checkpoint are
   deleted; verify exits 1, `verify --allow-missing-checkpoint` writes no checkpoint, serve
   refuses and writes none; `vetnet audit re-anchor --reason ...` exits 0, after which verify
   exits 0, the newest entry is `audit.re_anchored` carrying the reason, and serve starts.

Standard library only. Exit status 0 only when every check passes.
"""
import argparse
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from vetnet_live import DEMO_ADMIN, Server, call, free_port  # noqa: E402

PASSWORD = "audit-anchor-kestrel-27"
BOOK, CANCEL = "appointment.book", "appointment.cancelled"
REANCHORED = "audit.re_anchored"
REASON = "restored after investigation"


# ---------------------------------------------------------------------------------------------
# Results


class Results:
    def __init__(self) -> None:
        self.items: list[tuple[str, bool, str]] = []

    def check(self, name: str, ok: bool, detail: str) -> bool:
        self.items.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)
        return ok


def note(text: str) -> None:
    print(f"      {text}", flush=True)


def last_line(path: Path) -> str:
    lines = [line for line in path.read_text(errors="replace").splitlines() if line.strip()] if path.exists() else []
    return lines[-1][:300] if lines else "(empty)"


def first_line(text: str, limit: int = 220) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    line = lines[0] if lines else ""
    return line if len(line) <= limit else line[:limit] + "…"


# ---------------------------------------------------------------------------------------------
# The vetnet command line


class Vetnet:
    def __init__(self, binary: Path, work: Path):
        self.binary, self.work = binary, work

    def env(self) -> dict:
        env = dict(os.environ, VETNET_DEMO_PASSWORD=PASSWORD, VETNET_LOG_LEVEL="warning")
        for name in ("VETNET_HOST", "VETNET_PORT", "VETNET_DATA_DIR", "VETNET_DEMO", "VETNET_AUDIT_CHECKPOINT",
                     "VETNET_DATABASE_URL", "VETNET_ALLOW_SHARED_DATA_DIR"):
            env.pop(name, None)
        return env

    def run(self, *arguments: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), *arguments], env=self.env(), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def verify(self, data: Path, *extra: str) -> subprocess.CompletedProcess:
        return self.run("audit", "verify", "--data-dir", str(data), *extra)

    def try_serve(self, data: Path, timeout: float = 30) -> tuple[bool, int | None, str]:
        """`vetnet serve --demo` on `data`: (started and answered /health, exit status, stderr).
        A server that starts is killed at once; one that neither starts nor exits in `timeout`
        seconds is killed and reported as not started with status None."""
        port = free_port()
        errors = tempfile.TemporaryFile(dir=self.work)
        process = subprocess.Popen([str(self.binary), "serve", "--demo", "--data-dir", str(data), "--host", "127.0.0.1",
                                    "--port", str(port)], env=self.env(), stdout=subprocess.DEVNULL, stderr=errors,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        started, code = False, None
        deadline = time.time() + timeout
        try:
            while time.time() < deadline:
                code = process.poll()
                if code is not None:
                    break
                try:
                    if call(f"http://127.0.0.1:{port}", "/health")[0] == 200:
                        started = True
                        break
                except OSError:
                    pass
                time.sleep(0.1)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            errors.seek(0)
            text = errors.read().decode(errors="replace")
            errors.close()
        return started, code, text


# ---------------------------------------------------------------------------------------------
# The store, read with sqlite3 (always on a copy the server will not open again as it was)


def copy_store(source: Path, target: Path) -> Path:
    """The whole data directory, -wal and -shm files included (taken while no server runs)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, copy_function=shutil.copy2)
    return target


def read_checkpoint(data: Path) -> tuple[int, str, str] | None:
    """(sequence, head hash, time) of DIR/audit.checkpoint, or None if there is none."""
    path = data / "audit.checkpoint"
    if not path.exists():
        return None
    fields = path.read_text().split()
    if len(fields) != 5 or fields[0] != "vetnet-audit-checkpoint-v1":
        raise RuntimeError(f"unexpected checkpoint format: {path.read_text()!r}")
    return int(fields[1]), fields[2], fields[3]


def checkpoint_bytes(data: Path) -> bytes | None:
    path = data / "audit.checkpoint"
    return path.read_bytes() if path.exists() else None


@contextmanager
def connect(data: Path):
    """A connection to the store's database, closed (and so checkpointed) on leaving."""
    con = sqlite3.connect(str(data / "vetnet.sqlite"), isolation_level=None, timeout=10)
    try:
        yield con
    finally:
        con.close()


class Snapshot:
    """What the store held when the server was killed: a pristine copy of the data directory
    and, read from a scratch copy of it, the chain's head and the entries of appointments."""

    def __init__(self, cycle: int, path: Path, acked: list[tuple[str, str]], scratch: Path):
        self.cycle, self.path = cycle, path
        self.acked = list(acked)  # (action, appointment id) acknowledged before the kill, in order
        self.checkpoint = read_checkpoint(path)
        copy_store(path, scratch)
        with connect(scratch) as con:
            self.head = con.execute("SELECT COALESCE(MAX(seq), 0) FROM audit_entry").fetchone()[0]
            self.entries: dict[tuple[str, str], int] = {}
            for seq, action, resource in con.execute(
                    "SELECT seq, action, resource_id FROM audit_entry WHERE resource_type = 'appointment' ORDER BY seq"):
                self.entries.setdefault((action, resource), seq)
            self.hash_at_checkpoint = None
            if self.checkpoint and self.checkpoint[0] > 0:
                row = con.execute("SELECT hash FROM audit_entry WHERE seq = ?", (self.checkpoint[0],)).fetchone()
                self.hash_at_checkpoint = row[0] if row else None
        shutil.rmtree(scratch)

    def acked_seqs(self) -> list[tuple[int, str, str]]:
        """(seq, action, id) of every acknowledged write found in the chain."""
        return sorted((self.entries[key], *key) for key in self.acked if key in self.entries)

    def lag(self) -> dict:
        checkpoint_seq = self.checkpoint[0] if self.checkpoint else 0
        found = self.acked_seqs()
        return {
            "checkpoint": checkpoint_seq,
            "head": self.head,
            "lag": self.head - checkpoint_seq,
            "acked": len(self.acked),
            "beyond": sum(1 for seq, _, _ in found if seq > checkpoint_seq),
            "missing": len(self.acked) - len(found),
            "on_chain": self.checkpoint is not None and (self.checkpoint[0] == 0 or self.hash_at_checkpoint == self.checkpoint[1]),
        }


def cut_from(data: Path, seq: int) -> tuple[int, list[str]]:
    """Deletes every entry with seq >= `seq` as an intruder with the file would: the delete
    trigger is dropped first (after showing that it refuses) and put back afterwards."""
    with connect(data) as con:
        triggers = [row[0] for row in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_entry' ORDER BY name")]
        sql = con.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_entry_no_delete'").fetchone()
        if sql is None:
            raise RuntimeError(f"no audit_entry_no_delete trigger; the audit trail's triggers: {triggers}")
        if "audit_entry_no_update" not in triggers:
            raise RuntimeError(f"no audit_entry_no_update trigger; the audit trail's triggers: {triggers}")
        try:
            con.execute("DELETE FROM audit_entry WHERE seq = (SELECT MAX(seq) FROM audit_entry)")
            raise RuntimeError("the delete trigger let a DELETE through")
        except sqlite3.DatabaseError:
            pass
        con.execute("BEGIN IMMEDIATE")
        con.execute("DROP TRIGGER audit_entry_no_delete")
        deleted = con.execute("DELETE FROM audit_entry WHERE seq >= ?", (seq,)).rowcount
        con.execute(sql[0])
        con.execute("COMMIT")
    return deleted, triggers


def newest_entry(data: Path) -> tuple[int, str, str | None] | None:
    with connect(data) as con:
        return con.execute("SELECT seq, action, detail FROM audit_entry ORDER BY seq DESC LIMIT 1").fetchone()


def entries_of(data: Path, resource_id: str) -> list[tuple[int, str]]:
    with connect(data) as con:
        return con.execute("SELECT seq, action FROM audit_entry WHERE resource_id = ? ORDER BY seq", (resource_id,)).fetchall()


# ---------------------------------------------------------------------------------------------
# The write burst


class SlotPool:
    """Free consultation slots that cannot collide with one another: per clinician only starts
    on the half hour (a consultation and its buffer take 20 minutes), and per start no more
    than there are rooms of the type. Each is handed out once; a cancelled one comes back."""

    WINDOW_HOURS = 6

    def __init__(self, appointment_type: dict, rooms: int):
        self.type_id, self.rooms = appointment_type["id"], max(rooms, 1)
        self.lock = threading.Lock()
        self.queue: deque = deque()
        self.seen: set[tuple[str, str]] = set()
        self.at_start: dict[str, int] = {}
        self.window = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=2)
        self.last = self.window + timedelta(days=365)
        self.base = ""
        self.token = ""

    def fill(self, minimum: int) -> None:
        with self.lock:
            while len(self.queue) < minimum:
                self._more()

    def _more(self) -> None:
        if self.window > self.last:
            raise RuntimeError("no free consultation slots left in the coming year")
        start, self.window = self.window, self.window + timedelta(hours=self.WINDOW_HOURS)
        query = (f"/api/v1/appointments/slots?from={start:%Y-%m-%dT%H:%M:%SZ}&to={self.window:%Y-%m-%dT%H:%M:%SZ}"
                 f"&appointmentTypeId={self.type_id}&durationMinutes=15&limit=500")
        status, found = call(self.base, query, token=self.token)
        if status != 200:
            raise RuntimeError(f"slots: {status} {found}")
        for slot in found["items"]:
            key = (slot["clinicianId"], slot["start"])
            minute = datetime.fromisoformat(slot["start"].replace("Z", "+00:00")).minute
            if minute % 30 or key in self.seen or self.at_start.get(slot["start"], 0) >= self.rooms:
                continue
            self.seen.add(key)
            self.at_start[slot["start"]] = self.at_start.get(slot["start"], 0) + 1
            self.queue.append(slot)

    def take(self) -> dict:
        with self.lock:
            while not self.queue:
                self._more()
            return self.queue.popleft()

    def give_back(self, slot: dict) -> None:
        with self.lock:
            self.queue.append(slot)


class Burst:
    """Threads booking (and half the time at once cancelling) appointments as fast as they can,
    until the server is killed under them. Only answers received count as acknowledged."""

    def __init__(self, server: Server, token: str, pool: SlotPool, patients: list[str], acks: list, acks_lock: threading.Lock,
                 threads: int, rng: random.Random):
        self.server, self.token, self.pool, self.patients = server, token, pool, patients
        self.acks, self.acks_lock = acks, acks_lock
        self.killing = threading.Event()
        self.stats = {"booked": 0, "cancelled": 0, "refused": 0, "cut off": 0}
        self.stats_lock = threading.Lock()
        self.unexpected: list[str] = []
        self.reasons: dict[str, int] = {}
        self.threads = [threading.Thread(target=self.work, args=(random.Random(rng.random()),), daemon=True) for _ in range(threads)]

    def count(self, name: str) -> None:
        with self.stats_lock:
            self.stats[name] += 1

    def refuse(self, status: int, body: object) -> None:
        self.count("refused")
        reason = f"{status} {body.get('detail') or body.get('title') if isinstance(body, dict) else body}"
        with self.stats_lock:
            self.reasons[reason[:160]] = self.reasons.get(reason[:160], 0) + 1

    def ack(self, action: str, appointment: str) -> None:
        with self.acks_lock:
            self.acks.append((action, appointment))

    def work(self, rng: random.Random) -> None:
        base = self.server.base
        while not self.killing.is_set():
            try:
                slot = self.pool.take()
                status, body = call(base, "/api/v1/appointments", "POST", token=self.token,
                                    body={"patientId": rng.choice(self.patients), "clinicianId": slot["clinicianId"],
                                          "appointmentTypeId": self.pool.type_id, "start": slot["start"], "durationMinutes": 15})
                if not 200 <= status < 300:
                    self.refuse(status, body)
                    continue
                self.ack(BOOK, body["id"])
                self.count("booked")
                if rng.random() < 0.5:
                    status, answer = call(base, f"/api/v1/appointments/{body['id']}/transitions", "POST", token=self.token,
                                          body={"action": "cancel", "reason": "audit anchor check"})
                    if 200 <= status < 300:
                        self.ack(CANCEL, body["id"])
                        self.count("cancelled")
                        self.pool.give_back(slot)
                    else:
                        self.refuse(status, answer)
            except Exception as error:  # noqa: BLE001 - the kill cuts requests off in every way
                if self.killing.is_set():
                    self.count("cut off")
                else:
                    self.unexpected.append(f"{type(error).__name__}: {error}")
                return

    def run(self, seconds: float) -> None:
        for thread in self.threads:
            thread.start()
        time.sleep(seconds)
        self.killing.set()
        self.server.kill()
        for thread in self.threads:
            thread.join(timeout=70)


# ---------------------------------------------------------------------------------------------
# The checks


def check_crashes(args, vetnet: Vetnet, data: Path, work: Path, results: Results, rng: random.Random) -> list[Snapshot]:
    print(f"== 1. a crash alone never fails verify ({args.cycles} kills mid-burst, {args.threads} threads)", flush=True)
    server = Server(args.vetnet, data, PASSWORD, work / "server.log")
    acks: list[tuple[str, str]] = []
    acks_lock = threading.Lock()
    snapshots: list[Snapshot] = []
    pool: SlotPool | None = None
    patients: list[str] = []
    worst = {"lag": 0, "beyond": 0, "missing": 0}
    for cycle in range(1, args.cycles + 1):
        try:
            server.start()
        except RuntimeError as error:
            server.kill()
            results.check(f"1.{cycle} the server starts{' again after the kill' if cycle > 1 else ''}", False,
                          f"{error}; the log ends: {last_line(work / 'server.log')}")
            return snapshots
        admin = server.login(DEMO_ADMIN)
        token = server.login(server.account(admin, "receptionist"))
        if pool is None:
            _, types = call(server.base, "/api/v1/appointment-types", token=token)
            consultation = next(t for t in types["items"] if t["name"] == "Consultation")
            _, rooms = call(server.base, "/api/v1/rooms", token=token)
            pool = SlotPool(consultation, sum(1 for room in rooms["items"] if room.get("active", True)
                                              and room.get("type") == consultation.get("requiredRoomType")))
            _, found = call(server.base, "/api/v1/patients?limit=200", token=token)
            patients = [item["patient"]["id"] for item in found["items"]]
        pool.base, pool.token = server.base, token
        pool.fill(400)
        seconds = rng.uniform(args.min_burst, args.max_burst)
        burst = Burst(server, token, pool, patients, acks, acks_lock, args.threads, rng)
        before = len(acks)
        burst.run(seconds)
        with open(work / "acknowledged.tsv", "a") as record:
            record.writelines(f"{cycle}\t{action}\t{appointment}\n" for action, appointment in acks[before:])
        snapshot_dir = copy_store(data, work / f"after-kill-{cycle}")
        snapshot = Snapshot(cycle, snapshot_dir, acks, work / "scratch")
        snapshots.append(snapshot)
        lag = snapshot.lag()
        # Verify on a byte-equal copy of the store as the kill left it (a verify of an anchored
        # chain may move its checkpoint forward), so that the restart too starts from exactly
        # what the crash left, checkpoint lag and all.
        verify_copy = copy_store(snapshot_dir, work / "verify")
        verified = vetnet.verify(verify_copy)
        shutil.rmtree(verify_copy)
        output = first_line(verified.stdout + verified.stderr)
        ok = (verified.returncode == 0 and lag["beyond"] == 0 and lag["missing"] == 0 and lag["on_chain"]
              and not burst.unexpected)
        for key in worst:
            worst[key] = max(worst[key], lag[key])
        results.check(
            f"1.{cycle} kill after {seconds:.2f} s", ok,
            f"{burst.stats['booked']} booked, {burst.stats['cancelled']} cancelled, {burst.stats['refused']} refused, "
            f"{burst.stats['cut off']} cut off ({len(acks) - before} acknowledged this burst, {len(acks)} in all); "
            f"checkpoint #{lag['checkpoint']} vs head #{lag['head']} (lag {lag['lag']}), acknowledged beyond the checkpoint "
            f"{lag['beyond']}, acknowledged without an entry {lag['missing']}, checkpoint on the chain {lag['on_chain']}; "
            f"verify exit {verified.returncode}: {output}"
            + (f"; harness errors before the kill: {burst.unexpected[:2]}" if burst.unexpected else ""))
    try:
        server.start()
        server.login(DEMO_ADMIN)
        restarted, why = True, "started and answered a sign-in"
    except RuntimeError as error:
        restarted, why = False, f"{error}; the log ends: {last_line(work / 'server.log')}"
    finally:
        server.stop()
    results.check("1.  the server starts after the last kill", restarted, why)
    results.check("1.  lag over all kills", worst["beyond"] == 0 and worst["missing"] == 0,
                  f"largest lag {worst['lag']} entries, most acknowledged beyond the "
                  f"checkpoint {worst['beyond']}, most acknowledged without an entry {worst['missing']}")
    return snapshots


def check_cuts(args, vetnet: Vetnet, work: Path, snapshots: list[Snapshot], results: Results, rng: random.Random) -> None:
    print(f"== 2. after a crash, cutting the chain from any acknowledged entry is detected", flush=True)
    usable = [s for s in snapshots if s.acked_seqs()]
    if not usable:
        results.check("2.  acknowledged entries to cut from", False, "no kill left an acknowledged entry in the chain")
        return
    # The very last acknowledged entry after the final kill; then, in turn, a random acknowledged
    # booking after a random kill and the last acknowledged entry of an earlier kill; no cut twice.
    final = usable[-1]
    trials: list[tuple[Snapshot, str, tuple[int, str, str]]] = [(final, "the very last acknowledged entry", final.acked_seqs()[-1])]
    earlier_lasts = [s for s in usable[:-1]]
    rng.shuffle(earlier_lasts)
    attempts = 0
    while len(trials) < args.cuts and attempts < 100:
        attempts += 1
        if len(trials) % 2 == 0 and earlier_lasts:
            snapshot = earlier_lasts.pop()
            what, entry = "the last acknowledged entry", snapshot.acked_seqs()[-1]
        else:
            snapshot = rng.choice(usable)
            found = snapshot.acked_seqs()
            what, entry = "a random acknowledged booking", rng.choice([e for e in found if e[1] == BOOK] or found)
        if any(t[0] is snapshot and t[2] == entry for t in trials):
            continue
        trials.append((snapshot, what, entry))
    for number, (snapshot, what, (seq, action, appointment)) in enumerate(trials, 1):
        target = copy_store(snapshot.path, work / f"cut-{number}")
        actions = entries_of(target, appointment)
        # The entry of the acknowledged write itself: the booking's `appointment.book` (or, for the
        # last write, whatever it was), not a later cancellation that may not have been answered.
        chosen = next(s for s, a in actions if a == action)
        assert chosen == seq, (chosen, seq)
        deleted, triggers = cut_from(target, seq)
        head_after = newest_entry(target)
        before = checkpoint_bytes(target)
        checkpoint = read_checkpoint(target)
        verified = vetnet.verify(target)
        verify_text = verified.stdout + verified.stderr
        started, code, errors = vetnet.try_serve(target)
        after = checkpoint_bytes(target)
        verify_ok = verified.returncode == 1 and re.search(r"delet", verify_text, re.IGNORECASE) is not None
        serve_ok = not started and code not in (None, 0) and "Refusing to start" in errors and "vetnet audit re-anchor" in errors
        unchanged = before is not None and before == after
        print(f"   cut {number}: kill {snapshot.cycle}, {what}: appointment {appointment} has entries "
              f"{', '.join(f'#{s} {a}' for s, a in actions)}; cutting from #{seq} ({action}) — {deleted} entries deleted "
              f"(triggers {', '.join(triggers)}: a plain DELETE was refused, so audit_entry_no_delete was dropped, then put back), head now #{head_after[0] if head_after else 0}, checkpoint #{checkpoint[0] if checkpoint else None}",
              flush=True)
        results.check(f"2.{number} verify exits 1 naming the deleted entries", verify_ok,
                      f"exit {verified.returncode}: {first_line(verify_text)}")
        results.check(f"2.{number} serve refuses to start", serve_ok,
                      ("it started and answered /health" if started else f"exit {code}") + f"; stderr: {first_line(errors) or '(none)'}")
        results.check(f"2.{number} checkpoint file unchanged", unchanged,
                      "byte-equal" if unchanged else f"before {before!r}, after {after!r}")


def check_missing_checkpoint(args, vetnet: Vetnet, work: Path, snapshots: list[Snapshot], results: Results) -> None:
    print("== 3. a restart does not bless a missing checkpoint; re-anchor does, on the record", flush=True)
    if not snapshots:
        results.check("3.  a store to work on", False, "no kill left a store")
        return
    target = copy_store(snapshots[-1].path, work / "missing-checkpoint")
    head = newest_entry(target)[0]
    deleted, _ = cut_from(target, head - 2)
    (target / "audit.checkpoint").unlink()
    note(f"kill {snapshots[-1].cycle}'s store: deleted the newest {deleted} entries (#{head - 2}..#{head}) and audit.checkpoint")
    verified = vetnet.verify(target)
    results.check("3.1 verify exits 1", verified.returncode == 1,
                  f"exit {verified.returncode}: {first_line(verified.stdout + verified.stderr)}")
    allowed = vetnet.verify(target, "--allow-missing-checkpoint")
    exists = (target / "audit.checkpoint").exists()
    results.check("3.2 verify --allow-missing-checkpoint writes no checkpoint", not exists,
                  f"exit {allowed.returncode}: {first_line(allowed.stdout + allowed.stderr)}; audit.checkpoint "
                  f"{'created' if exists else 'absent'}")
    if exists:
        (target / "audit.checkpoint").unlink()
    started, code, errors = vetnet.try_serve(target)
    exists = (target / "audit.checkpoint").exists()
    results.check("3.3 serve refuses to start and writes no checkpoint",
                  not started and code not in (None, 0) and "Refusing to start" in errors and "vetnet audit re-anchor" in errors
                  and not exists,
                  ("it started and answered /health" if started else f"exit {code}")
                  + f", audit.checkpoint {'created' if exists else 'absent'}; stderr: {first_line(errors, 400) or '(none)'}")
    if exists:
        (target / "audit.checkpoint").unlink()
    anchored = vetnet.run("audit", "re-anchor", "--data-dir", str(target), "--reason", REASON)
    results.check("3.4 re-anchor exits 0", anchored.returncode == 0,
                  f"exit {anchored.returncode}: {first_line(anchored.stdout + anchored.stderr)}")
    verified = vetnet.verify(target)
    results.check("3.5 verify exits 0 after re-anchoring", verified.returncode == 0,
                  f"exit {verified.returncode}: {first_line(verified.stdout + verified.stderr)}")
    newest = newest_entry(target)
    results.check("3.6 the newest entry records the re-anchoring and its reason",
                  newest is not None and newest[1] == REANCHORED and REASON in (newest[2] or ""),
                  f"#{newest[0]} {newest[1]}: {newest[2]!r}" if newest else "no entry")
    server = Server(args.vetnet, target, PASSWORD, work / "re-anchored.log")
    try:
        server.start()
        server.login(DEMO_ADMIN)
        ok, why = True, "started and answered a sign-in"
    except RuntimeError as error:
        ok, why = False, f"{error}; the log ends: {last_line(work / 're-anchored.log')}"
    finally:
        server.stop()
    verified = vetnet.verify(target)
    results.check("3.7 serve starts after re-anchoring", ok and verified.returncode == 0 and anchored.returncode == 0,
                  ("" if anchored.returncode == 0 else "(re-anchor failed, so this is no start after re-anchoring) ")
                  + f"{why}; verify afterwards exit {verified.returncode}: {first_line(verified.stdout + verified.stderr)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vetnet", type=Path, required=True, help="the vetnet binary")
    parser.add_argument("--cycles", type=int, default=10, help="kills mid-burst (check 1)")
    parser.add_argument("--threads", type=int, default=8, help="writers in each burst")
    parser.add_argument("--min-burst", type=float, default=1.0, help="shortest burst, seconds")
    parser.add_argument("--max-burst", type=float, default=4.0, help="longest burst, seconds")
    parser.add_argument("--cuts", type=int, default=5, help="cuts from an acknowledged entry (check 2)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: a new one, printed)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the working directory (stores after each kill, acknowledged.tsv, server logs)")
    args = parser.parse_args()
    args.vetnet = args.vetnet.resolve()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    began = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="vetnet-audit-"))
    print(f"vetnet {args.vetnet}, seed {seed}, work {work}", flush=True)
    vetnet = Vetnet(args.vetnet, work)
    results = Results()
    try:
        data = work / "data"
        seeded = vetnet.run("seed", "--demo", "--data-dir", str(data))
        if seeded.returncode != 0:
            print(seeded.stdout, seeded.stderr, file=sys.stderr)
            return 1
        snapshots = check_crashes(args, vetnet, data, work, results, rng)
        check_cuts(args, vetnet, work, snapshots, results, rng)
        check_missing_checkpoint(args, vetnet, work, snapshots, results)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    failed = [name for name, ok, _ in results.items if not ok]
    print(f"audit anchor checks: {len(results.items) - len(failed)} passed, {len(failed)} failed "
          f"({time.monotonic() - began:.0f} s, seed {seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
