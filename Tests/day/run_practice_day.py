#!/usr/bin/env python3
"""A whole practice day through the HTTP API, so the parts cannot drift apart again.

Seeds the demo practice with a past (`vetnet seed --demo --history 60`), starts a real
`vetnet serve --demo` on it and works through it as a receptionist would:

- every stored patient's own record (species, sex, age) makes a valid triage case, evaluated
  and taken through an intake;
- a few hundred random intakes (blue to red) follow; for each, every slot offered is booked
  at once, one after another (a booking that is not kept is cancelled before the next is
  tried): anything offered must be bookable when it is offered;
- each recommended clinician's "earliest" time is the first slot offered with them;
- every kept booking appears on the schedule and in the patient's own appointments; every
  red and orange arrival is waiting on the ER board; the event stream carried exactly the
  bookings and cancellations made; analytics counts the new appointments.

It prints its counts and exits 0 only when there is no mismatch.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from vetnet_live import DEMO_ADMIN, EventStream, Server, call, read_until  # noqa: E402

# Cases by the level they are written to reach (the engine decides; these only aim).
CASE_TEMPLATES = {
    "blue": {},
    "green": {"observations": {"pain": "mild"}, "onsetHoursAgo": 12},
    "yellow": {"observations": {"pain": "moderate"}},
    "orange": {"observations": {"pain": "severe"}},
    "red": {"vitals": {"mucousMembranes": "cyanotic"}},
}
# Mostly the day's ordinary arrivals, a few emergencies.
LEVEL_WEIGHTS = {"blue": 3, "green": 5, "yellow": 3, "orange": 1, "red": 1}


def etag(base: str, path: str, token: str) -> str:
    request = urllib.request.Request(base + path, headers={"authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.headers["ETag"]


def open_around_the_clock(server: Server, admin: str) -> None:
    """The practice opens every hour of every day and every clinician works all of them, as an
    emergency hospital does, so that a run at any hour is offered slots within the maximum
    wait. The seeded past and the bookings ahead (rooms and all) stay as they are."""
    hours = [{"weekday": day, "opens": "00:00", "closes": "24:00"} for day in range(1, 8)]
    status, answer = call(server.base, "/api/v1/practice", "PATCH", token=admin, body={"openingHours": hours},
                          headers={"If-Match": etag(server.base, "/api/v1/practice", admin)})
    if status != 200:
        raise RuntimeError(f"opening hours refused: {status} {answer}")
    _, clinicians = call(server.base, "/api/v1/specialists?limit=200", token=admin)
    for clinician in clinicians["items"]:
        path = f"/api/v1/specialists/{clinician['id']}/availability"
        _, availability = call(server.base, path, token=admin)
        availability["weekly"] = [{"weekday": day, "startMinute": 0, "endMinute": 1440} for day in range(1, 8)]
        availability = {key: availability[key] for key in ("weekly", "breaks", "timeOff", "extraSessions") if key in availability}
        status, answer = call(server.base, path, "PUT", token=admin, body=availability, headers={"If-Match": etag(server.base, path, admin)})
        if status != 200:
            raise RuntimeError(f"availability of {clinician['displayName']} refused: {status} {answer}")


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def age_weeks(birth: str | None) -> float | None:
    if not birth:
        return None
    days = (date.today() - date.fromisoformat(birth[:10])).days
    return round(max(days, 0) / 7, 1)


class Day:
    def __init__(self, server: Server, token: str, rng: random.Random):
        self.server, self.token, self.rng = server, token, rng
        self.mismatches: list[str] = []
        self.counts = {"patients": 0, "patients triaged": 0, "intakes": 0, "emergencies": 0, "slots offered": 0,
                       "slots bookable": 0, "bookings kept": 0, "bookings cancelled": 0, "earliest checked": 0,
                       "intakes with no offer within the wait": 0}
        self.kept: list[dict] = []
        self.emergencies: set[str] = set()

    def api(self, path: str, method: str = "GET", body: object | None = None, expect: int | None = 200, **kwargs):
        status, answer = call(self.server.base, path, method, token=self.token, body=body, **kwargs)
        if expect is not None and status != expect:
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return status, answer

    def mismatch(self, text: str) -> None:
        self.mismatches.append(text)
        print("MISMATCH:", text, flush=True)

    def patients(self) -> list[dict]:
        found, cursor = [], None
        while True:
            path = "/api/v1/patients?limit=200" + (f"&cursor={quote(cursor)}" if cursor else "")
            _, page = self.api(path)
            found += [item["patient"] for item in page["items"]]
            cursor = page.get("nextCursor")
            if not cursor:
                return found

    def case_for(self, patient: dict, level: str) -> dict:
        case = {"species": patient["species"], **CASE_TEMPLATES[level]}
        if patient.get("sex"):
            case["sex"] = patient["sex"]
        weeks = age_weeks(patient.get("birthDate"))
        if weeks is not None:
            case["ageWeeks"] = weeks
        return case

    def every_record_triages(self, patients: list[dict]) -> None:
        for patient in patients:
            self.counts["patients"] += 1
            _, full = self.api(f"/api/v1/patients/{patient['id']}")
            case = self.case_for(full, "green")
            status, result = call(self.server.base, "/api/v1/triage/evaluate", "POST", token=self.token, body=case)
            if status != 200:
                self.mismatch(f"{full['name']} ({full.get('sex')}, {full['species']}): the record's own case was refused: {status} {result}")
                continue
            self.counts["patients triaged"] += 1
            self.intake(full, "green")

    def intake(self, patient: dict, level: str) -> None:
        case = self.case_for(patient, level)
        status, result = call(self.server.base, "/api/v1/intake", "POST", token=self.token, body={"patientId": patient["id"], "case": case})
        if status != 200:
            self.mismatch(f"intake of {patient['name']} ({patient.get('sex')}) refused: {status} {result}")
            return
        self.counts["intakes"] += 1
        if result["emergency"]:
            self.counts["emergencies"] += 1
            self.emergencies.add(patient["id"])
            return
        offered = result["offeredSlots"]
        ranked = {c["clinicianId"]: c for c in result["clinicians"]}
        first_offer: dict[str, str] = {}
        for slot in offered:
            first_offer.setdefault(slot["clinicianId"], slot["start"])
        for clinician, start in first_offer.items():
            self.counts["earliest checked"] += 1
            earliest = ranked.get(clinician, {}).get("earliestStart")
            if earliest is None or parse(earliest) != parse(start):
                self.mismatch(f"{patient['name']}: clinician {clinician} shown earliest {earliest}, first offered {start}")
        if not offered:
            # As the web app does: the nearest free slots of the coming week for the same type.
            self.counts["intakes with no offer within the wait"] += 1
            if not result.get("appointmentTypeId"):
                return
            now = datetime.now(timezone.utc)
            _, found = self.api(f"/api/v1/appointments/slots?from={quote(rfc3339(now))}&to={quote(rfc3339(now + timedelta(days=7)))}"
                                f"&appointmentTypeId={result['appointmentTypeId']}&species={patient['species']}&limit=5")
            offered = found["items"]
            result = {**result, "durationMinutes": found.get("durationMinutes")}
            if not offered:
                return
        # Each offer is booked as it stands, then cancelled, so the next one is tried against the
        # same picture; then one of them is booked for good.
        for slot in offered:
            self.counts["slots offered"] += 1
            booked = self.book(patient, result, slot)
            if booked is None:
                continue
            self.counts["slots bookable"] += 1
            self.api(f"/api/v1/appointments/{booked['id']}/transitions", "POST",
                     body={"action": "cancel", "reason": "practice day: trying the next offer"})
            self.counts["bookings cancelled"] += 1
        kept = self.book(patient, result, self.rng.choice(offered))
        if kept is not None:
            self.counts["bookings kept"] += 1
            self.kept.append(kept)

    def book(self, patient: dict, result: dict, slot: dict) -> dict | None:
        body = {"patientId": patient["id"], "clinicianId": slot["clinicianId"], "appointmentTypeId": result["appointmentTypeId"],
                "start": slot["start"], "assessmentId": result["assessmentId"]}
        if result.get("durationMinutes"):
            body["durationMinutes"] = result["durationMinutes"]
        status, booked = call(self.server.base, "/api/v1/appointments", "POST", token=self.token, body=body)
        if status != 201:
            self.mismatch(f"offered {slot['start']} with {slot.get('clinicianName')} for {patient['name']} was refused: {status} "
                          f"{booked.get('detail') if isinstance(booked, dict) else booked}")
            return None
        return booked

    def check_schedule(self) -> None:
        for appointment in self.kept:
            start, end = parse(appointment["start"]), parse(appointment["end"])
            _, listed = self.api(f"/api/v1/appointments?from={quote(rfc3339(start - timedelta(minutes=1)))}"
                                 f"&to={quote(rfc3339(end + timedelta(minutes=1)))}&clinicianId={appointment['clinicianId']}")
            if not any(item["id"] == appointment["id"] for item in listed["items"]):
                self.mismatch(f"booked {appointment['id']} is not on the schedule")
        by_patient: dict[str, set[str]] = {}
        for appointment in self.kept:
            by_patient.setdefault(appointment["patientId"], set()).add(appointment["id"])
        for patient, ids in by_patient.items():
            seen, cursor = set(), None
            while True:
                path = f"/api/v1/patients/{patient}/appointments?limit=200" + (f"&cursor={quote(cursor)}" if cursor else "")
                _, page = self.api(path)
                seen |= {item["id"] if "id" in item else item["appointment"]["id"] for item in page["items"]}
                cursor = page.get("nextCursor")
                if not cursor:
                    break
            for missing in ids - seen:
                self.mismatch(f"booked {missing} is not in patient {patient}'s appointments")

    def check_board(self) -> None:
        _, board = self.api("/api/v1/triage/queue")
        entries = board.get("entries", board.get("items", []))
        waiting = {entry["patientId"] for entry in entries if entry.get("status") == "waiting"}
        for patient in self.emergencies - waiting:
            self.mismatch(f"emergency {patient} is not waiting on the ER board")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vetnet", type=Path, required=True)
    parser.add_argument("--intakes", type=int, default=300)
    parser.add_argument("--history", type=int, default=60)
    parser.add_argument("--seed", type=int, default=20261127)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="vetnet-day-"))
    password = "practice-day-heron-kettle-41"
    env = dict(os.environ, VETNET_DEMO_PASSWORD=password)
    seeded = subprocess.run([str(args.vetnet), "seed", "--demo", "--history", str(args.history), "--data-dir", str(work / "store")],
                            env=env, capture_output=True, text=True)
    if seeded.returncode != 0:
        print(seeded.stdout, seeded.stderr, file=sys.stderr)
        return 1
    server = Server(args.vetnet, work / "store", password, work / "server.log")
    server.start()
    try:
        admin = server.login(DEMO_ADMIN)
        open_around_the_clock(server, admin)
        receptionist = server.login(server.account(admin, "receptionist"))
        stream = EventStream(server.port, admin, query="?kinds=appointment.booked,appointment.cancelled")
        read_until([stream], lambda: any(f.get("event") == "ready" for f in stream.frames), 10)
        _, before = call(server.base, f"/api/v1/analytics/dashboard?from={date.today()}&to={date.today() + timedelta(days=7)}",
                         token=admin)
        day = Day(server, receptionist, rng)
        started = time.monotonic()
        patients = day.patients()
        day.every_record_triages(patients)
        levels = list(LEVEL_WEIGHTS)
        weights = [LEVEL_WEIGHTS[level] for level in levels]
        for _ in range(args.intakes):
            patient = rng.choice(patients)
            day.intake(patient, rng.choices(levels, weights)[0])
        day.check_schedule()
        day.check_board()
        booked = day.counts["slots bookable"] + day.counts["bookings kept"]
        cancelled = day.counts["bookings cancelled"]

        def frames(kind: str) -> int:
            return sum(1 for f in stream.frames if f.get("event") == kind)

        read_until([stream], lambda: frames("appointment.booked") >= booked and frames("appointment.cancelled") >= cancelled, 20)
        read_until([stream], lambda: False, 1)
        if frames("appointment.booked") != booked:
            day.mismatch(f"the event stream carried {frames('appointment.booked')} bookings; {booked} were made")
        if frames("appointment.cancelled") != cancelled:
            day.mismatch(f"the event stream carried {frames('appointment.cancelled')} cancellations; {cancelled} were made")
        stream.close()
        _, after = call(server.base, f"/api/v1/analytics/dashboard?from={date.today()}&to={date.today() + timedelta(days=7)}",
                        token=admin)
        # Every offer lies within the level's maximum wait (at most four hours), so inside the period.
        counted = {name: after["practice"]["appointments"][name] - before["practice"]["appointments"][name] for name in ("booked", "cancelled")}
        if counted != {"booked": len(day.kept), "cancelled": cancelled}:
            day.mismatch(f"analytics counts {counted} more this week; {len(day.kept)} were kept booked and {cancelled} cancelled")
        elapsed = time.monotonic() - started
        print(f"practice day over {len(patients)} patients with {args.history} days of history ({elapsed:.0f} s):")
        for name, value in day.counts.items():
            print(f"  {name}: {value}")
        print(f"  mismatches: {len(day.mismatches)}")
        return 0 if not day.mismatches and day.counts["slots offered"] == day.counts["slots bookable"] else 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
