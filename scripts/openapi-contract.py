#!/usr/bin/env python3
"""Writes Sources/HTTPAPI/openapi-contract.json from Sources/HTTPAPI/openapi.yaml.

The YAML document is the contract that people edit and that the server serves; the server
checks requests against the same document in its JSON form, because Foundation reads JSON.
`--check` exits 1 when the JSON form is out of date (CI runs it).
"""
import json
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "Sources/HTTPAPI/openapi.yaml"
TARGET = ROOT / "Sources/HTTPAPI/openapi-contract.json"


def rendered() -> str:
    document = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))
    return json.dumps(document, indent=1, ensure_ascii=False, default=str) + "\n"


def main() -> int:
    text = rendered()
    if "--check" in sys.argv[1:]:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run scripts/openapi-contract.py", file=sys.stderr)
            return 1
        print("openapi-contract.json matches openapi.yaml")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
