#!/usr/bin/env bash
# Benchmark regression check for CI (never on wall time, which is noisy on shared machines):
#   1. allocation counts (mallocCountTotal) of every benchmark against Benchmarks/Thresholds,
#   2. instructions per iteration of the key paths, counted by callgrind, against
#      Benchmarks/instructions.tsv.
#
#   Benchmarks/check.sh            check
#   Benchmarks/check.sh --update   record new figures (commit them with the change that moved them)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
export DYNAMICUI_BENCH_SHORT=1
scratch=.build-bench
# Only the project's own benchmarks are checked; the peers' counts belong to Foundation and Mustache.
own='.*:DynamicUI(:.*)?|Compile:.*|Evaluate:conditions.*|Render:.*'
figures=Benchmarks/instructions.tsv
update=false
[ "${1:-}" = "--update" ] && update=true

echo "== allocation counts"
if $update; then
    swift package --package-path Benchmarks --scratch-path "$scratch" --allow-writing-to-package-directory \
        benchmark thresholds update --path "$PWD/Benchmarks/Thresholds" --filter "$own" --no-progress
else
    status=0
    swift package --package-path Benchmarks --scratch-path "$scratch" benchmark thresholds check --path "$PWD/Benchmarks/Thresholds" \
        --filter "$own" --no-progress || status=$?
    case $status in
        0) echo "allocation counts: as recorded" ;;
        4) echo "allocation counts: improved; record them with Benchmarks/check.sh --update" ;;
        *) echo "allocation counts: regression (exit $status)" >&2; exit 1 ;;
    esac
fi

echo "== instructions per iteration (callgrind)"
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product dynamicui-probe >/dev/null
probe="$scratch/release/dynamicui-probe"
count() { # path iterations -> total instructions
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$probe" "$1" "$2" 2>&1 >/dev/null \
        | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
tolerance_percent=2
failed=0
new_figures=""
while IFS=$'\t' read -r path recorded; do
    [ -z "$path" ] || [ "${path:0:1}" = "#" ] && continue
    # One iteration and 1 + 20, side by side on the two cores: counts are exact (deterministic
    # hashing), so the difference over 20 iterations is the per-iteration figure.
    count "$path" 1 >"$scratch/one.count" &
    many=$(count "$path" 21)
    wait $!
    one=$(cat "$scratch/one.count")
    measured=$(( (many - one) / 20 ))
    new_figures+="$path"$'\t'"$measured"$'\n'
    limit=$(( recorded + recorded * tolerance_percent / 100 ))
    printf '%-20s %12s instructions/iteration (recorded %s, limit %s)\n' "$path" "$measured" "$recorded" "$limit"
    if ! $update && [ "$measured" -gt "$limit" ]; then
        echo "  regression beyond ${tolerance_percent}%" >&2
        failed=1
    fi
done < "$figures"
if $update; then
    { echo "# path	instructions per iteration (callgrind, release build); Benchmarks/check.sh --update rewrites this"; printf '%s' "$new_figures"; } > "$figures"
    echo "recorded $figures"
fi
exit $failed
