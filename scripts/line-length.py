#!/usr/bin/env python3
"""Fails when a Swift line in Sources, Tests or Package.swift is longer than 120 characters.

`swift format` keeps code within the limit but leaves string literals and comments as they
are; this catches those. Lengths are counted in characters, not bytes ("°" is one column).
"""
import pathlib
import sys

LIMIT = 120
ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> int:
    files = [ROOT / "Package.swift"]
    for folder in ("Sources", "Tests"):
        files += sorted((ROOT / folder).rglob("*.swift"))
    long_lines = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if len(line) > LIMIT:
                long_lines.append(f"{path.relative_to(ROOT)}:{number}: {len(line)} characters")
    for entry in long_lines:
        print(entry, file=sys.stderr)
    if long_lines:
        print(f"{len(long_lines)} Swift line(s) longer than {LIMIT} characters", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
