#!/usr/bin/env python3
"""Server memory while documents are uploaded in parallel: starts `vetnet serve --demo` on a
temporary store, sends PARALLEL uploads of SIZE MB at once to one patient, samples the server's
RSS every 20 ms during the uploads and prints the peak above the idle figure. Uploads are
encrypted to disk chunk by chunk as they arrive, so the peak should not grow with SIZE.

    python3 Benchmarks/uploads/run_upload_memory.py --vetnet .build/release/vetnet --parallel 20 --size-mb 20
"""
import argparse
import http.client
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "live"))
from vetnet_live import DEMO_ADMIN, Server, call  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vetnet", type=Path, default=ROOT / ".build/release/vetnet")
    parser.add_argument("--parallel", type=int, default=20)
    parser.add_argument("--size-mb", type=float, default=19.5)
    args = parser.parse_args()
    size = int(args.size_mb * 1024 * 1024)
    body = b"\x89PNG\r\n\x1a\n" + os.urandom(size - 8)
    with tempfile.TemporaryDirectory(prefix="vetnet-upload-mem-") as temporary:
        server = Server(args.vetnet.resolve(), Path(temporary) / "data", "upload-memory-wren-2", Path(temporary) / "server.log")
        server.start()
        try:
            token = server.login(DEMO_ADMIN)
            _, patients = call(server.base, "/api/v1/patients?limit=1", token=token)
            patient = patients["items"][0]["patient"]["id"]
            time.sleep(1)
            idle = server.rss_kib()
            peak = idle
            statuses: list[int] = []
            done = threading.Event()

            def sample() -> None:
                nonlocal peak
                while not done.is_set():
                    peak = max(peak, server.rss_kib())
                    time.sleep(0.02)

            def upload(index: int) -> None:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
                connection.request("POST", f"/api/v1/patients/{patient}/documents?fileName=scan-{index}.png", body=body,
                                   headers={"Authorization": f"Bearer {token}", "Content-Type": "image/png"})
                statuses.append(connection.getresponse().status)
                connection.close()

            sampler = threading.Thread(target=sample)
            sampler.start()
            began = time.perf_counter()
            threads = [threading.Thread(target=upload, args=(i,)) for i in range(args.parallel)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - began
            done.set()
            sampler.join()
            print(f"{args.parallel} parallel uploads of {args.size_mb:g} MB: {statuses.count(201)} stored (statuses {sorted(set(statuses))}) "
                  f"in {elapsed:.1f} s")
            print(f"server RSS idle {idle / 1024:.1f} MB, peak {peak / 1024:.1f} MB: +{(peak - idle) / 1024:.1f} MB "
                  f"for {args.parallel * args.size_mb:g} MB uploaded at once")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
