#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer and runs each for SECONDS (default 60)
# from a seed corpus made of the catalogs: every JSON document for the reader and the
# document decoders, every expression, placeholder text and binding found in them for the
# expression compiler. A crash, a trap or a broken round trip stops the run with exit 1 and
# leaves the input in .build-fuzz/crashes/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds="${1:-60}"
scratch=.build-fuzz
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"

for target in fuzz-json fuzz-documents fuzz-expressions; do
    swift build --package-path Fuzz --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address --product "$target" 2>&1 | grep -E "error|warning: |Compiling|Build" | tail -3
done
bin="$(swift build --package-path Fuzz --scratch-path "$scratch" --show-bin-path)"

# Seed corpora (made fresh each run from the catalogs; the fuzzer's findings go to a work folder).
seeds="$scratch/seeds"
rm -rf "$seeds" && mkdir -p "$seeds/documents" "$seeds/expressions"
i=0
while IFS= read -r file; do cp "$file" "$seeds/documents/doc-$i.json"; i=$((i + 1)); done < <(find tools/catalog -name '*.json' -size -256k | sort)
/usr/bin/python3 - "$seeds/expressions" <<'PY'
import json, os, pathlib, sys
out = pathlib.Path(sys.argv[1]); seen = set()
def walk(value):
    if isinstance(value, dict):
        for v in value.values(): walk(v)
    elif isinstance(value, list):
        for v in value: walk(v)
    elif isinstance(value, str) and any(mark in value for mark in ("$", "{", "|", "==", "&&", "item.", "data.")):
        seen.add(value)
for path in pathlib.Path("tools/catalog").rglob("*.json"):
    if path.stat().st_size < 256 * 1024:
        try: walk(json.loads(path.read_text()))
        except ValueError: pass
for index, text in enumerate(sorted(seen)): (out / f"expr-{index}.txt").write_text(text)
print(f"{len(seen)} expressions")
PY

status=0
run() {
    local target="$1" dict="$2" seed="$3"
    local work="$scratch/corpus/$target" crashes="$scratch/crashes/$target"
    mkdir -p "$work" "$crashes"
    echo "== $target for ${seconds}s"
    if ! "$bin/$target" "$work" "$seed" -dict="$dict" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
        -rss_limit_mb=4096 -artifact_prefix="$crashes/" -print_final_stats=1 2>"$scratch/$target.log"; then
        tail -40 "$scratch/$target.log"
        status=1
    fi
    grep -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb" "$scratch/$target.log" | tr '\n' ' '
    echo
}
run fuzz-json Fuzz/json.dict "$seeds/documents"
run fuzz-documents Fuzz/json.dict "$seeds/documents"
run fuzz-expressions Fuzz/expressions.dict "$seeds/expressions"
exit $status
