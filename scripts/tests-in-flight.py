#!/usr/bin/env python3
"""Names the Swift Testing tests a log shows started and never finished.

Used by ./scripts/test when `swift test` outlives its time limit: the tests still running then
are the ones that hang. A test is named by what follows "Test" in its lines (its display name
in quotes, or its function); names that several suites share are counted, not merged.

    python3 scripts/tests-in-flight.py .build/swift-test.log
"""
import collections
import re
import sys

STARTED = re.compile(r'^◇ Test (".*?"|\S+\(.*?\)) started\.')
ENDED = re.compile(r'^[✔✘➜] Test (".*?"|\S+\(.*?\)) ')


def in_flight(lines):
    """The names started more often than they ended, in the order they first started."""
    running = collections.Counter()
    order = []
    for line in lines:
        started = STARTED.match(line)
        if started:
            name = started.group(1)
            running[name] += 1
            if name not in order:
                order.append(name)
            continue
        ended = ENDED.match(line)
        if ended and running[ended.group(1)] > 0:
            running[ended.group(1)] -= 1
    return [name for name in order if running[name] > 0]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests-in-flight.py LOG")
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
            names = in_flight(log)
    except OSError as error:
        sys.exit(f"{sys.argv[1]}: {error.strerror}")
    if not names:
        print("no test was left running")
    for name in names:
        print(f"still running: {name}")


if __name__ == "__main__":
    main()
