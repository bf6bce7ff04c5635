#!/usr/bin/env python3
"""End-to-end checks of the live practice against a real `vetnet serve --demo`: a booking
reaches another session's Server-Sent Events stream at once; a stream resumed with
Last-Event-ID after a restart gets exactly the changes it missed; a change acknowledged just
before the server is killed with SIGKILL is in the feed after restart; signing out ends the
session's stream. Exit status 0 only when every check passes."""
import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vetnet_live import DEMO_ADMIN, EventStream, Server, call, read_until  # noqa: E402


class Practice:
    """What the checks book with: a consultation type, patients and free slots."""

    def __init__(self, server: Server, token: str):
        self.server, self.token = server, token
        _, types = call(server.base, "/api/v1/appointment-types", token=token)
        self.consultation = next(t for t in types["items"] if t["name"] == "Consultation")
        _, patients = call(server.base, "/api/v1/patients?limit=20", token=token)
        self.patients = [item["patient"]["id"] for item in patients["items"]]
        self.used: set[tuple[str, str]] = set()
        self.day = 2

    def free_slot(self) -> dict:
        while self.day < 60:
            start = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=self.day)
            query = (f"/api/v1/appointments/slots?from={start:%Y-%m-%dT%H:%M:%SZ}&to={start + timedelta(days=1):%Y-%m-%dT%H:%M:%SZ}"
                     f"&appointmentTypeId={self.consultation['id']}&durationMinutes=15&limit=200")
            _, found = call(self.server.base, query, token=self.token)
            for slot in found["items"]:
                key = (slot["clinicianId"], slot["start"][:13])
                if key not in self.used:
                    self.used.add(key)
                    return slot
            self.day += 1
        raise RuntimeError("no free consultation slot in the next 60 days")

    def book(self) -> dict:
        slot = self.free_slot()
        status, body = call(self.server.base, "/api/v1/appointments", "POST", token=self.token,
                            body={"patientId": self.patients[len(self.used) % len(self.patients)], "clinicianId": slot["clinicianId"],
                                  "appointmentTypeId": self.consultation["id"], "start": slot["start"], "durationMinutes": 15})
        if status != 201:
            raise RuntimeError(f"booking failed: {status} {body}")
        return body


