#!/bin/sh
# PostgreSQL name-search benchmark: creates a throwaway database on the server of URL, loads
# the population of `vetnet seed --scale` (100,000 patients, 60,000 owners) through the
# PostgreSQL store's schema and bulk load, times first pages of a name search for 200
# prefixes through `PostgresStore.searchPatients`, and drops the database.
#
#   Benchmarks/postgres/run_search_benchmark.sh postgres://user:pass@host:port/db [PATIENTS] [OWNERS]
#
# The role in URL must be allowed to create databases. Target: median < 10 ms.
# CONFIGURATION=debug skips the (slow) release build.
set -eu
URL="${1:?usage: $0 postgres://user:pass@host:port/db [PATIENTS] [OWNERS]}"
PATIENTS="${2:-100000}"
OWNERS="${3:-60000}"
CONFIGURATION="${CONFIGURATION:-release}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

swift build -c "$CONFIGURATION" --product vetnet
VETNET="$(swift build -c "$CONFIGURATION" --product vetnet --show-bin-path)/vetnet"

NAME="vetnet_search_bench_$(date +%s)_$$"
# The same server and credentials, another database: replace the path, keep the query.
BASE="${URL%%\?*}"
QUERY=""
case "$URL" in *\?*) QUERY="?${URL#*\?}" ;; esac
BENCH_URL="${BASE%/*}/$NAME$QUERY"

psql "$URL" -v ON_ERROR_STOP=1 -q -c "CREATE DATABASE $NAME"
trap 'psql "$URL" -q -c "DROP DATABASE IF EXISTS $NAME WITH (FORCE)"' EXIT

echo "== $PATIENTS patients, $OWNERS owners ($CONFIGURATION build)"
"$VETNET" bench postgres-search --database "$BENCH_URL" --patients "$PATIENTS" --owners "$OWNERS"
