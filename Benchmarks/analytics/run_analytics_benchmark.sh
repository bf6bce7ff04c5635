#!/bin/sh
# Analytics benchmark: seeds a throwaway store with a year of a 20-clinician practice (about
# 100 000 appointments, triage arrivals and weighings, generated from the practice's own rota)
# and times, on the embedded store, the dashboard for that year (full read; first request after one
# booking or cancellation, the kept index brought up to date; warm)
# and a year's CSV reports, with peak memory.
#
#   Benchmarks/analytics/run_analytics_benchmark.sh [CLINICIANS] [DAYS] [PATIENTS]
#
# Targets: dashboard median < 100 ms; a year's CSV report < 1 s.
set -eu
CLINICIANS="${1:-20}"
DAYS="${2:-365}"
PATIENTS="${3:-60000}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

swift build -c release --product vetnet
VETNET="$(swift build -c release --product vetnet --show-bin-path)/vetnet"

DATA="$(mktemp -d "${TMPDIR:-/tmp}/vetnet-analytics-bench.XXXXXX")"
trap 'rm -rf "$DATA"' EXIT

echo "== seed: $PATIENTS patients, $CLINICIANS clinicians, $DAYS days of history"
"$VETNET" seed --scale --patients "$PATIENTS" --owners $((PATIENTS * 3 / 5)) --clinicians "$CLINICIANS" --history "$DAYS" --data-dir "$DATA"
echo "store size: $(du -sh "$DATA" | cut -f1)"

echo "== bench"
"$VETNET" bench analytics --data-dir "$DATA"