def head(server: Server, token: str) -> int:
    _, feed = call(server.base, "/api/v1/changes?limit=1&after=0", token=token)
    return feed["headSequence"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vetnet", type=Path, default=Path(".build/debug/vetnet"))
    args = parser.parse_args()
    results: list[tuple[str, bool, str]] = []

    def check(name: str, ok: bool, detail: str) -> None:
        results.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)

    with tempfile.TemporaryDirectory(prefix="vetnet-live-") as temporary:
        data = Path(temporary) / "data"
        server = Server(args.vetnet.resolve(), data, "live-checks-otter-9", Path(temporary) / "server.log")
        server.start()
        try:
            admin = server.login(DEMO_ADMIN)
            reception = server.login(server.account(admin, "receptionist"))
            vet_email = server.account(admin, "veterinarian")
            practice = Practice(server, reception)

            # 1. A booking reaches another session's stream with the next sequence, at once.
            vet = server.login(vet_email)
            stream = EventStream(server.port, vet)
            read_until([stream], lambda: any(f.get("event") == "ready" for f in stream.frames), 10)
            before = head(server, reception)
            sent = time.perf_counter()
            booking = practice.book()
            arrived = read_until([stream], lambda: any(f.get("event") == "appointment.booked" for f in stream.frames), 5)
            frame = next((f for f in stream.frames if f.get("event") == "appointment.booked"), None)
            check("booking reaches another session's stream",
                  arrived and frame is not None and frame["id"] == str(before + 1) and frame["json"]["resourceId"] == booking["id"],
                  f"id {frame and frame.get('id')} (expected {before + 1}) after {((frame or {'at': sent})['at'] - sent) * 1000:.0f} ms")
            last_seen = int(frame["id"]) if frame else before
            stream.close()

            # 2. Three changes while away, then a restart: resuming gets exactly those three.
            missed = [practice.book()["id"] for _ in range(3)]
            server.stop()
            server.start()
            vet = server.login(vet_email)
            reception = server.login(server.account(server.login(DEMO_ADMIN), "receptionist"))
            practice.token = reception
            resumed = EventStream(server.port, vet, last_event_id=last_seen)
            read_until([resumed], lambda: sum(f.get("event") == "appointment.booked" for f in resumed.frames) >= 3, 5)
            read_until([resumed], lambda: False, 0.8)  # anything beyond the three would arrive now
            # Every frame after the last one seen, gapless; besides the three bookings only the
            # server's own `metrics.updated` announcements (at most one per 30 s) may be among them.
            frames = [f for f in resumed.frames if "id" in f]
            events = [f for f in frames if f.get("event") != "metrics.updated"]
            check("resume after restart with Last-Event-ID",
                  [f["json"]["resourceId"] for f in events] == missed
                  and [int(f["id"]) for f in frames] == list(range(last_seen + 1, last_seen + 1 + len(frames))),
                  f"got ids {[(f['id'], f.get('event')) for f in frames]} for {len(missed)} missed bookings")
            resumed.close()

            # 3. SIGKILL right after a booking is acknowledged: its event is in the feed after restart.
            position = head(server, reception)
            killed = practice.book()
            server.kill()
            server.start()
            reception = server.login(server.account(server.login(DEMO_ADMIN), "receptionist"))
            practice.token = reception
            _, feed = call(server.base, f"/api/v1/changes?after={position}", token=reception)
            kinds = [(item["kind"], item.get("resourceId")) for item in feed["items"]]
            check("event of a change acknowledged before SIGKILL is in the feed",
                  ("appointment.booked", killed["id"]) in kinds, f"feed after {position}: {kinds}")

            # 4. Signing out ends the session's stream.
            vet = server.login(vet_email)
            ending = EventStream(server.port, vet)
            read_until([ending], lambda: any(f.get("event") == "ready" for f in ending.frames), 5)
            signed_out = time.perf_counter()
            call(server.base, "/api/v1/auth/logout", "POST", token=vet)
            ended = read_until([ending], lambda: ending.closed, 5)
            final = ending.frames[-1].get("event") if ending.frames else None
            check("signing out ends the stream", ended and final == "session_ended",
                  f"last frame {final!r}, closed after {(time.perf_counter() - signed_out) * 1000:.0f} ms")
            ending.close()

            # 5. `vetnet events tail` beside the running server prints the same log, live.
            position = head(server, reception)
            tail = subprocess.Popen([str(args.vetnet.resolve()), "events", "tail", "--data-dir", str(data), "--after", str(position),
                                     "--format", "json", "--interval", "0.1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            try:
                time.sleep(1.5)
                tailed = practice.book()
                line = tail.stdout.readline()
            finally:
                tail.terminate()
                tail.wait()
            printed = json.loads(line) if line.strip() else {}
            check("vetnet events tail prints a booking as it is committed",
                  printed.get("kind") == "appointment.booked" and printed.get("resourceId") == tailed["id"]
                  and printed.get("sequence") == position + 1, f"printed {line.strip()[:120]!r}")

            # 6. SIGTERM with a stream open: the stream ends with `shutdown` and the server exits
            # cleanly at once (an open stream must not keep the drain waiting).
            vet = server.login(vet_email)
            open_stream = EventStream(server.port, vet)
            read_until([open_stream], lambda: any(f.get("event") == "ready" for f in open_stream.frames), 5)
            began = time.perf_counter()
            server.process.send_signal(signal.SIGTERM)
            read_until([open_stream], lambda: open_stream.closed, 15)
            try:
                code = server.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                code = None
            last = open_stream.frames[-1].get("event") if open_stream.frames else None
            check("SIGTERM with a stream open: the stream ends with shutdown, the server exits 0",
                  code == 0 and last == "shutdown", f"exit {code} after {time.perf_counter() - began:.2f} s, last frame {last!r}")
            open_stream.close()
        finally:
            server.stop()
    failed = [name for name, ok, _ in results if not ok]
    print(f"live checks: {len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
