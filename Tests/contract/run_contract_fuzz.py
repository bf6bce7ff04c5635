#!/usr/bin/env python3
"""Contract fuzzing of the VetNet HTTP API against its own OpenAPI document.

Starts `vetnet serve --demo` on a private data directory and a free loopback port, signs in
as the demo administrator and a demo receptionist, and runs Schemathesis (every check) once per
role: every phase as the administrator; as the receptionist every phase but coverage, whose
boundary values test input validation that does not depend on the role (the administrator's
run has them all), while the examples, fuzzing and stateful phases reach every operation with
the receptionist's token and check what that role is allowed and refused. Operations that would end a run — signing out, purging archived
patients, changing an account's role or disabling it — are left out of those runs and fuzzed
afterwards in small runs of their own, each with a freshly created account. Finally the
server must still be up, and `vetnet audit verify` must find the audit chain intact.

Standard library plus schemathesis (see requirements.txt). Exit status 0 only when every run
passed, the server never went down and the audit chain verified.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import selectors
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

SCHEMATHESIS_VERSION = "4.32.5"
DEMO_DOMAIN = "riverside-vets.example"
# The demo administrator (Sources/HTTPAPI/Demo/DemoPracticeData.swift). The sign-in banner
# `serve --demo` prints goes to a pipe here, where it stays buffered until the process exits,
# so the harness knows the administrator's address and finds the other accounts through the API.
DEMO_ADMIN_EMAIL = f"fiona.campbell@{DEMO_DOMAIN}"
PHASES = "examples,coverage,fuzzing,stateful"
# The receptionist's run: the same operations without the coverage phase (see the docstring).
ROLE_PHASES = "examples,fuzzing,stateful"
# Operations that end or disturb the run that calls them; fuzzed only in isolated runs.
ISOLATED_OPERATIONS = ("logout", "purgeArchived", "updateUser", "resetSecondFactor")
# A valid request to these never ends (a Server-Sent Events stream stays open until the
# session ends), which a fuzzer can only report as a timeout; Tests/live/run_live_checks.py
# and the Swift suite LiveEventsTests exercise them instead.
STREAMING_OPERATIONS = ("streamEvents",)
# Optimization may legitimately take its whole time limit (`timeLimitSeconds`, at most 30 s by
# the document), so the response-time check allows a little more than that.
MAX_RESPONSE_SECONDS = 40
REQUEST_TIMEOUT_SECONDS = 45
MAX_SERVER_RESTARTS = 25
# A server that does not answer /health for this long is hung (longer than any legitimate
# request: optimization stops at 30 s and runs on one of the cooperative threads).
HANG_SECONDS = 45
HEALTH_POLL_SECONDS = 2
# After this many crashes or hangs on the same operation within one run, the relay refuses it.
CRASHES_BEFORE_QUARANTINE = 3
ABORT_GRACE_SECONDS = 25


# --------------------------------------------------------------------------------------------
# HTTP helpers (standard library only)

def http_json(method: str, url: str, *, token: str | None = None, body: object | None = None,
              timeout: float = 30) -> tuple[int, object | None]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        raw = error.read()
        status = error.code
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def describe_exit(code: int | None) -> str:
    if code is None:
        return "running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


# --------------------------------------------------------------------------------------------
# A loopback TCP relay in front of the server. Schemathesis talks to it, so a server restart
# (after a crash or a hang) looks like a slow answer rather than a dead host: the relay holds
# new connections until the server is back. The request that brought the server down still
# sees its connection closed, and is reported. The relay also remembers the requests that
# never got an answer (the ones a crash or a hang swallowed), and can refuse an operation that
# keeps crashing the server, so shrinking a crash does not restart the server over and over.

@dataclass
class SwallowedRequest:
    key: str  # "METHOD /path"
    raw: bytes
    at: float
    label: str  # the run that sent it


def request_key(raw: bytes) -> str:
    line = raw.split(b"\r\n", 1)[0].decode("latin-1", "replace")
    parts = line.split(" ")
    if len(parts) < 2:
        return line[:80]
    return f"{parts[0]} {parts[1].split('?', 1)[0]}"


def curl_for(raw: bytes, base_url: str) -> str:
    """A curl command for a raw HTTP/1.1 request, the bearer token replaced by $TOKEN."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1", "replace").split("\r\n")
    method, target = (lines[0].split(" ") + ["", ""])[:2]
    command = ["curl", "-X", method]
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() in ("host", "user-agent", "accept-encoding", "accept", "connection", "content-length",
                            "x-schemathesis-testcaseid"):
            continue
        if name.lower() == "authorization":
            value = " Bearer $TOKEN"
        command += ["-H", f"{name}:{value}"]
    if body:
        command += ["--data-binary", body.decode("utf-8", "replace")]
    command.append(base_url + target)
    return " ".join(part if part in ("curl", "-X", "-H", "--data-binary") or part == method else shlex.quote(part)
                    for part in command)


