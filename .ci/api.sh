#!/usr/bin/env bash
# The public API of every library product against the recorded baseline (api/): a change that
# breaks it (a public declaration removed, renamed or given another signature) fails, with
# swift-api-digester's list of breakages. Additions pass.
#
#   bash .ci/api.sh            # check: builds the working tree (incrementally) and compares
#   bash .ci/api.sh --record   # record HEAD's API as the baseline (when a version is cut)
#   bash .ci/api.sh --add M    # add module M, new since the baseline, as it is built now
#
# api/BASELINE holds the commit the baseline was recorded at; api/baseline.tar.xz the
# digester's dump of each library module there. The check unpacks them where
# `swift package diagnose-api-breaking-changes` looks for an existing baseline, so it never
# checks out or builds the baseline revision. A deliberate break is allowed by listing its
# message in api/allowed-breaks.txt (cleared when the next version is recorded).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
work=.build/api-baseline

if [ "${1:-}" = "--record" ]; then
    [ -z "$(git status --porcelain -- Modules Plugins Package.swift)" ] ||
        { echo "api: commit the library's changes first (the baseline is HEAD's)" >&2; exit 2; }
    commit="$(git rev-parse HEAD)"
    rm -rf "$work"
    swift package diagnose-api-breaking-changes "$commit" --baseline-dir "$work" --regenerate-baseline >/dev/null
    tar -C "$work/$commit" -cJf api/baseline.tar.xz .
    echo "$commit" > api/BASELINE
    : > api/allowed-breaks.txt
    echo "api: recorded $(tar -tJf api/baseline.tar.xz | grep -c '\.json$') modules at $commit"
    exit 0
fi

commit="$(cat api/BASELINE)"
rm -rf "$work" && mkdir -p "$work/$commit"
tar -C "$work/$commit" -xJf api/baseline.tar.xz

if [ "${1:-}" = "--add" ]; then
    # A module added since the baseline: its API as built now is its first version (without an
    # entry, the check would check out and build the baseline revision to find it missing).
    module="${2:?usage: .ci/api.sh --add MODULE}"
    [ ! -f "$work/$commit/$module.json" ] || { echo "api: $module is in the baseline already" >&2; exit 2; }
    swift build --target "$module" >/dev/null
    swift-api-digester -dump-sdk -compiler-style-diags -I "$(swift build --show-bin-path)/Modules" \
        -I .build/checkouts/GRDB.swift/Sources/GRDBSQLite -module "$module" -o "$work/$commit/$module.json"
    tar -C "$work/$commit" -cJf api/baseline.tar.xz .
    echo "api: $module added to the baseline recorded at $commit"
    exit 0
fi

status=0
swift package diagnose-api-breaking-changes "$commit" --baseline-dir "$work" \
    --breakage-allowlist-path api/allowed-breaks.txt > /tmp/dynamicui-api.log 2>&1 || status=$?
grep -vE "^\[[0-9]+/[0-9]+\]|^Building|^Build complete|^Write" /tmp/dynamicui-api.log || true
if [ $status -ne 0 ]; then
    echo "api: the public API breaks the baseline recorded at $commit (see above);" \
        "restore it, or list a deliberate break in api/allowed-breaks.txt" >&2
    exit 1
fi
