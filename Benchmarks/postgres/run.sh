#!/bin/sh
# Booking with concurrent clients on SQLite and PostgreSQL (one and two store instances),
# printed side by side. Needs a PostgreSQL server whose role may create databases:
#   VETNET_BENCH_DATABASE_URL=postgres://user:pw@host:5432/postgres?sslmode=disable Benchmarks/postgres/run.sh
# Optional: BENCH_CLIENTS (32), BENCH_BOOKINGS (40 per client).
set -eu
cd "$(dirname "$0")/../.."
swift build -c release --product vetnet-booking-bench
exec .build/release/vetnet-booking-bench