class RestartTolerantProxy:
    MAX_REMEMBERED_BYTES = 256 * 1024

    def __init__(self, upstream_port: Callable[[], int], wait_seconds: float) -> None:
        self._upstream_port = upstream_port
        self._wait_seconds = wait_seconds
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(128)
        self.port = self._listener.getsockname()[1]
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._generation = 0
        self._open: set[socket.socket] = set()
        self._swallowed: list[SwallowedRequest] = []
        self._quarantined: set[str] = set()
        self.refused = Counter()
        self.label = ""  # the run now talking through the relay
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._closed.set()
        try:
            self._listener.close()
        except OSError:
            pass
        self.reset()

    def reset(self) -> None:
        """Drops every connection of the finished run, so none is replayed to the next server."""
        with self._lock:
            self._generation += 1
            sockets, self._open = self._open, set()
            self._quarantined = set()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def quarantine(self, key: str) -> None:
        with self._lock:
            self._quarantined.add(key)

    def take_swallowed(self) -> list[SwallowedRequest]:
        with self._lock:
            taken, self._swallowed = self._swallowed, []
        return taken

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self._open.add(client)
                generation = self._generation
            threading.Thread(target=self._relay, args=(client, generation, self.label), name="proxy-relay",
                             daemon=True).start()

    @staticmethod
    def _client_gone(client: socket.socket) -> bool:
        timeout = client.gettimeout()
        client.setblocking(False)
        try:
            return client.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True
        finally:
            client.settimeout(timeout)

    def _connect_upstream(self, client: socket.socket, generation: int) -> socket.socket | None:
        """Waits for the server (it may be restarting), as long as the client is still there."""
        deadline = time.monotonic() + self._wait_seconds
        while not self._closed.is_set() and time.monotonic() < deadline and generation == self._generation:
            if self._client_gone(client):
                return None
            try:
                return socket.create_connection(("127.0.0.1", self._upstream_port()), timeout=2)
            except OSError:
                time.sleep(0.2)
        return None

    def _is_quarantined(self, key: str) -> bool:
        with self._lock:
            if key in self._quarantined:
                self.refused[key] += 1
                return True
        return False

    def _relay(self, client: socket.socket, generation: int, label: str) -> None:
        upstream: socket.socket | None = None
        request: bytearray | None = None  # the request in flight on this connection, if unanswered
        try:
            client.settimeout(self._wait_seconds)
            first = client.recv(65536)
            if not first or self._is_quarantined(request_key(first)):
                return
            upstream = self._connect_upstream(client, generation)
            if upstream is None or generation != self._generation:
                return
            upstream.settimeout(None)
            client.settimeout(None)
            # Each chunk goes on at once: with Nagle's algorithm a relayed request or answer in
            # two writes (headers, then body) waits for the peer's delayed acknowledgement,
            # some 40 ms a request, which made the fuzz mostly idle.
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._open.add(upstream)
            upstream.sendall(first)
            request = bytearray(first)
            with selectors.DefaultSelector() as selector:
                selector.register(client, selectors.EVENT_READ)
                selector.register(upstream, selectors.EVENT_READ)
                while not self._closed.is_set():
                    for key, _ in selector.select(timeout=1):
                        source = key.fileobj
                        try:
                            data = source.recv(65536)
                        except OSError:
                            data = b""
                        if not data:
                            return
                        if source is upstream:
                            request = None
                            client.sendall(data)
                        else:
                            if request is None:
                                if self._is_quarantined(request_key(data)):
                                    return
                                request = bytearray()
                            if len(request) < self.MAX_REMEMBERED_BYTES:
                                request += data
                            upstream.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                if request:
                    self._swallowed.append(SwallowedRequest(request_key(bytes(request)), bytes(request), time.time(), label))
                self._open.discard(client)
                if upstream is not None:
                    self._open.discard(upstream)
            for sock in (client, upstream):
                if sock is None:
                    continue
                try:
                    sock.close()
                except OSError:
                    pass


# --------------------------------------------------------------------------------------------
# The server under test, restarted by a watchdog if it goes down so the runs can go on

@dataclass
class Crash:
    during: str
    at: float
    exit: str
    stderr_tail: str
    reason: str
    operation: str = "?"  # "METHOD /path" of the request the crash or hang swallowed
    requests: list[str] = field(default_factory=list)  # curl commands of the swallowed requests


