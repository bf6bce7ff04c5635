#!/usr/bin/env python3
"""Booking latency under concurrency, against a running VetNet server on the embedded store.

Seeds nothing itself: start a release server on an empty data directory with the demo
practice first, e.g.

    swift build -c release --product vetnet
    VETNET_DEMO_PASSWORD=bench-otter-lantern-7 .build/release/vetnet serve --demo --data-dir /tmp/vetnet-bench --port 8099 &
    python3 Benchmarks/booking/run_booking_benchmark.py --port 8099 --password bench-otter-lantern-7

It fetches every clinician's free consultation slots over the next working days (spaced so
each can be booked, within the exam rooms' capacity), then books them concurrently and prints
p50/p90/p99 of the booking calls. With `wrk` installed (Debian package) the load comes from
wrk with CLIENTS connections, a closed loop whose own CPU use is small next to the server's;
otherwise from CLIENTS Python threads. Target: p99 < 20 ms with 32 clients.
"""
import os
import shutil
import subprocess
import tempfile
import argparse
import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone


def call(base, path, method="GET", token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def bookable_slots(base, token, consultation, count, first_day=1):
    """Up to `count` free consultation slots from `first_day` days ahead, spaced so that every
    one can be booked: one clinician's slots a consultation plus its buffer apart, within
    each clinician's daily cap and the exam rooms' capacity. Returns (slots, days looked at)."""
    _, specialists = call(base, "/api/v1/specialists", token=token)
    daily_cap = {item["id"]: item["maxAppointmentsPerDay"] for item in specialists["items"]}
    _, rooms = call(base, "/api/v1/rooms", token=token)
    exam_rooms = sum(1 for room in rooms["items"] if room["type"] == "exam")
    start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=first_day)
    slots = []
    day = 0
    while len(slots) < count and day < 365:
        frm = (start + timedelta(days=day)).strftime("%Y-%m-%dT00:00:00Z")
        to = (start + timedelta(days=day + 1)).strftime("%Y-%m-%dT00:00:00Z")
        _, found = call(base, f"/api/v1/appointments/slots?from={frm}&to={to}&appointmentTypeId={consultation['id']}&durationMinutes=15&limit=500", token=token)
        last_end = {}
        per_clinician = {}
        in_use = {}  # 5-minute bucket -> consultations planned in it (rooms are shared)
        for slot in found["items"]:
            # Keep one clinician's slots a consultation plus its buffer apart so each can be booked.
            begins = datetime.fromisoformat(slot["start"].replace("Z", "+00:00"))
            if slot["clinicianId"] in last_end and begins < last_end[slot["clinicianId"]]:
                continue
            if per_clinician.get(slot["clinicianId"], 0) >= daily_cap.get(slot["clinicianId"], 0):
                continue
            buckets = [begins + timedelta(minutes=5 * k) for k in range((15 + consultation["bufferAfterMinutes"]) // 5)]
            if any(in_use.get(b, 0) >= exam_rooms for b in buckets):
                continue
            for b in buckets:
                in_use[b] = in_use.get(b, 0) + 1
            per_clinician[slot["clinicianId"]] = per_clinician.get(slot["clinicianId"], 0) + 1
            last_end[slot["clinicianId"]] = begins + timedelta(minutes=15 + consultation["bufferAfterMinutes"])
            slots.append(slot)
        day += 1
    return slots[:count], day


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--password", required=True)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--bookings", type=int, default=20000, help="slots to prepare (at most; one year ahead)")
    parser.add_argument("--seconds", type=int, default=3, help="how long wrk books")
    args = parser.parse_args()
    base = f"http://127.0.0.1:{args.port}"

    emails = ["fiona.campbell@riverside-vets.example", "chloe.adams@riverside-vets.example", "liam.walsh@riverside-vets.example",
              "megan.price@riverside-vets.example", "grace.hughes@riverside-vets.example", "daniel.reid@riverside-vets.example"]
    tokens = []
    for email in emails:
        status, body = call(base, "/api/v1/auth/login", "POST", body={"email": email, "password": args.password})
        assert status == 200, (status, body)
        tokens.append(body["token"])
    admin = tokens[0]
    _, types = call(base, "/api/v1/appointment-types", token=admin)
    consultation = next(t for t in types["items"] if t["name"] == "Consultation")
    _, patients = call(base, "/api/v1/patients?limit=200", token=admin)
    patient_ids = [item["patient"]["id"] for item in patients["items"]]

    slots, day = bookable_slots(base, admin, consultation, args.bookings)
    print(f"prepared {len(slots)} bookable slots over {day} days; booking them with {args.clients} concurrent clients")

    if shutil.which("wrk"):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
            for n, slot in enumerate(slots):
                handle.write(json.dumps({"patientId": patient_ids[n % len(patient_ids)], "clinicianId": slot["clinicianId"],
                                         "appointmentTypeId": consultation["id"], "start": slot["start"], "durationMinutes": 15}) + "\n")
        # A wrk thread that has used its share of the slots stops (reported below); otherwise
        # every slot is requested once at most.
        seconds = args.seconds
        threads = min(2, args.clients)
        env = dict(os.environ, VETNET_BODIES=handle.name, VETNET_TOKEN=tokens[1], VETNET_THREADS=str(threads))
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "book.lua")
        run = subprocess.run(["wrk", f"-t{threads}", f"-c{args.clients}", f"-d{seconds}s", "-s", script, base], env=env,
                             capture_output=True, text=True)
        print(run.stdout.strip())
        os.unlink(handle.name)
        p99 = [float(line.split("p99")[1].split()[0]) for line in run.stdout.splitlines() if line.startswith("latency ms:")]
        booked = [int(line.split()[2].rstrip(",")) for line in run.stdout.splitlines() if line.startswith("responses:")]
        if booked and booked[0] >= len(slots) - args.clients:
            print(f"the {len(slots)} prepared slots ran out before {seconds} s: the rate above is understated; lower --seconds")
        if p99:
            print("target p99 < 20 ms:", "met" if p99[0] < 20 else "MISSED")
        return

    latencies, statuses = [], []
    lock = threading.Lock()
    queue = list(enumerate(slots))

    def worker(index):
        token = tokens[index % len(tokens)]
        while True:
            with lock:
                if not queue:
                    return
                n, slot = queue.pop()
            body = {"patientId": patient_ids[n % len(patient_ids)], "clinicianId": slot["clinicianId"],
                    "appointmentTypeId": consultation["id"], "start": slot["start"], "durationMinutes": 15}
            began = time.perf_counter()
            status, _ = call(base, "/api/v1/appointments", "POST", token=token, body=body)
            elapsed = (time.perf_counter() - began) * 1000
            with lock:
                latencies.append(elapsed)
                statuses.append(status)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    latencies.sort()
    pct = lambda p: latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]
    print(f"booking calls: {len(latencies)} with {args.clients} concurrent clients in {wall:.2f} s "
          f"({len(latencies) / wall:.0f}/s); 201: {statuses.count(201)}, 409: {statuses.count(409)}, other: {len(statuses) - statuses.count(201) - statuses.count(409)}")
    print(f"latency ms: p50 {pct(50):.2f}  p90 {pct(90):.2f}  p99 {pct(99):.2f}  max {latencies[-1]:.2f}  mean {statistics.mean(latencies):.2f}")
    print("target p99 < 20 ms:", "met" if pct(99) < 20 else "MISSED")


if __name__ == "__main__":
    main()
