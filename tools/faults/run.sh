#!/usr/bin/env bash
# The fault run: simulated users drive the SDK's real data layer (APIClient, URLSessionTransport,
# the SQLite offline queue) through a seeded fault proxy to the demo backend for DURATION seconds,
# the app process is killed with SIGKILL at random points and restarted, the backend is killed
# and restarted now and then; then the network heals, the queues drain, and check.py asserts
# nothing was lost, duplicated, reordered or stuck. See tools/faults/README.md.
#
#     bash tools/faults/run.sh DURATION_SECONDS     (FAULT_SEED, FAULT_USERS to choose)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds="${1:-180}"
seed="${FAULT_SEED:-$((RANDOM * 32768 + RANDOM))}"
users="${FAULT_USERS:-4}"

# The workload binary: FAULT_BIN, or .build/debug/fault-workload (the tools package, built into
# the library's build folder as the README's test command does) when missing or older than the
# code it runs.
bin="${FAULT_BIN:-.build/debug/fault-workload}"
if [ -z "${FAULT_BIN:-}" ] && { [ ! -x "$bin" ] || [ -n "$(find tools/faults/Workload tools/DemoBackend Modules/Network \
    Modules/Storage Modules/Models -name '*.swift' -newer "$bin" -print -quit)" ]; }; then
    swift build --package-path tools --scratch-path .build --product fault-workload >/tmp/fault-workload-build.log 2>&1 || {
        grep -E "error" /tmp/fault-workload-build.log | head -20
        exit 1
    }
fi
# A copy, so that a rebuild during a long run does not swap the binary under it.
work="$(mktemp -d /tmp/dynamicui-faults.XXXXXX)"
cp "$bin" "$work/fault-workload"
echo "fault run: ${seconds} s, ${users} users, seed ${seed}, state in ${work}/state"
python3 tools/faults/drive.py "$work/fault-workload" "$work/state" "$seconds" --seed "$seed" --users "$users"
python3 tools/faults/check.py "$work/state"