class Server:
    def __init__(self, binary: Path, data_dir: Path, password: str, log_dir: Path) -> None:
        self.binary = binary
        self.data_dir = data_dir
        self.password = password
        self.log_dir = log_dir
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.crashes: list[Crash] = []
        self.current_run = "start-up"
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._watchdog: threading.Thread | None = None
        self._stderr_path = log_dir / "server.stderr.log"
        self._stdout_path = log_dir / "server.stdout.log"
        self._launches = 0
        self._launch_offset = 0
        self.proxy: RestartTolerantProxy | None = None
        self.quarantined: list[tuple[str, str]] = []  # (run, "METHOD /path")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _launch(self) -> None:
        env = dict(os.environ)
        env["VETNET_DEMO_PASSWORD"] = self.password
        env.setdefault("VETNET_LOG_LEVEL", "info")
        for name in ("VETNET_HOST", "VETNET_PORT", "VETNET_DATA_DIR", "VETNET_DEMO"):
            env.pop(name, None)
        self._launches += 1
        self.port = free_port()
        self._launch_offset = self._stderr_path.stat().st_size if self._stderr_path.exists() else 0
        with open(self._stderr_path, "ab") as err, open(self._stdout_path, "ab") as out:
            marker = f"\n===== launch {self._launches} ({time.strftime('%H:%M:%S')}) =====\n".encode()
            err.write(marker)
            out.write(marker)
            err.flush()
            out.flush()
            self.process = subprocess.Popen(
                [str(self.binary), "serve", "--demo", "--data-dir", str(self.data_dir),
                 "--host", "127.0.0.1", "--port", str(self.port)],
                env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)

    def start(self, timeout: float = 180) -> None:
        self._launch()
        self.wait_healthy(timeout)
        self._watchdog = threading.Thread(target=self._watch, name="server-watchdog", daemon=True)
        self._watchdog.start()

    def wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"vetnet serve stopped during start-up ({describe_exit(self.process.returncode)}); "
                                   f"see {self._stderr_path}")
            if self.healthy(timeout=2):
                return
            time.sleep(0.25)
        raise RuntimeError(f"vetnet serve did not answer /health within {timeout:.0f} s; see {self._stderr_path}")

    def healthy(self, timeout: float = 5) -> bool:
        try:
            status, body = http_json("GET", self.base_url + "/health", timeout=timeout)
        except (OSError, urllib.error.URLError):
            return False
        return status == 200 and isinstance(body, dict) and body.get("status") == "ok"

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None and self.healthy()

    def _stderr_since_launch(self) -> list[str]:
        try:
            with open(self._stderr_path, "rb") as stream:
                stream.seek(self._launch_offset)
                return stream.read().decode(errors="replace").splitlines()
        except OSError:
            return []

    @staticmethod
    def _crash_reason(lines: list[str]) -> str:
        for pattern in ("Fatal error", "fatal error", "Program crashed", "panic"):
            for line in lines:
                if pattern in line:
                    return line.strip()
        return next((line.strip() for line in reversed(lines) if line.strip()), "no output")

    @staticmethod
    def _crash_excerpt(lines: list[str]) -> str:
        """The fatal error and the first frames of the crashed (or, after SIGABRT, the busy) thread."""
        fatal = list(dict.fromkeys(line for line in lines if "Fatal error" in line or "runtime failure" in line))[:2]
        start = next((i for i, line in enumerate(lines) if "crashed:" in line and "Thread" in line), None)
        if start is not None and "sigsuspend" in " ".join(lines[start:start + 3]):
            # Aborted from outside: the signal landed on an idle thread; show the next working one.
            start = next((i for i in range(start + 1, len(lines))
                          if lines[i].startswith("Thread ") and "Sources/" in " ".join(lines[i:i + 6])), start)
        frames = [line for line in lines[start:start + 30] if line.strip()] if start is not None else lines[-30:]
        return "\n".join(fatal + frames)

    @staticmethod
    def _busy_frames(lines: list[str], count: int = 4) -> str:
        """The project's own frames of the thread that was working when a hung server was aborted."""
        frames: list[str] = []
        for line in lines:
            if line.startswith("Thread "):
                if frames:
                    break
                continue
            match = re.search(r"\] +0x[0-9a-f]+ (.+?) \+ \d+ in vetnet at (?:.*/)?Sources/(\S+?):(\d+)", line) \
                or re.search(r"\] +0x[0-9a-f]+ (.+?) in vetnet at (?:.*/)?Sources/(\S+?):(\d+)", line)
            if match and "/.build/" not in line:
                function = re.sub(r"\(.*", "", match.group(1))
                frames.append(f"{function} ({match.group(2)}:{match.group(3)})")
        return " <- ".join(frames[:count])

    def _record_and_restart(self, exit_text: str, reason: str | None) -> bool:
        lines = self._stderr_since_launch()
        crash = Crash(during=self.current_run, at=time.time(), exit=exit_text,
                      stderr_tail=self._crash_excerpt(lines), reason=reason or self._crash_reason(lines))
        if self.proxy is not None:
            time.sleep(0.5)  # let the relay see the closed connection
            swallowed = self.proxy.take_swallowed()
            if swallowed:
                # Requests a client gave up on earlier (a hang's timeouts) are not this crash's.
                latest = swallowed[-1]
                swallowed = [item for item in swallowed if item.label == latest.label and item.at >= latest.at - 90]
                crash.operation = swallowed[-1].key
                crash.during = swallowed[-1].label or crash.during  # a crash may surface after its run ended
                crash.requests = [curl_for(item.raw, "http://127.0.0.1:8080") for item in swallowed[-3:]]
        self.crashes.append(crash)
        print(f"  !! server went down during the {crash.during} run on {crash.operation} ({crash.exit}): {crash.reason[:160]}",
              flush=True)
        same = sum(1 for c in self.crashes if c.during == crash.during and c.operation == crash.operation)
        if self.proxy is not None and crash.operation != "?" and same == CRASHES_BEFORE_QUARANTINE:
            # Shrinking a crash would restart the server again and again: refuse the operation for
            # the rest of this run (its connection is closed, as the crash did).
            self.proxy.quarantine(crash.operation)
            self.quarantined.append((crash.during, crash.operation))
            print(f"  !! {crash.operation} brought the server down {same} times: refused for the rest of the run", flush=True)
        if len(self.crashes) > MAX_SERVER_RESTARTS:
            print("  !! too many crashes; not restarting again", flush=True)
            self.process = None
            return False
        if self._stopping.is_set():
            return False
        # Sessions live in the store, so the fuzzer's tokens stay valid; the relay hides the new port.
        try:
            self._launch()
            self.wait_healthy(120)
        except RuntimeError as error:
            print(f"  !! restart failed: {error}", flush=True)
        return True

    def _watch(self) -> None:
        last_answer = time.monotonic()
        while not self._stopping.wait(HEALTH_POLL_SECONDS):
            with self._lock:
                if self._stopping.is_set() or self.process is None:
                    continue
                if self.process.poll() is not None:
                    if not self._record_and_restart(describe_exit(self.process.returncode), None):
                        return
                    last_answer = time.monotonic()
                    continue
            if self.healthy(timeout=HEALTH_POLL_SECONDS * 2):
                last_answer = time.monotonic()
                continue
            if time.monotonic() - last_answer < HANG_SECONDS:
                continue
            with self._lock:
                if self._stopping.is_set() or self.process is None or self.process.poll() is not None:
                    continue
                # Hung: abort it so the runtime prints every thread's backtrace, then start afresh.
                process = self.process
                process.send_signal(signal.SIGABRT)
                try:
                    # The backtracer prints every thread, then the process may linger: give it time to print.
                    process.wait(ABORT_GRACE_SECONDS)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                frames = self._busy_frames(self._stderr_since_launch())
                reason = f"hung: no answer to /health for {HANG_SECONDS} s" + (f"; busy in {frames}" if frames else "")
                if not self._record_and_restart(f"aborted after hanging, {describe_exit(process.returncode)}", reason):
                    return
                last_answer = time.monotonic()

    def settle(self, timeout: float = 150) -> bool:
        """Waits until the server has answered /health three times in a row, one second apart,
        so that a crash caused at the very end of a run is noticed (and blamed) before the next."""
        deadline = time.monotonic() + timeout
        answers = 0
        while time.monotonic() < deadline:
            process = self.process
            answers = answers + 1 if process is not None and process.poll() is None and self.healthy(timeout=2) else 0
            if answers >= 3:
                return True
            time.sleep(1)
        return False

    def stop(self, timeout: float = 30) -> str:
        self._stopping.set()
        # Under the watchdog's lock: a restart in progress finishes first, and none follows.
        with self._lock:
            process = self.process
            if process is None:
                return "not running"
            if process.poll() is not None:
                return describe_exit(process.returncode)
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            return describe_exit(process.returncode)


