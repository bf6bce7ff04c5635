#!/usr/bin/env python3
"""Availability and abuse-resistance checks against a real `vetnet serve --demo` on temporary
stores. Standard library only.

1. Slowloris: 300 connections trickle a request head one byte a second (reconnecting when
   closed); /health on a fresh connection every 100 ms answers within 1 s; the server closes
   every slow connection within the idle timeout (plus slack).
2. Descriptor exhaustion: 3,000 silent connections at once; /health stays within 1 s, the
   server's open descriptors stay below its own before the flood + max-connections + 100,
   sign-in works afterwards.
3. Live streams per account: 8 streams are `ready`, the 9th gets 429 with Retry-After, closing
   one lets a new one in; another account is not affected; open streams outlive the idle timeout.
4. Optimizer: 5,000 requests over 14 days with timeLimitSeconds 1 and 3 finish within ±20 % of
   the limit (measured by the client); three concurrent runs for one practice give one 200 and
   two 429 with Retry-After while /health stays within 1 s.
5. Duplicate JSON keys are refused with 400 naming the key (POST /api/v1/users, triage).
6. Sign-in throttle (own server): one account gets at most 10 attempts (then 429 with
   Retry-After even with the right password); after 50 failures from one address (those 10 and
   40 for made-up accounts) the address waits whatever the account (docs/permissions.md).
7. X-Forwarded-For: ignored without a trusted proxy (main server); with
   VETNET_TRUSTED_PROXIES=127.0.0.1 (own server) the right-most untrusted hop is the client, also
   over two header lines, and the per-account limit holds whatever the address. Attribution is
   read from the store's sign-in ledger (`sign_in_attempt`, keys `address:`+sha256(address), or
   `address-account:`+sha256(address + 0x1F + email) once the address is over its limit): with
   the address allowance split per account it has no reliable outward effect on status codes.

The main server runs with VETNET_CONNECTION_IDLE_SECONDS=3 and VETNET_MAX_CONNECTIONS=256.
Prints PASS/FAIL lines with measured figures; exit status 0 only when every check passes.

    python3 Tests/hardening/run_availability_checks.py --vetnet .build/debug/vetnet [--only 1,3]

Times (/health within 1 s, the optimizer within ±20 % of its limit measured by the client) are
speed targets: printed always, enforced with --timing (for a release build).
"""
import argparse
import concurrent.futures
import hashlib
import http.client
import json
import math
import os
import resource
import selectors
import socket
import sqlite3
import sys
import tempfile
import threading
import time
import traceback
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from vetnet_live import DEMO_ADMIN, EventStream, Server, call, free_port, read_until  # noqa: E402,F401

PASSWORD = "hardening-checks-lapwing-58"
IDLE_SECONDS = 3
MAX_CONNECTIONS = 256
# Times (answered within 1 s, the optimizer within ±20 % of its limit) are speed targets: with
# --timing they fail the run (a release build, as a benchmark); without it they are measured
# and printed, and only what must hold whatever the machine fails it (every poll answered,
# descriptors bounded, refusals with Retry-After, the server's own time within the limit).
STRICT_TIMING = False
# A second client address on the loopback network, for polls that are not the flood's.
OTHER_CLIENT = "127.0.0.2"
STREAMS_PER_USER = 8  # the server's default; not set on purpose
LOCAL = "127.0.0.1"

RESULTS: list[tuple[str, bool, str]] = []


def timed(name: str) -> str:
    """A check's name as it is held: `within 1 s` only with --timing; otherwise the time is printed."""
    return name if STRICT_TIMING else name.replace("answered within 1 s", "answered (times printed; --timing holds them to 1 s)")


def check(name: str, ok: bool, detail: str) -> None:
    RESULTS.append((name, ok, detail))
    print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)


def note(text: str) -> None:
    print(f"      {text}", flush=True)


# ---------------------------------------------------------------------------------------------
# HTTP helpers that also return headers and accept raw bodies

def request(port: int, method: str, path: str, body: bytes | str | dict | list | None = None, token: str | None = None,
            headers: dict | None = None, timeout: float = 60) -> tuple[int, dict, object, float]:
    """One request on its own connection: (status, lower-case headers, parsed body, seconds)."""
    if isinstance(body, (dict, list)):
        body = json.dumps(body, separators=(",", ":")).encode()
    elif isinstance(body, str):
        body = body.encode()
    all_headers = {"Content-Type": "application/json", "Connection": "close"}
    if token:
        all_headers["Authorization"] = "Bearer " + token
    all_headers.update(headers or {})
    connection = http.client.HTTPConnection(LOCAL, port, timeout=timeout)
    started = time.perf_counter()
    try:
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        raw = response.read()
        elapsed = time.perf_counter() - started
        found = {name.lower(): value for name, value in response.getheaders()}
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return response.status, found, parsed, elapsed
    finally:
        connection.close()


