#!/bin/sh
# Records benchmark: seeds a throwaway store with a large practice and times, through the
# store API, the first page of a name search, a full medical record fetch and peak memory.
#
#   Benchmarks/records/run_records_benchmark.sh [PATIENTS] [OWNERS]
#
# Targets: search median < 10 ms over >= 200 prefixes; record fetch median < 5 ms; peak RSS < 200 MB.
set -eu
PATIENTS="${1:-100000}"
OWNERS="${2:-60000}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

swift build -c release --product vetnet
VETNET="$(swift build -c release --product vetnet --show-bin-path)/vetnet"

DATA="$(mktemp -d "${TMPDIR:-/tmp}/vetnet-records-bench.XXXXXX")"
trap 'rm -rf "$DATA"' EXIT

echo "== seed: $PATIENTS patients, $OWNERS owners"
"$VETNET" seed --scale --patients "$PATIENTS" --owners "$OWNERS" --data-dir "$DATA"
echo "store size: $(du -sh "$DATA" | cut -f1)"

echo "== bench"
"$VETNET" bench records --data-dir "$DATA"