# --------------------------------------------------------------------------------------------
# Accounts

def login(server: Server, email: str, password: str) -> dict:
    status, body = http_json("POST", server.base_url + "/api/v1/auth/login", body={"email": email, "password": password})
    if status != 200 or not isinstance(body, dict) or "token" not in body:
        raise RuntimeError(f"sign-in as {email} failed: HTTP {status} {body}")
    return body


def find_account(server: Server, admin_token: str, role: str) -> str:
    cursor = None
    while True:
        url = server.base_url + "/api/v1/users?limit=200" + (f"&cursor={urllib.request.quote(cursor)}" if cursor else "")
        status, body = http_json("GET", url, token=admin_token)
        if status != 200 or not isinstance(body, dict):
            raise RuntimeError(f"listing accounts failed: HTTP {status} {body}")
        emails = sorted(user["email"] for user in body.get("items", []) if user.get("role") == role and not user.get("disabled"))
        if emails:
            return emails[0]
        cursor = body.get("nextCursor")
        if not cursor:
            raise RuntimeError(f"the demo practice has no {role} account")


def create_account(server: Server, admin_token: str, email: str, role: str, password: str) -> None:
    status, body = http_json("POST", server.base_url + "/api/v1/users", token=admin_token,
                             body={"email": email, "displayName": f"Contract fuzzing ({role})", "role": role, "password": password})
    if status != 201:
        raise RuntimeError(f"creating {email} failed: HTTP {status} {body}")


# --------------------------------------------------------------------------------------------
# Schemathesis runs

