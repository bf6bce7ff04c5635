"""A VetNet server on a temporary store and clients for its live stream, for the live checks
and the live benchmark. Standard library only."""
import json
import os
import selectors
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

DEMO_DOMAIN = "riverside-vets.example"
DEMO_ADMIN = f"fiona.campbell@{DEMO_DOMAIN}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(base: str, path: str, method: str = "GET", token: str | None = None, body: object | None = None,
         headers: dict | None = None) -> tuple[int, object]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    if token:
        request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw) if raw else None
        except ValueError:
            return error.code, raw.decode(errors="replace")


class Server:
    """`vetnet serve --demo` on `data_dir`; restartable on the same store."""

    def __init__(self, binary: Path, data_dir: Path, password: str, log_path: Path, extra_env: dict | None = None):
        self.binary, self.data_dir, self.password, self.log_path = binary, data_dir, password, log_path
        self.extra_env = extra_env or {}
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> None:
        env = dict(os.environ, VETNET_DEMO_PASSWORD=self.password, VETNET_LOG_LEVEL="warning", **self.extra_env)
        for name in ("VETNET_HOST", "VETNET_PORT", "VETNET_DATA_DIR", "VETNET_DEMO"):
            env.pop(name, None)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen([str(self.binary), "serve", "--demo", "--data-dir", str(self.data_dir), "--host", "127.0.0.1",
                                         "--port", str(self.port)], env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                        start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}; see {self.log_path}")
            try:
                if call(self.base, "/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("the server did not become healthy")

    def kill(self) -> None:
        """SIGKILL: no graceful shutdown, no chance to flush anything not already durable."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss_kib(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def login(self, email: str) -> str:
        status, body = call(self.base, "/api/v1/auth/login", "POST", body={"email": email, "password": self.password})
        if status != 200:
            raise RuntimeError(f"sign-in as {email} failed: {status} {body}")
        return body["token"]

    def account(self, admin_token: str, role: str) -> str:
        _, body = call(self.base, "/api/v1/users?limit=200", token=admin_token)
        return sorted(u["email"] for u in body["items"] if u["role"] == role and not u.get("disabled"))[0]


class EventStream:
    """One `GET /api/v1/events` connection, read without blocking: `feed()` takes the bytes
    that arrived and returns the frames they completed, each stamped with its arrival time."""

    def __init__(self, port: int, token: str, last_event_id: int | None = None, query: str = ""):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        lines = [f"GET /api/v1/events{query} HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Authorization: Bearer {token}",
                 "Accept: text/event-stream"]
        if last_event_id is not None:
            lines.append(f"Last-Event-ID: {last_event_id}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.raw = b""
        self.body = b""
        self.status: int | None = None
        self.chunked = False
        self.closed = False
        self.frames: list[dict] = []

    def fileno(self) -> int:
        return self.sock.fileno()

    def feed(self) -> list[dict]:
        stamp = time.perf_counter()
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return []
        except OSError:
            data = b""
        if not data:
            self.closed = True
        self.raw += data
        if self.status is None:
            if b"\r\n\r\n" not in self.raw:
                return []
            head, self.raw = self.raw.split(b"\r\n\r\n", 1)
            header_lines = head.decode().split("\r\n")
            self.status = int(header_lines[0].split()[1])
            self.chunked = any(h.lower().startswith("transfer-encoding:") and "chunked" in h.lower() for h in header_lines[1:])
        if self.chunked:
            while True:
                if b"\r\n" not in self.raw:
                    break
                size_line, rest = self.raw.split(b"\r\n", 1)
                size = int(size_line.split(b";")[0] or b"0", 16)
                if size == 0:
                    self.closed = True
                    self.raw = b""
                    break
                if len(rest) < size + 2:
                    break
                self.body += rest[:size]
                self.raw = rest[size + 2:]
        else:
            self.body += self.raw
            self.raw = b""
        completed = []
        while b"\n\n" in self.body:
            block, self.body = self.body.split(b"\n\n", 1)
            frame = {"at": stamp}
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    frame.setdefault("comment", line[1:].strip())
                elif ":" in line:
                    name, value = line.split(":", 1)
                    frame[name] = value[1:] if value.startswith(" ") else value
            if "data" in frame:
                frame["json"] = json.loads(frame["data"])
            completed.append(frame)
        self.frames += completed
        return completed

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def read_until(streams: list[EventStream], done, timeout: float) -> bool:
    """Reads every stream as bytes arrive until `done()` or `timeout` seconds; True if done."""
    selector = selectors.DefaultSelector()
    for stream in streams:
        stream.sock.setblocking(False)
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    deadline = time.perf_counter() + timeout
    try:
        while not done():
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            for key, _ in selector.select(min(left, 0.5)):
                stream = key.data
                stream.feed()
                if stream.closed:
                    selector.unregister(stream.sock)
        return True
    finally:
        selector.close()
