#!/usr/bin/env bash
# The web preview under load: wrk over keep-alive against a signed-in teacher's dashboard.
#
#   Benchmarks/server-load.sh [SDUI] [SECONDS] [CONNECTIONS]
#
# SDUI defaults to a release build (built here in .build-bench when missing). Prints wrk's
# report and one summary line; exits 1 when throughput falls below MIN_RPS (default 300) or the
# 99th percentile rises above MAX_P99_MS (default 100): the floors catch a per-request stall
# such as Nagle's algorithm meeting delayed ACKs (~40 ms a request, under 200 requests/s), not
# small drifts, which shared machines cannot measure.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
sdui="${1:-}"
seconds="${2:-10}"
connections="${3:-8}"
min_rps="${MIN_RPS:-300}"
max_p99_ms="${MAX_P99_MS:-100}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
if [ -z "$sdui" ]; then
    swift build -c release --package-path tools --scratch-path .build-bench --product sdui >/dev/null
    sdui=.build-bench/release/sdui
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
"$sdui" serve --port "$port" --quiet >/tmp/dynamicui-server-load.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "$base/_/health" >/dev/null 2>&1 && break; sleep 0.1; done
jar=$(mktemp)
# The login form's action and the session's form token (the preview acts only on a POST that
# carries it).
page=$(curl -fs -c "$jar" -b "$jar" -L "$base/screen/app-login")
action=$(echo "$page" | grep -o 'formaction="/act/[^"]*submit-login"' | head -1 | cut -d'"' -f2)
token=$(echo "$page" | grep -o 'name="_csrf" value="[0-9a-f]*"' | head -1 | cut -d'"' -f4)
curl -fs -c "$jar" -b "$jar" -o /dev/null -d "_csrf=$token&email=docente@edugo.test&password=edugo123" "$base$action"
cookie=$(awk '$6 == "sdui" { print "sdui=" $7 }' "$jar")
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "$base/screen/dashboard-teacher")
[ "$status" = 200 ] || { echo "signing in failed (dashboard answered $status)" >&2; exit 1; }
report=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -H "Cookie: $cookie" "$base/screen/dashboard-teacher")
echo "$report"
rps=$(echo "$report" | awk '/Requests\/sec/ { printf "%d", $2 }')
p99=$(echo "$report" | awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else if (v ~ /s$/) { sub(/s/, "", v); v *= 1000 } printf "%.1f", v }')
errors=$(echo "$report" | awk '/Non-2xx|Socket errors/ { print }')
echo "dashboard over keep-alive, $connections connections: $rps requests/s, p99 $p99 ms (floors: $min_rps requests/s, p99 $max_p99_ms ms)"
if [ -n "$errors" ]; then echo "errors: $errors" >&2; exit 1; fi
if [ "$rps" -lt "$min_rps" ] || awk -v p="$p99" -v m="$max_p99_ms" 'BEGIN { exit !(p > m) }'; then
    echo "server load: below the floor" >&2
    exit 1
fi