@dataclass
class RunSpec:
    name: str
    role: str
    token: str
    filters: list[str]
    reserve: float  # seconds of the budget kept for this run while the runs before it go on
    description: str
    phases: str = PHASES


@dataclass
class RunResult:
    spec: RunSpec
    exit_code: int | None = None
    seconds: float = 0.0
    interrupted: bool = False
    operations_selected: int = 0
    operations_tested: int = 0
    cases: int = 0
    failures_by_check: Counter = field(default_factory=Counter)
    failing_operations: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)
    report_dir: Path | None = None
    note: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.failures_by_check) or bool(self.errors) or self.exit_code != 0 or self.interrupted


def check_names_for(code: str, type_name: str) -> str:
    try:
        from schemathesis.failure_codes import get_failure_class
        cls = get_failure_class(code)
        if cls is not None and cls.checks:
            return cls.checks[0]
    except Exception:  # pragma: no cover - older or newer schemathesis layouts
        pass
    return type_name or code


def schemathesis_command(base_url: str, spec: RunSpec, args: argparse.Namespace, report_dir: Path) -> list[str]:
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(Path(__file__).resolve().parent / "schemathesis.toml"),
        "run", base_url + "/openapi.yaml",
        "--url", base_url,
        "--phases", spec.phases,
        "--checks", "all",
        "--continue-on-failure",
        "--max-response-time", str(MAX_RESPONSE_SECONDS),
        "--mode", "all",
        "--seed", str(args.seed),
        "--max-examples", str(args.max_examples),
        "--workers", str(args.workers),
        "--request-timeout", str(REQUEST_TIMEOUT_SECONDS),
        "--wait-for-schema", "30",
        "--suppress-health-check", "all",
        "--generation-database", "none",
        "--header", f"Authorization: Bearer {spec.token}",
        "--report", "junit,json,ndjson",
        "--report-dir", str(report_dir),
        "--report-junit-path", str(report_dir / "junit.xml"),
        "--report-json-path", str(report_dir / "report.json"),
        "--report-ndjson-path", str(report_dir / "events.ndjson"),
        "--output-truncate", "false",
        "--no-color",
    ]
    if args.deterministic:
        command.append("--generation-deterministic")
    command += spec.filters
    for operation_id in args.exclude_operation_id:
        command += ["--exclude-operation-id", operation_id]
    return command


def redact(command: list[str], token: str) -> str:
    return " ".join(part.replace(token, "<token>") if token else part for part in command)


def run_schemathesis(server: Server, base_url: str, spec: RunSpec, args: argparse.Namespace, report_root: Path,
                     allowed: float) -> RunResult:
    report_dir = report_root / spec.name
    if report_dir.exists():
        shutil.rmtree(report_dir)
    report_dir.mkdir(parents=True)
    result = RunResult(spec=spec, report_dir=report_dir)
    command = schemathesis_command(base_url, spec, args, report_dir)
    (report_dir / "command.txt").write_text(redact(command, spec.token) + "\n")
    server.current_run = spec.name
    print(f"-- {spec.name}: {spec.description} (budget {allowed:.0f} s)", flush=True)
    started = time.monotonic()
    env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1")
    with open(report_dir / "schemathesis.log", "wb") as log:
        # The run's directory is the working directory: Schemathesis keeps its replayable
        # crash files (`st replay ID`) in ./.schemathesis there.
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                   cwd=report_dir)
        try:
            result.exit_code = process.wait(timeout=max(allowed, 1))
        except subprocess.TimeoutExpired:
            result.interrupted = True
            process.send_signal(signal.SIGINT)  # Schemathesis stops and still writes its reports
            try:
                result.exit_code = process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                result.exit_code = process.wait()
        finally:
            if process.poll() is None:  # the harness itself is being stopped
                process.kill()
                process.wait()
    result.seconds = time.monotonic() - started
    collect_results(result)
    if result.interrupted:
        result.note = f"stopped at its time budget ({allowed:.0f} s); raise --budget-seconds or lower --max-examples"
    print(f"   done in {result.seconds:.0f} s: exit {result.exit_code}, {result.cases} test cases, "
          f"{sum(result.failures_by_check.values())} failures, {len(result.errors)} error kinds", flush=True)
    return result


