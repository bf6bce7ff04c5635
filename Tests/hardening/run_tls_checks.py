#!/usr/bin/env python3
"""VetNet serving HTTPS itself: `vetnet serve --tls-cert … --tls-key …` on a temporary store
with a certificate made here by `openssl` for 127.0.0.1. Standard library only.

1. The app and the API answer over TLS 1.2 and 1.3, verified against that certificate, and every
   answer carries Strict-Transport-Security.
2. TLS 1.1 and older are refused at the handshake; plain HTTP on the port gets no HTTP answer;
   the plain-HTTP listener (--http-redirect-port) answers every method with 308 to the same
   path and query over HTTPS, and serves nothing itself.
3. A browser sign-in over TLS sets both session cookies `Secure` (and HttpOnly for the session).
4. SIGHUP reads a renewed certificate: new handshakes present it, a connection opened before
   goes on answering; a broken file on the next SIGHUP leaves the renewed one in use.
5. Refusals at start, naming the option: --tls-cert without --tls-key, a key file that holds no
   key, a missing certificate file; the key's bytes appear in no output.

Prints PASS/FAIL lines; exit status 0 only when every check passes.

    python3 Tests/hardening/run_tls_checks.py --vetnet .build/debug/vetnet
"""
import argparse
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from vetnet_live import DEMO_ADMIN, free_port  # noqa: E402

PASSWORD = "tls-checks-kestrel-31"
# Old protocol versions are asked for on purpose, to see the server refuse them.
warnings.filterwarnings("ignore", category=DeprecationWarning)
failures: list[str] = []


def report(ok: bool, name: str, detail: str = "") -> None:
    print(f"  {'PASS' if ok else 'FAIL'}  {name}{(' — ' + detail) if detail else ''}", flush=True)
    if not ok:
        failures.append(name)


def make_certificate(directory: Path, name: str = "server", organisation: str = "First") -> tuple[Path, Path]:
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2",
                    "-subj", f"/O={organisation}/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def context(cert: Path, minimum: ssl.TLSVersion | None = None, maximum: ssl.TLSVersion | None = None) -> ssl.SSLContext:
    ctx = ssl.create_default_context(cafile=str(cert))
    if minimum:
        ctx.minimum_version = minimum
    if maximum:
        ctx.maximum_version = maximum
    return ctx


def request(port: int, ctx: ssl.SSLContext, method: str, path: str, body: dict | None = None) -> tuple[int, dict, bytes]:
    """One HTTPS request on a fresh connection: status, headers (lower-case names, repeated ones
    joined with a newline) and body."""
    import http.client
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=10)
    data = json.dumps(body).encode() if body is not None else None
    connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    response = connection.getresponse()
    headers: dict[str, str] = {}
    for name, value in response.getheaders():
        headers[name.lower()] = headers[name.lower()] + "\n" + value if name.lower() in headers else value
    payload = response.read()
    connection.close()
    return response.status, headers, payload