def raw_exchange(port: int, data: bytes, timeout: float = 30) -> tuple[int | None, bytes]:
    """Sends `data` as is (it must ask for Connection: close) and reads to EOF: (status, whole answer)."""
    with socket.create_connection((LOCAL, port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    try:
        return int(answer.split(b"\r\n", 1)[0].split()[1]), answer
    except (IndexError, ValueError):
        return None, answer


def sign_in(port: int, email: str, password: str, headers: dict | None = None) -> tuple[int, dict, object]:
    status, found, body, _ = request(port, "POST", "/api/v1/auth/login", {"email": email, "password": password}, headers=headers)
    return status, found, body


def health_once(port: int, timeout: float = 5, timings: list | None = None, source: str | None = None) -> int | None:
    began = time.perf_counter()
    with socket.create_connection((LOCAL, port), timeout=timeout, source_address=(source, 0) if source else None) as sock:
        if timings is not None:
            timings.append(time.perf_counter() - began)
        sock.settimeout(timeout)
        sock.sendall(f"GET /health HTTP/1.1\r\nHost: {LOCAL}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    try:
        return int(answer.split(b"\r\n", 1)[0].split()[1])
    except (IndexError, ValueError):
        return None


class HealthPoller(threading.Thread):
    """GET /health on a fresh connection every `interval` seconds until stopped."""

    def __init__(self, port: int, interval: float = 0.1, timeout: float = 5, source: str | None = None):
        super().__init__(daemon=True)
        self.port, self.interval, self.timeout, self.source = port, interval, timeout, source
        self.latencies: list[float] = []
        self.connects: list[float] = []  # the connect part of each poll (NaN when it did not connect)
        self.failures: list[str] = []
        self.halt = threading.Event()

    def run(self) -> None:
        next_at = time.perf_counter()
        while not self.halt.is_set():
            began = time.perf_counter()
            timings: list[float] = []
            try:
                status = health_once(self.port, self.timeout, timings, self.source)
                if status != 200:
                    self.failures.append(f"status {status}")
            except OSError as error:
                self.failures.append(f"{type(error).__name__}: {error}")
            self.latencies.append(time.perf_counter() - began)
            self.connects.append(timings[0] if timings else float("nan"))
            next_at += self.interval
            wait = next_at - time.perf_counter()
            if wait > 0:
                self.halt.wait(wait)
            else:
                next_at = time.perf_counter()

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=self.timeout + 2)

    def verdict(self, limit: float = 1.0, reset_share: float = 0.0) -> tuple[bool, str]:
        """Every answered poll within `limit`; at most `reset_share` of the polls reset (a
        flood from the prober's own address can shed a poll's connection before its request
        is read: it is then the connection idle longest)."""
        if not self.latencies:
            return False, "no poll was made"
        ordered = sorted(self.latencies)
        p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
        slow = sum(1 for value in ordered if value > limit)
        resets = sum(1 for failure in self.failures if "reset" in str(failure).lower())
        others = len(self.failures) - resets
        ok = (slow == 0 or not STRICT_TIMING) and others == 0 and resets <= reset_share * (len(ordered) + len(self.failures))
        text = (f"{len(ordered)} /health polls, max {ordered[-1] * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
                f"median {ordered[len(ordered) // 2] * 1000:.0f} ms, over {limit:.0f} s: {slow}, failed: {len(self.failures)}")
        if self.failures:
            text += f" (first: {self.failures[0]})"
        if slow:
            worst = max(range(len(self.latencies)), key=lambda i: self.latencies[i])
            text += (f"; slowest poll: connect {self.connects[worst] * 1000:.0f} ms of {self.latencies[worst] * 1000:.0f} ms"
                     " (a connect near 1 s is a SYN retransmit: the listen queue was full)")
        return ok, text


# ---------------------------------------------------------------------------------------------
# The server process

def vetnet_pid(server: Server) -> int:
    """The pid of the vetnet process itself: the Popen child, or (if that is a wrapper) the
    vetnet process in its session."""
    root = server.process.pid
    try:
        if os.path.basename(os.readlink(f"/proc/{root}/exe")).startswith("vetnet"):
            return root
    except OSError:
        pass
    best = root
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(fields[3]) == root and os.path.basename(os.readlink(f"/proc/{entry}/exe")).startswith("vetnet"):
                best = int(entry)
        except (OSError, IndexError, ValueError):
            continue
    return best


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def start_server(work: Path, name: str, extra_env: dict | None = None) -> Server:
    server = Server(BINARY, work / name / "data", PASSWORD, work / f"{name}.log", extra_env=extra_env)
    (work / name).mkdir(parents=True, exist_ok=True)
    server.start()
    return server


# ---------------------------------------------------------------------------------------------
# 1. Slowloris

def check_slowloris(server: Server, count: int = 300, duration: float = 15.0) -> None:
    port = server.port
    head = (f"GET /health HTTP/1.1\r\nHost: {LOCAL}:{port}\r\nUser-Agent: slowloris\r\nX-Padding: " + "x" * 200).encode()
    selector = selectors.DefaultSelector()
    live: dict[int, dict] = {}
    stats = {"opened": 0, "open_failed": 0, "eof": 0, "reset": 0, "answered": 0}
    lifetimes: list[float] = []
    initial_lifetimes: list[float] = []

    def open_one(initial: bool) -> None:
        try:
            sock = socket.create_connection((LOCAL, port), timeout=2)
        except OSError:
            stats["open_failed"] += 1
            return
        sock.setblocking(False)
        now = time.perf_counter()
        entry = {"sock": sock, "opened": now, "sent": 0, "next": now, "initial": initial, "answer": b""}
        live[sock.fileno()] = entry
        selector.register(sock, selectors.EVENT_READ, entry)
        stats["opened"] += 1

    def closed(entry: dict, how: str) -> None:
        stats[how] += 1
        if entry["answer"]:
            stats["answered"] += 1
        life = time.perf_counter() - entry["opened"]
        lifetimes.append(life)
        if entry["initial"]:
            initial_lifetimes.append(life)
        selector.unregister(entry["sock"])
        live.pop(entry["sock"].fileno(), None)
        entry["sock"].close()

    poller = HealthPoller(port)
    # Another client, on another address (127.0.0.2 reaches the loopback listener): at the
    # maximum the flood's own address gives way, so none of its polls may be shed.
    other = HealthPoller(port, source=OTHER_CLIENT)
    began = time.perf_counter()
    for _ in range(count):
        open_one(True)
    opened_in = time.perf_counter() - began
    poller.start()
    other.start()
    end = began + duration
    while time.perf_counter() < end:
        for key, _ in selector.select(0.05):
            entry = key.data
            try:
                data = entry["sock"].recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                closed(entry, "reset")
                continue
            if data:
                entry["answer"] += data
            else:
                closed(entry, "eof")
        now = time.perf_counter()
        for entry in list(live.values()):
            if entry["next"] <= now and entry["sent"] < len(head):
                try:
                    entry["sock"].send(head[entry["sent"]:entry["sent"] + 1])
                    entry["sent"] += 1
                    entry["next"] += 1.0
                except BlockingIOError:
                    pass
                except OSError:
                    closed(entry, "reset")
        # Keep the pressure up: a connection the server closed is replaced by a new slow one.
        while len(live) < count and time.perf_counter() < end - 0.5:
            before = stats["open_failed"]
            open_one(False)
            if stats["open_failed"] > before:
                break
    poller.stop()
    other.stop()
    now = time.perf_counter()
    still_open = [now - entry["opened"] for entry in live.values()]
    initial_open = [now - entry["opened"] for entry in live.values() if entry["initial"]]
    for entry in list(live.values()):
        selector.unregister(entry["sock"])
        entry["sock"].close()
    selector.close()

    ok_poll, poll_text = poller.verdict(reset_share=0.02)
    check(timed("slowloris: /health answered within 1 s throughout (at most 2 % of polls shed with the flood from their own address)"),
          ok_poll, poll_text)
    ok_other, other_text = other.verdict(reset_share=0.0)
    check(timed(f"slowloris: /health from another address ({OTHER_CLIENT}) answered within 1 s throughout, none shed"), ok_other, other_text)
    allowed = IDLE_SECONDS + 2.0
    longest = max(lifetimes + still_open, default=0.0)
    ordered = sorted(lifetimes)
    median = ordered[len(ordered) // 2] if ordered else float("nan")
    check("slowloris: the server closes trickling connections (idle limit "
          f"{IDLE_SECONDS} s, allowed {allowed:.0f} s)",
          not initial_open and longest <= allowed and stats["opened"] >= count,
          f"{count} opened in {opened_in:.2f} s, {stats['opened']} in all over {duration:.0f} s; closed by the server: "
          f"{stats['eof'] + stats['reset']} (EOF {stats['eof']}, reset {stats['reset']}, with an answer first {stats['answered']}); "
          f"of the first {count}: {len(initial_lifetimes)} closed, {len(initial_open)} still open at the end; "
          f"lifetime median {median:.2f} s, longest {longest:.2f} s; open at the end {len(still_open)}; "
          f"failed connects {stats['open_failed']}")


# ---------------------------------------------------------------------------------------------
# 2. Descriptor exhaustion

def check_descriptors(server: Server, count: int = 3000, duration: float = 10.0) -> None:
    pid = vetnet_pid(server)
    # Let the descriptors of anything before (the slowloris check's connections) go first.
    baseline, waited = open_fds(pid), time.perf_counter()
    while time.perf_counter() - waited < IDLE_SECONDS + 2:
        time.sleep(0.5)
        now = open_fds(pid)
        if now >= baseline:
            baseline = now
            break
        baseline = now
    poller = HealthPoller(server.port)
    poller.start()
    selector = selectors.DefaultSelector()
    socks: list[socket.socket] = []
    began = time.perf_counter()
    connect_errors = 0
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        code = sock.connect_ex((LOCAL, server.port))
        if code not in (0, 115, 11):  # 0, EINPROGRESS, EAGAIN
            connect_errors += 1
        socks.append(sock)
        selector.register(sock, selectors.EVENT_READ)
    opened_in = time.perf_counter() - began
    peak, samples = baseline, 0
    closed_by_server: set[int] = set()
    next_sample = time.perf_counter()
    end = began + duration
    while time.perf_counter() < end:
        for key, _ in selector.select(0.05):
            sock = key.fileobj
            try:
                data = sock.recv(4096)
                if data:
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            closed_by_server.add(sock.fileno())
            selector.unregister(sock)
        if time.perf_counter() >= next_sample:
            peak = max(peak, open_fds(pid))
            samples += 1
            next_sample += 0.2
    poller.stop()
    selector.close()
    for sock in socks:
        sock.close()
    ok_poll, poll_text = poller.verdict(reset_share=0.02)
    check(timed(f"{count} silent connections: /health answered within 1 s throughout (at most 2 % of polls shed with the flood from their own address)"),
          ok_poll, poll_text)
    # The server's own descriptors (store, log, event loops) plus at most max-connections held
    # open, with 100 of slack for shed connections whose close is still on its way through an
    # event loop while the flood is accepted.
    limit = baseline + MAX_CONNECTIONS + 100
    check(f"{count} silent connections: the server's descriptors stay below its own {baseline} + "
          f"{MAX_CONNECTIONS} + 100 = {limit}", 0 < peak < limit,
          f"opened {count} in {opened_in:.2f} s ({connect_errors} connect errors); server pid {pid}: {baseline} descriptors before, "
          f"peak {peak} over {samples} samples; {len(closed_by_server)} of ours closed by the server within {duration:.0f} s")
    time.sleep(1.0)
    settled = time.perf_counter()
    status, _, body = sign_in(server.port, DEMO_ADMIN, PASSWORD)
    took = time.perf_counter() - settled
    check("after the connections are dropped sign-in works", status == 200,
          f"sign-in {status} in {took * 1000:.0f} ms; descriptors now {open_fds(pid)}"
          + ("" if status == 200 else f"; {body}"))


# ---------------------------------------------------------------------------------------------
# 3. Live streams per account

def open_raw_stream(port: int, token: str, timeout: float = 5) -> tuple[int | None, dict, socket.socket]:
    """Opens GET /api/v1/events and reads the response head: (status, headers, socket)."""
    sock = socket.create_connection((LOCAL, port), timeout=timeout)
    sock.sendall((f"GET /api/v1/events HTTP/1.1\r\nHost: {LOCAL}:{port}\r\nAuthorization: Bearer {token}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    answer = b""
    deadline = time.perf_counter() + timeout
    while b"\r\n\r\n" not in answer and time.perf_counter() < deadline:
        try:
            chunk = sock.recv(4096)
        except socket.timeout:
            break
        if not chunk:
            break
        answer += chunk
    if b"\r\n\r\n" not in answer:
        return None, {}, sock
    head, rest = answer.split(b"\r\n\r\n", 1)
    lines = head.decode(errors="replace").split("\r\n")
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    headers["_body"] = rest.decode(errors="replace")
    return int(lines[0].split()[1]), headers, sock


def check_streams(server: Server, admin: str) -> None:
    email = server.account(admin, "receptionist")
    token = server.login(email)
    streams = [EventStream(server.port, token) for _ in range(STREAMS_PER_USER)]

    def all_ready() -> bool:
        return all(any(f.get("event") == "ready" for f in s.frames) for s in streams)

    read_until(streams, all_ready, 10)
    ready = sum(1 for s in streams if any(f.get("event") == "ready" for f in s.frames))
    check(f"{STREAMS_PER_USER} live streams of one account are all ready", ready == STREAMS_PER_USER,
          f"{ready} of {STREAMS_PER_USER} got `ready`; statuses {[s.status for s in streams]}")

    status, headers, extra = open_raw_stream(server.port, token)
    extra.close()
    detail = headers.get("_body", "")[:160].replace("\r\n", " ")
    check(f"stream {STREAMS_PER_USER + 1} of the same account gets 429 with Retry-After",
          status == 429 and headers.get("retry-after", "").strip().isdigit(),
          f"status {status}, Retry-After {headers.get('retry-after')!r}, body {detail!r}")

    other = server.login(server.account(admin, "technician"))
    status_other, _, other_sock = open_raw_stream(server.port, other)
    other_sock.close()
    check("another account still opens a stream meanwhile", status_other == 200, f"status {status_other}")

    # The open streams are requests in progress: the idle timeout must not end them.
    read_until(streams, lambda: False, IDLE_SECONDS + 1.5)
    alive = sum(1 for s in streams if not s.closed)
    check(f"open streams outlive the {IDLE_SECONDS} s idle timeout", alive == STREAMS_PER_USER,
          f"{alive} of {STREAMS_PER_USER} still open after {IDLE_SECONDS + 1.5:.1f} s")

    # A client that closed a stream may come back after the Retry-After it was given (the
    # server may only notice the close at the stream's next write, a heartbeat).
    retry_after = int(headers.get("retry-after", "15")) if headers.get("retry-after", "").strip().isdigit() else 15
    allowed = retry_after + 2
    pid = vetnet_pid(server)
    fds_before = open_fds(pid)
    streams[0].close()
    closed_at = time.perf_counter()
    admitted, attempts, last, fds_dropped = None, 0, None, None
    while time.perf_counter() - closed_at < allowed:
        attempts += 1
        if fds_dropped is None and open_fds(pid) < fds_before:
            fds_dropped = time.perf_counter() - closed_at
        status, _, sock = open_raw_stream(server.port, token)
        last = status
        sock.close()
        if status == 200:
            admitted = time.perf_counter() - closed_at
            break
        time.sleep(0.5)
    dropped = f"; the server closed its side after {fds_dropped:.1f} s" if fds_dropped is not None else ""
    check(f"closing one stream lets a new one in (within Retry-After {retry_after} s + 2 s)", admitted is not None,
          (f"admitted {admitted:.1f} s after the close ({attempts} attempts)" if admitted is not None
           else f"still refused {allowed} s after the close ({attempts} attempts, last status {last})") + dropped)
    for stream in streams[1:]:
        stream.close()


# ---------------------------------------------------------------------------------------------
# 4. Optimizer time limit and one run per practice

def optimize_body(server: Server, admin: str, count: int = 5000, days: int = 14) -> dict:
    patients, cursor = [], None
    while True:
        _, page = call(server.base, "/api/v1/patients?limit=200" + (f"&cursor={cursor}" if cursor else ""), token=admin)
        patients += [item["patient"]["id"] for item in page["items"]]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    _, types = call(server.base, "/api/v1/appointment-types", token=admin)
    type_ids = [t["id"] for t in types["items"]]
    start = (datetime.now(timezone.utc) + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    requests = [{"reference": f"r{index}", "patientId": patients[index % len(patients)],
                 "appointmentTypeId": type_ids[(index * 7) % len(type_ids)], "triageLevel": 1 + index % 5}
                for index in range(count)]
    return {"from": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "days": days, "requests": requests, "apply": False,
            "_summary": f"{count} requests for {len(patients)} patients and {len(type_ids)} appointment types over {days} days"}


def check_optimizer(server: Server, admin: str) -> None:
    body = optimize_body(server, admin)
    summary = body.pop("_summary")
    # What reading the body costs before the optimizer starts: the same body refused by the
    # contract (days 15 is over the maximum), so nothing but parsing and validation runs.
    refused = json.dumps({**body, "days": 15, "timeLimitSeconds": 1}, separators=(",", ":")).encode()
    status, _, _, parse_only = request(server.port, "POST", "/api/v1/schedule/optimize", refused, token=admin, timeout=60)
    note(f"the same body refused by the contract (days 15): {status} after {parse_only:.3f} s (reading and validating it)")
    for limit in (1, 3):
        payload = json.dumps({**body, "timeLimitSeconds": limit}, separators=(",", ":")).encode()
        try:
            status, _, answer, elapsed = request(server.port, "POST", "/api/v1/schedule/optimize", payload, token=admin,
                                                 timeout=limit * 5 + 10)
        except TimeoutError:
            check(f"optimize with timeLimitSeconds {limit}", False, f"no answer within {limit * 5 + 10} s")
            continue
        if status != 200:
            check(f"optimize with timeLimitSeconds {limit}", False, f"status {status}: {str(answer)[:300]}")
            continue
        server_ms = answer.get("elapsedMilliseconds")
        unassigned = len(answer.get("unassigned", []))
        figures = (f"{summary} ({len(payload) // 1024} KiB): client {elapsed:.3f} s, elapsedMilliseconds {server_ms}, "
                   f"assigned {answer.get('assigned')}, unassigned {unassigned}, score {answer.get('score')}")
        # The server's own figure must keep the limit on any machine; the client's, with the
        # body's transfer and decoding, is a speed target (--timing).
        over = (server_ms or 0) > limit * 1000 or (STRICT_TIMING and elapsed > limit * 1.2)
        short = STRICT_TIMING and elapsed < limit * 0.8
        if short and not over and unassigned == 0:
            check(f"optimize with timeLimitSeconds {limit} within +20 %", True, figures + "; finished early with every request placed")
        else:
            name = (f"optimize with timeLimitSeconds {limit} within ±20 %" if STRICT_TIMING
                    else f"optimize with timeLimitSeconds {limit}: the server's own time within the limit (client time printed; --timing holds it to ±20 %)")
            check(name, not over and not short, figures + f"; speed target {limit * 0.8:.1f}–{limit * 1.2:.1f} s")

    payload = json.dumps({**body, "timeLimitSeconds": 3}, separators=(",", ":")).encode()
    barrier = threading.Barrier(3)

    def one(_: int):
        barrier.wait()
        began = time.perf_counter()
        try:
            return request(server.port, "POST", "/api/v1/schedule/optimize", payload, token=admin, timeout=30)
        except TimeoutError:
            return None, {}, "no answer within 30 s", time.perf_counter() - began

    poller = HealthPoller(server.port)
    poller.start()
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        outcomes = list(pool.map(one, range(3)))
    poller.stop()
    statuses = sorted(o[0] or 0 for o in outcomes)
    refused = [o for o in outcomes if o[0] == 429]
    with_retry = [o for o in refused if o[1].get("retry-after", "").strip().isdigit()]
    described = "; ".join(f"{o[0]} in {o[3]:.2f} s" + (f" Retry-After {o[1].get('retry-after')!r}" if o[0] != 200 else "")
                          + (f" ({str(o[2].get('detail') if isinstance(o[2], dict) else o[2])[:100]})" if o[0] != 200 else "")
                          for o in outcomes)
    check("three concurrent optimizations of one practice: one 200, two 429 with Retry-After",
          statuses == [200, 429, 429] and len(with_retry) == 2, described)
    ok_poll, poll_text = poller.verdict()
    check(timed("/health answered within 1 s during the concurrent optimizations"), ok_poll, poll_text)
    small = json.dumps({**body, "requests": body["requests"][:50], "timeLimitSeconds": 0.5}, separators=(",", ":")).encode()
    status, _, answer, elapsed = request(server.port, "POST", "/api/v1/schedule/optimize", small, token=admin, timeout=30)
    check("afterwards the practice can optimize again", status == 200,
          f"50 requests, timeLimitSeconds 0.5: {status} in {elapsed:.2f} s"
          + ("" if status == 200 else f" ({str(answer.get('detail') if isinstance(answer, dict) else answer)[:100]})"))


# ---------------------------------------------------------------------------------------------
# 5. Duplicate JSON keys

def check_duplicate_keys(server: Server, admin: str) -> None:
    stamp = int(time.time() * 1000) % 10_000_000
    email = f"duplicate.{stamp}@riverside-vets.example"
    user = ('{"email":"%s","displayName":"Duplicate Key","role":"technician","role":"veterinarian",'
            '"password":"duplicate-keys-kestrel-83"}' % email)
    status, _, answer, _ = request(server.port, "POST", "/api/v1/users", user, token=admin)
    detail = answer.get("detail", "") if isinstance(answer, dict) else str(answer)
    _, users = call(server.base, "/api/v1/users?limit=200", token=admin)
    created = any(u["email"] == email for u in users["items"])
    check('POST /api/v1/users with "role" twice: 400 naming the key, nothing created',
          status == 400 and "role" in detail and not created, f"status {status}, detail {detail!r}, account created: {created}")

    cases = [
        ("species twice", '{"species":"dog","species":"cat"}', "species"),
        ("nested vitals key twice", '{"species":"dog","vitals":{"heartRate":80,"heartRate":220}}', "heartRate"),
        ("species twice, once escaped", '{"species":"dog","spec\\u0069es":"cat"}', "species"),
    ]
    control_status, _, control, _ = request(server.port, "POST", "/api/v1/triage/evaluate", '{"species":"dog"}', token=admin)
    for label, text, key in cases:
        status, _, answer, _ = request(server.port, "POST", "/api/v1/triage/evaluate", text, token=admin)
        detail = answer.get("detail", "") if isinstance(answer, dict) else str(answer)
        check(f"POST /api/v1/triage/evaluate with {label}: 400 naming {key!r}", status == 400 and key in detail,
              f"status {status}, detail {detail!r} (the same case without the duplicate: {control_status})")


# ---------------------------------------------------------------------------------------------
# 6. Sign-in throttle

def parallel_sign_ins(port: int, attempts: list[tuple[str, str, dict | None]], workers: int = 4) -> list[int]:
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda a: sign_in(port, a[0], a[1], a[2])[0], attempts))


def check_sign_in_throttle(server: Server, admin: str) -> None:
    _, users = call(server.base, "/api/v1/users?limit=200", token=admin)
    emails = sorted(u["email"] for u in users["items"] if not u.get("disabled") and u["email"] != DEMO_ADMIN)
    victim, colleague, nurse = emails[1], emails[0], emails[2]
    # Earlier in the day the nurse signed in on the ward iPad: its browser holds a device cookie.
    status, headers, _ = sign_in(server.port, nurse, PASSWORD)
    device = headers.get("set-cookie", "").split(";", 1)[0]
    # One account: 10 wrong passwords (failures 1-10 of the address), then the right one is refused.
    wrong = parallel_sign_ins(server.port, [(victim, f"wrong-password-{i}", None) for i in range(10)])
    status, headers, _ = sign_in(server.port, victim, PASSWORD)
    check("one account: 10 wrong passwords, then 429 with Retry-After even with the right one",
          wrong.count(401) == 10 and status == 429 and headers.get("retry-after", "").strip().isdigit(),
          f"{victim}: the 10 answered {sorted(set(wrong))}, then the right password {status} "
          f"Retry-After {headers.get('retry-after')!r}")
    # 40 more failures for made-up accounts: 50 from the address in all.
    began = time.perf_counter()
    failures = parallel_sign_ins(server.port, [(f"nobody.{i}@riverside-vets.example", "not-the-password-1", None) for i in range(40)])
    counts = {code: failures.count(code) for code in sorted(set(failures))}
    check("40 more failures for made-up accounts (50 from the address) are each answered 401", counts == {401: 40},
          f"statuses {counts} in {time.perf_counter() - began:.1f} s")
    # The per-address limit (docs/permissions.md) then holds the address whatever the account:
    # password spraying from one address stops at 50; clients behind a proxy are told apart by
    # --trusted-proxies (check 7).
    status, headers, _ = sign_in(server.port, colleague, PASSWORD)
    guess, _, _ = sign_in(server.port, "nobody.50@riverside-vets.example", "not-the-password-1")
    check("after 50 failures from one address, further attempts from it wait (429 with Retry-After) whatever the account",
          status == 429 and guess == 429 and headers.get("retry-after", "").strip().isdigit(),
          f"{colleague} with the right password: {status} (Retry-After {headers.get('retry-after')!r}); "
          f"a 51st failure for a new made-up account: {guess}")
    # …but not the staff on devices they signed in on before: their attempts count against the
    # device and their own account (docs/permissions.md), so the clinic keeps working.
    known, _, _ = sign_in(server.port, nurse, PASSWORD, headers={"Cookie": device} if device else None)
    other, _, _ = sign_in(server.port, colleague, PASSWORD, headers={"Cookie": device} if device else None)
    check("behind the locked address, a colleague on a device they signed in on before still gets in; the device's cookie is theirs alone",
          device.startswith("vetnet_device=v1.") and known == 200 and other == 429,
          f"{nurse} with the device cookie from this morning: {known}; {colleague} with the same cookie: {other}")


# ---------------------------------------------------------------------------------------------
# 7. Trusted proxies

def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def ledger(server: Server, address: str, accounts: list[str]) -> int:
    """Attempts the store counts for `address`: under its own key and, once it is over its
    limit, under its per-account keys."""
    path = server.data_dir / "vetnet.sqlite"
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        rows = dict(connection.execute("SELECT key, COUNT(*) FROM sign_in_attempt GROUP BY key").fetchall())
    finally:
        connection.close()
    total = rows.get("address:" + sha(address), 0)
    for account in accounts:
        total += rows.get("address-account:" + sha(address + "\x1f" + account.lower()), 0)
    return total


def check_untrusted_forwarding(untrusted: Server) -> None:
    forwarded = "203.0.113.7"
    # 7a. Not trusted: the header is ignored, failures count for the real peer.
    made_up = [f"proxyless.{i}@riverside-vets.example" for i in range(3)]
    before = {a: ledger(untrusted, a, made_up) for a in (LOCAL, forwarded)}
    statuses = parallel_sign_ins(untrusted.port, [(e, "not-the-password-2", {"X-Forwarded-For": forwarded}) for e in made_up])
    after = {a: ledger(untrusted, a, made_up) for a in (LOCAL, forwarded)}
    check("no trusted proxy: failures with X-Forwarded-For count for the real peer",
          after[LOCAL] - before[LOCAL] == len(made_up) and after[forwarded] == before[forwarded],
          f"{len(made_up)} failures ({sorted(set(statuses))}) with X-Forwarded-For {forwarded}: ledger +{after[LOCAL] - before[LOCAL]} "
          f"for {LOCAL}, +{after[forwarded] - before[forwarded]} for {forwarded}")


def check_trusted_proxies(work: Path) -> None:
    forwarded = "203.0.113.7"
    trusted = start_server(work, "trusted", {"VETNET_TRUSTED_PROXIES": LOCAL, "VETNET_CONNECTION_IDLE_SECONDS": str(IDLE_SECONDS)})
    try:
        admin = trusted.login(DEMO_ADMIN)
        account = trusted.account(admin, "veterinarian")
        # 7b. Trusted: the forwarded address is the client's.
        wrong = parallel_sign_ins(trusted.port, [(account, f"wrong-password-{i}", {"X-Forwarded-For": forwarded}) for i in range(10)])
        counted = {a: ledger(trusted, a, [account]) for a in (LOCAL, forwarded)}
        check("trusted proxy 127.0.0.1: failures count for the X-Forwarded-For address",
              counted[forwarded] == 10 and counted[LOCAL] == 0,
              f"10 failures ({sorted(set(wrong))}) via the proxy for {forwarded}: ledger {counted[forwarded]} for {forwarded}, "
              f"{counted[LOCAL]} for {LOCAL}")
        through, headers_through, _ = sign_in(trusted.port, account, PASSWORD, {"X-Forwarded-For": forwarded})
        direct, headers_direct, _ = sign_in(trusted.port, account, PASSWORD)
        elsewhere, _, _ = sign_in(trusted.port, account, PASSWORD, {"X-Forwarded-For": "198.51.100.23"})
        check("the per-account limit holds whatever the address: the 11th attempt is 429 via the proxy, direct and from another client",
              (through, direct, elsewhere) == (429, 429, 429),
              f"{account}: via the proxy {through} (Retry-After {headers_through.get('retry-after')!r}), direct {direct} "
              f"(Retry-After {headers_direct.get('retry-after')!r}), forwarded for 198.51.100.23 {elsewhere}")

        # A chain: the right-most untrusted hop is the client (the left ones are the client's own words).
        chain_account = ["chain.0@riverside-vets.example"]
        spoofed, real = "198.51.100.66", "203.0.113.9"
        sign_in(trusted.port, chain_account[0], "not-the-password-3", {"X-Forwarded-For": f"{spoofed}, {real}"})
        chain = {a: ledger(trusted, a, chain_account) for a in (spoofed, real)}
        check("X-Forwarded-For chain: the right-most untrusted hop is the client", chain[real] == 1 and chain[spoofed] == 0,
              f"'{spoofed}, {real}': ledger {chain[real]} for {real}, {chain[spoofed]} for {spoofed}")

        # Two header lines: the client sends its own header and the proxy adds a second line (as many proxies do):
        # the lines form one list (RFC 9110 §5.3), so the proxy's own (last) entry names the client.
        second_account = "chain.1@riverside-vets.example"
        spoofed2, real2 = "198.51.100.77", "203.0.113.10"
        body = json.dumps({"email": second_account, "password": "not-the-password-4"}).encode()
        raw = (f"POST /api/v1/auth/login HTTP/1.1\r\nHost: {LOCAL}:{trusted.port}\r\nContent-Type: application/json\r\n"
               f"X-Forwarded-For: {spoofed2}\r\nX-Forwarded-For: {real2}\r\nContent-Length: {len(body)}\r\n"
               "Connection: close\r\n\r\n").encode() + body
        status, _ = raw_exchange(trusted.port, raw)
        lines = {a: ledger(trusted, a, [second_account]) for a in (spoofed2, real2)}
        check("X-Forwarded-For in two header lines: the proxy's line (the last) names the client",
              lines[real2] == 1 and lines[spoofed2] == 0,
              f"status {status}; ledger {lines[real2]} for {real2} (proxy's line), {lines[spoofed2]} for {spoofed2} (client's own line)")
    finally:
        trusted.stop()


# ---------------------------------------------------------------------------------------------

def run(name: str, function, *args) -> None:
    began = time.perf_counter()
    print(f"--- {name}", flush=True)
    try:
        function(*args)
    except Exception as error:  # a harness or server failure must not hide the other checks
        check(name, False, f"{type(error).__name__}: {error}")
        traceback.print_exc()
    note(f"({time.perf_counter() - began:.1f} s)")


def main() -> int:
    global BINARY, STRICT_TIMING
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vetnet", type=Path, required=True)
    parser.add_argument("--only", default="1,2,3,4,5,6,7", help="comma-separated check numbers")
    parser.add_argument("--keep", action="store_true", help="keep the temporary stores and logs")
    parser.add_argument("--timing", action="store_true",
                        help="fail on the speed targets too (/health within 1 s, the optimizer within ±20 %%): for release builds")
    args = parser.parse_args()
    BINARY = args.vetnet.resolve()
    STRICT_TIMING = args.timing
    only = {int(n) for n in args.only.split(",") if n.strip()}
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(max(hard, soft), 1 << 20)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    work = Path(tempfile.mkdtemp(prefix="vetnet-hardening-"))
    started = time.perf_counter()
    print(f"vetnet {BINARY}; work {work}; descriptor limit {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}", flush=True)
    try:
        if only & {1, 2, 3, 4, 5}:
            server = start_server(work, "main", {"VETNET_CONNECTION_IDLE_SECONDS": str(IDLE_SECONDS),
                                                 "VETNET_MAX_CONNECTIONS": str(MAX_CONNECTIONS)})
            try:
                admin = server.login(DEMO_ADMIN)
                if 1 in only:
                    run("1. slowloris", check_slowloris, server)
                if 2 in only:
                    run("2. descriptor exhaustion", check_descriptors, server)
                if 3 in only:
                    run("3. live streams per account", check_streams, server, admin)
                if 4 in only:
                    run("4. optimizer time limit and concurrency", check_optimizer, server, admin)
                if 5 in only:
                    run("5. duplicate JSON keys", check_duplicate_keys, server, admin)
                if 7 in only:
                    run("7a. X-Forwarded-For without a trusted proxy", check_untrusted_forwarding, server)
            finally:
                server.stop()
        if 6 in only:
            throttled = start_server(work, "throttle", {"VETNET_CONNECTION_IDLE_SECONDS": str(IDLE_SECONDS)})
            try:
                run("6. sign-in throttle", check_sign_in_throttle, throttled, throttled.login(DEMO_ADMIN))
            finally:
                throttled.stop()
        if 7 in only:
            run("7b. trusted proxies", check_trusted_proxies, work)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            import shutil
            shutil.rmtree(work, ignore_errors=True)
    failed = [name for name, ok, _ in RESULTS if not ok]
    print(f"availability checks: {len(RESULTS) - len(failed)} passed, {len(failed)} failed "
          f"in {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


BINARY = Path()

if __name__ == "__main__":
    sys.exit(main())