def collect_results(result: RunResult) -> None:
    report_dir = result.report_dir
    assert report_dir is not None
    report_path = report_dir / "report.json"
    try:
        report = json.loads(report_path.read_text()) if report_path.exists() else None
    except ValueError:
        report = None  # Schemathesis was stopped before it could write its report
    if report is not None:
        operations = report.get("operations") or {}
        result.operations_selected = operations.get("selected", 0)
        result.operations_tested = operations.get("tested", 0)
        result.cases = (report.get("test_cases") or {}).get("generated", 0)
        for group in report.get("failures") or []:
            check = check_names_for(group.get("code", ""), group.get("type", ""))
            result.failures_by_check[check] += group.get("count", 0)
        result.errors = [f"{error['title']} ×{error['count']}" for error in report.get("errors") or []]
    else:
        how = f"Schemathesis {describe_exit(result.exit_code)}" if result.exit_code is not None else "Schemathesis"
        result.errors = [f"no report written: {how} (see schemathesis.log)"]
    # The operation each failing check was run against (stateful failures included).
    events = report_dir / "events.ndjson"
    if events.exists():
        for line in events.open(encoding="utf-8", errors="replace"):
            if '"failure_info"' not in line:
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue
            recorder = (event.get("ScenarioFinished") or {}).get("recorder") or {}
            for checks in (recorder.get("checks") or {}).values():
                for check in checks:
                    failure = (check.get("failure_info") or {}).get("failure") or {}
                    if failure.get("operation"):
                        result.failing_operations.setdefault(check.get("name"), set()).add(failure["operation"])
    write_failure_digest(result)


def write_failure_digest(result: RunResult) -> None:
    """failures.md: every failure Schemathesis printed, by operation, with its curl reproduction."""
    report_dir = result.report_dir
    assert report_dir is not None
    junit = report_dir / "junit.xml"
    if not junit.exists():
        return
    lines = [f"# {result.spec.name}: failures and errors", ""]
    try:
        tree = ET.parse(junit)
    except ET.ParseError as error:
        (report_dir / "failures.md").write_text(f"junit.xml could not be read: {error}\n")
        return
    for case in tree.iter("testcase"):
        for kind in ("failure", "error"):
            for element in case.findall(kind):
                lines += [f"## {case.get('name')} ({kind})", "", "```", (element.text or element.get("message") or "").strip(), "```", ""]
    (report_dir / "failures.md").write_text("\n".join(lines) + "\n")


# --------------------------------------------------------------------------------------------
# Audit chain

def verify_audit(binary: Path, data_dir: Path, log_dir: Path) -> tuple[bool, str]:
    env = {key: value for key, value in os.environ.items() if key != "VETNET_DATA_DIR"}
    completed = subprocess.run([str(binary), "audit", "verify", "--data-dir", str(data_dir)], capture_output=True,
                               text=True, env=env, timeout=300)
    output = (completed.stdout + completed.stderr).strip()
    (log_dir / "audit-verify.txt").write_text(f"exit {completed.returncode}\n{output}\n")
    return completed.returncode == 0, output


# --------------------------------------------------------------------------------------------
# Summary

def write_crash_digest(report_root: Path, server: Server) -> None:
    """crashes.md: every crash and hang, with the requests it swallowed (captured by the relay)."""
    lines = ["# Server crashes and hangs", ""]
    if not server.crashes:
        lines.append("None.")
    for number, crash in enumerate(server.crashes, 1):
        lines += [f"## {number}. {crash.operation} during the {crash.during} run ({crash.exit})", "",
                  f"{crash.reason}", "", "Requests in flight (server at http://127.0.0.1:8080):", ""]
        lines += [f"```sh\n{command}\n```" for command in crash.requests] or ["(none captured)"]
        lines += ["", "<details><summary>server log</summary>", "", "```", crash.stderr_tail, "```", "</details>", ""]
    (report_root / "crashes.md").write_text("\n".join(lines) + "\n")


def print_summary(args, results: list[RunResult], server: Server, alive: bool, audit_ok: bool | None, audit_text: str,
                  report_root: Path, elapsed: float, problems: list[str]) -> None:
    print()
    print("=" * 78)
    print(f"VetNet contract fuzzing: schemathesis {SCHEMATHESIS_VERSION}, seed {args.seed}, "
          f"max-examples {args.max_examples}, workers {args.workers}, {elapsed:.0f} s")
    print(f"{'run':<15}{'role':<15}{'operations':>11}{'cases':>8}{'failures':>10}{'errors':>8}{'time':>8}")
    for result in results:
        print(f"{result.spec.name:<15}{result.spec.role:<15}"
              f"{f'{result.operations_tested}/{result.operations_selected}':>11}{result.cases:>8}"
              f"{sum(result.failures_by_check.values()):>10}{len(result.errors):>8}{result.seconds:>7.0f}s")
        for check, count in sorted(result.failures_by_check.items(), key=lambda item: (-item[1], item[0])):
            operations = sorted(result.failing_operations.get(check, ()))
            shown = ", ".join(operations[:3]) + (f", +{len(operations) - 3} more" if len(operations) > 3 else "")
            print(f"    {check:<30}{count:>4}  {shown}")
        for error in result.errors:
            print(f"    error: {error}")
        if result.note:
            print(f"    note: {result.note}")
    if server.crashes:
        print(f"server alive: {'yes' if alive else 'no'} at the end, but it went down {len(server.crashes)} time(s) and was restarted:")
        grouped = Counter((crash.during, crash.operation, crash.exit, crash.reason) for crash in server.crashes)
        for (during, operation, exit_text, reason), count in grouped.items():
            times = f" ×{count}" if count > 1 else ""
            print(f"    {during}{times}: {operation} ({exit_text}): {reason[:130]}")
        for during, operation in server.quarantined:
            print(f"    {during}: {operation} refused after {CRASHES_BEFORE_QUARANTINE} crashes "
                  f"({server.proxy.refused[operation] if server.proxy else 0} requests refused)")
        print(f"    crashing requests: {report_root / 'crashes.md'}")
    else:
        print(f"server alive: {'yes' if alive else 'no'}")
    if audit_ok is None:
        print("audit chain verified: not run")
    else:
        first = audit_text.splitlines()[0] if audit_text else ""
        print(f"audit chain verified: {'yes' if audit_ok else 'no'} ({first[:120]})")
    for problem in problems:
        print(f"problem: {problem}")
    verdict = "PASS" if not any(r.failed for r in results) and alive and not server.crashes and audit_ok and not problems else "FAIL"
    print(f"result: {verdict}; reports in {report_root} (failures.md per run, crashes.md)")
    print("=" * 78)
    # One plain closing line: each run, the server staying up and the audit chain are one test each.
    outcomes = [not r.failed for r in results] + [alive and not server.crashes, bool(audit_ok)]
    print(f"contract: {sum(outcomes)} passed, {len(outcomes) - sum(outcomes)} failed")