def start(binary: Path, data: Path, port: int, extra: list[str], log: Path,
          variables: dict[str, str] | None = None) -> subprocess.Popen:
    env = dict(os.environ, VETNET_DEMO_PASSWORD=PASSWORD, VETNET_LOG_LEVEL="warning")
    for name in ("VETNET_HOST", "VETNET_PORT", "VETNET_DATA_DIR", "VETNET_DEMO", "VETNET_TLS_CERT", "VETNET_TLS_KEY"):
        env.pop(name, None)
    env.update(variables or {})
    out = open(log, "ab")
    return subprocess.Popen([str(binary), "serve", "--demo", "--data-dir", str(data), "--host", "127.0.0.1", "--port", str(port)] + extra,
                            env=env, stdout=out, stderr=out, stdin=subprocess.DEVNULL, start_new_session=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vetnet", type=Path, default=Path(__file__).resolve().parents[2] / ".build/debug/vetnet")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="vetnet-tls-"))
    cert, key = make_certificate(work)
    # The first pair, kept: the served files are replaced and broken on purpose below.
    first_cert, first_key = work / "first.pem", work / "first.key"
    first_cert.write_bytes(cert.read_bytes())
    first_key.write_bytes(key.read_bytes())
    port, redirect_port = free_port(), free_port()
    log = work / "server.log"
    server = start(args.vetnet, work / "data", port,
                   ["--tls-cert", str(cert), "--tls-key", str(key), "--http-redirect-port", str(redirect_port)], log)
    try:
        modern = context(cert)
        deadline = time.time() + 120
        while True:
            if server.poll() is not None:
                print(log.read_text(errors="replace"))
                raise SystemExit(f"the server exited with {server.returncode}")
            try:
                if request(port, modern, "GET", "/health")[0] == 200:
                    break
            except (OSError, ssl.SSLError):
                pass
            if time.time() > deadline:
                raise SystemExit("the server did not become healthy over TLS")
            time.sleep(0.2)

        print("1. HTTPS with the server's own certificate")
        for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
            ctx = context(cert, minimum=version, maximum=version)
            status, headers, body = request(port, ctx, "GET", "/")
            report(status == 200 and b"<html" in body.lower() and headers.get("strict-transport-security") == "max-age=31536000",
                   f"the app over {version.name}", f"status {status}, HSTS {headers.get('strict-transport-security')!r}")
        status, headers, _ = request(port, modern, "GET", "/api/v1/me")
        report(status == 401 and "strict-transport-security" in headers, "an API refusal carries HSTS too", f"status {status}")

        print("2. Old TLS and plain HTTP refused")
        for version in (ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1):
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
            try:
                ctx.minimum_version, ctx.maximum_version = version, version
                ctx.set_ciphers("ALL:@SECLEVEL=0")
                with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, ctx.wrap_socket(raw) as tls:
                    report(False, f"{version.name} is refused", f"negotiated {tls.version()}")
            except (ssl.SSLError, OSError) as error:
                report(True, f"{version.name} is refused", type(error).__name__)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            raw.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            raw.settimeout(5)
            try:
                answer = raw.recv(64)
            except OSError:
                answer = b""
        report(not answer.startswith(b"HTTP/"), "plain HTTP on the TLS port gets no HTTP answer", repr(answer[:16]))
        import http.client
        for method in ("GET", "POST"):
            plain = http.client.HTTPConnection("127.0.0.1", redirect_port, timeout=10)
            plain.request(method, "/api/v1/me?x=1", body=b"{}" if method == "POST" else None)
            answer = plain.getresponse()
            location, body = answer.getheader("Location"), answer.read()
            plain.close()
            expected = f"https://127.0.0.1:{port}/api/v1/me?x=1"
            report(answer.status == 308 and location == expected and not body, f"plain HTTP {method} is redirected to HTTPS",
                   f"{answer.status} → {location}")

        print("3. Session cookies over TLS")
        status, headers, _ = request(port, modern, "POST", "/api/v1/auth/login",
                                     {"email": DEMO_ADMIN, "password": PASSWORD, "session": "cookie"})
        cookies = [line for line in headers.get("set-cookie", "").split("\n") if line]
        session = next((c for c in cookies if c.startswith("vetnet_session=")), "")
        csrf = next((c for c in cookies if c.startswith("vetnet_csrf=")), "")
        report(status == 200 and "; Secure" in session and "HttpOnly" in session and "; Secure" in csrf,
               "a cookie sign-in sets Secure session and CSRF cookies", f"status {status}, {len(cookies)} cookies")

        print("4. A renewed certificate on SIGHUP")
        first_der = modern.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5),
                                       server_hostname="127.0.0.1").getpeercert(binary_form=True)
        kept = http.client.HTTPSConnection("127.0.0.1", port, context=modern, timeout=10)
        kept.request("GET", "/health")
        kept.getresponse().read()
        renewed_cert, renewed_key = make_certificate(work, "renewed", "Renewed")
        renewed_cert.replace(cert)
        renewed_key.replace(key)
        os.kill(server.pid, signal.SIGHUP)
        both = ssl.create_default_context(cafile=str(cert))
        both.load_verify_locations(cafile=str(work / "first.pem"))
        seen = b""
        for _ in range(50):
            with both.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1") as tls:
                seen = tls.getpeercert(binary_form=True)
            if seen != first_der:
                break
            time.sleep(0.1)
        report(seen != first_der and server.poll() is None, "a new handshake presents the renewed certificate after SIGHUP")
        kept.request("GET", "/health")
        report(kept.getresponse().status == 200, "a connection opened before the reload goes on answering")
        kept.close()
        cert.write_text("not a certificate\n")
        os.kill(server.pid, signal.SIGHUP)
        time.sleep(1)
        with both.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1") as tls:
            still = tls.getpeercert(binary_form=True)
        report(still == seen and server.poll() is None, "a broken file on SIGHUP leaves the renewed certificate in use")
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)

    print("5. Refusals at start")
    key_text = first_key.read_text()
    cases = [
        (["--tls-cert", str(first_cert)], "--tls-cert needs --tls-key", {}),
        (["--tls-cert", str(first_cert), "--tls-key", str(first_cert)], "--tls-key", {}),
        (["--tls-cert", str(work / "missing.pem"), "--tls-key", str(first_key)], "--tls-cert", {}),
        # A setting from the environment that cannot be read stops the server naming it, not a silent default.
        ([], "VETNET_HTTP_REDIRECT_PORT: 'eighty' is not a whole number", {"VETNET_HTTP_REDIRECT_PORT": "eighty"}),
        ([], "VETNET_LOG_LEVEL: 'loud' is not one of", {"VETNET_LOG_LEVEL": "loud"}),
    ]
    for extra, expected, variables in cases:
        out = work / "refusal.log"
        out.write_text("")
        process = start(args.vetnet, work / "data-refused", free_port(), extra, out, variables)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        text = out.read_text(errors="replace")
        key_leaked = any(line.strip() and line.strip() in text for line in key_text.splitlines()[1:-1])
        report(process.returncode != 0 and expected in text and not key_leaked, f"refused: {' '.join(a if a.startswith('--') else '…' for a in extra) or ', '.join(variables)}",
               text.strip().splitlines()[-1] if text.strip() else "no output")

    print(f"TLS checks: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