# --------------------------------------------------------------------------------------------

def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vetnet", required=True, type=Path, help="the vetnet binary to test")
    parser.add_argument("--seed", type=int, default=20261123, help="Schemathesis seed (default %(default)s)")
    parser.add_argument("--max-examples", type=int, default=30,
                        help="test cases per operation and phase (default %(default)s)")
    parser.add_argument("--budget-seconds", type=float, default=480,
                        help="wall-clock budget for all Schemathesis runs together (default %(default)s)")
    parser.add_argument("--report", type=Path, default=Path("contract-report"),
                        help="directory for the reports (default %(default)s)")
    parser.add_argument("--workers", type=int, default=1, help="concurrent Schemathesis workers (default %(default)s)")
    parser.add_argument("--deterministic", action="store_true",
                        help="add --generation-deterministic (same cases on every run, fewer distinct inputs)")
    parser.add_argument("--exclude-operation-id", action="append", default=[], metavar="ID",
                        help="leave an operation out of every run (repeatable; for investigating)")
    parser.add_argument("--only", action="append", default=[], metavar="RUN",
                        help="run only these runs: administrator, receptionist, logout, purge, staff-updates (repeatable)")
    parser.add_argument("--keep-data", action="store_true", help="keep the server's data directory")
    return parser.parse_args(argv)


def _stop_on_sigterm(signum, frame):  # noqa: ARG001
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    # SIGTERM (e.g. a CI timeout) unwinds like Ctrl-C: the server and Schemathesis are stopped
    # and the data directory removed.
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    started = time.monotonic()
    binary = args.vetnet.resolve()
    if not os.access(binary, os.X_OK):
        print(f"not an executable: {binary}", file=sys.stderr)
        return 2
    try:
        import schemathesis  # noqa: F401
        from schemathesis.core.version import SCHEMATHESIS_VERSION as installed
    except ImportError:
        print("schemathesis is not installed: pip install -r Tests/contract/requirements.txt", file=sys.stderr)
        return 2
    if installed != SCHEMATHESIS_VERSION:
        print(f"warning: schemathesis {installed} is installed; this harness is pinned to {SCHEMATHESIS_VERSION}", file=sys.stderr)

    report_root = args.report.resolve()
    report_root.mkdir(parents=True, exist_ok=True)
    data_dir = Path(tempfile.mkdtemp(prefix="vetnet-contract-"))  # mode 0700
    os.chmod(data_dir, 0o700)
    password = "Ct-" + secrets.token_urlsafe(18)
    server = Server(binary, data_dir, password, report_root)
    results: list[RunResult] = []
    problems: list[str] = []
    alive = False
    proxy: RestartTolerantProxy | None = None
    audit_ok: bool | None = None
    audit_text = ""
    try:
        print(f"starting {binary} serve --demo on {server.base_url} (data {data_dir})", flush=True)
        server.start()
        proxy = RestartTolerantProxy(lambda: server.port, wait_seconds=180)
        server.proxy = proxy
        admin = login(server, DEMO_ADMIN_EMAIL, password)
        admin_token = admin["token"]
        receptionist_email = find_account(server, admin_token, "receptionist")
        receptionist_token = login(server, receptionist_email, password)["token"]
        # Accounts of the isolated runs are created and signed in now: fuzzing sign-in with wrong
        # passwords soon throttles every sign-in from this address for a quarter of an hour.
        suffix = secrets.token_hex(3)
        extra = {
            "logout": (f"contract.logout.{suffix}@{DEMO_DOMAIN}", "receptionist"),
            "purge": (f"contract.purge.{suffix}@{DEMO_DOMAIN}", "administrator"),
            "staff-updates": (f"contract.staff.{suffix}@{DEMO_DOMAIN}", "administrator"),
        }
        extra_tokens = {}
        for name, (email, role) in extra.items():
            create_account(server, admin_token, email, role, password)
            extra_tokens[name] = login(server, email, password)["token"]

        excluded = [flag for operation_id in ISOLATED_OPERATIONS + STREAMING_OPERATIONS for flag in ("--exclude-operation-id", operation_id)]
        specs = [
            RunSpec("administrator", "administrator", admin_token, excluded, 150,
                    f"every operation but {', '.join(ISOLATED_OPERATIONS)}, as {DEMO_ADMIN_EMAIL}"),
            RunSpec("receptionist", "receptionist", receptionist_token, excluded, 60,
                    f"every operation but {', '.join(ISOLATED_OPERATIONS)}, as {receptionist_email}, phases {ROLE_PHASES}",
                    phases=ROLE_PHASES),
            RunSpec("logout", "receptionist", extra_tokens["logout"], ["--include-operation-id", "logout"], 15,
                    f"POST /api/v1/auth/logout only, as {extra['logout'][0]}"),
            RunSpec("purge", "administrator", extra_tokens["purge"], ["--include-operation-id", "purgeArchived"], 20,
                    f"POST /api/v1/admin/purge only, as {extra['purge'][0]}"),
            RunSpec("staff-updates", "administrator", extra_tokens["staff-updates"],
                    [flag for operation_id in ("updateUser", "resetSecondFactor", "createUser", "listUsers", "getUser")
                     for flag in ("--include-operation-id", operation_id)], 60,
                    f"PATCH /api/v1/users/{{userId}} and DELETE …/second-factor with the user operations that feed them real ids, as {extra['staff-updates'][0]}"),
        ]
        if args.only:
            unknown = set(args.only) - {spec.name for spec in specs}
            if unknown:
                print(f"unknown run(s): {', '.join(sorted(unknown))}", file=sys.stderr)
                return 2
            specs = [spec for spec in specs if spec.name in args.only]

        budget_end = time.monotonic() + args.budget_seconds
        scale = min(1.0, args.budget_seconds / sum(s.reserve for s in specs))
        for index, spec in enumerate(specs):
            later = sum(s.reserve for s in specs[index + 1:]) * scale
            allowed = max(budget_end - time.monotonic() - later, spec.reserve * scale, 20)
            proxy.label = spec.name
            results.append(run_schemathesis(server, proxy.url, spec, args, report_root, allowed))
            server.settle()
            proxy.reset()

        server.current_run = "final health check"
        time.sleep(1)  # let the watchdog notice a crash caused by the very last request
        alive = server.alive()
    except Exception as error:  # noqa: BLE001 - any harness failure is reported, and fails the run
        problems.append(f"{type(error).__name__}: {error}")
    except BaseException:
        if proxy is not None:
            proxy.close()
        server.stop()
        if not args.keep_data:
            shutil.rmtree(data_dir, ignore_errors=True)
        raise
    if proxy is not None:
        proxy.close()
    stopped = server.stop()
    if stopped not in ("exit status 0", "not running"):
        problems.append(f"the server did not stop cleanly on SIGTERM ({stopped})")
    try:
        audit_ok, audit_text = verify_audit(binary, data_dir, report_root)
    except (OSError, subprocess.SubprocessError) as error:
        audit_ok, audit_text = False, f"vetnet audit verify failed to run: {error}"
    finally:
        if args.keep_data:
            print(f"data directory kept: {data_dir}")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)
    summary = {
        "seed": args.seed, "maxExamples": args.max_examples, "workers": args.workers,
        "seconds": round(time.monotonic() - started, 1),
        "runs": [{"name": r.spec.name, "role": r.spec.role, "exitCode": r.exit_code, "seconds": round(r.seconds, 1),
                  "interrupted": r.interrupted, "operationsTested": r.operations_tested,
                  "operationsSelected": r.operations_selected, "testCases": r.cases,
                  "failuresByCheck": dict(r.failures_by_check),
                  "failingOperations": {k: sorted(v) for k, v in r.failing_operations.items()},
                  "errors": r.errors} for r in results],
        "serverAlive": alive and not server.crashes,
        "crashes": [{"during": c.during, "operation": c.operation, "exit": c.exit, "reason": c.reason, "requests": c.requests,
                     "stderrTail": c.stderr_tail} for c in server.crashes],
        "quarantined": [{"during": run, "operation": operation} for run, operation in server.quarantined],
        "auditVerified": audit_ok, "auditOutput": audit_text, "problems": problems,
    }
    (report_root / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    write_crash_digest(report_root, server)
    print_summary(args, results, server, alive, audit_ok, audit_text, report_root, time.monotonic() - started, problems)
    ok = not problems and alive and not server.crashes and audit_ok and results and not any(r.failed for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
