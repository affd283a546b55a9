#!/usr/bin/env bash
# Builds the DocC documentation of every library product with warnings as errors (a broken
# ``symbol`` link, an unknown <doc:article>, a malformed topic group fail it), then checks that
# every public top-level symbol of each module is curated in a `## Topics` group of its catalog.
#
#   bash .ci/docs.sh                 # all library products, from the main build (run `swift build` first)
#   bash .ci/docs.sh DynamicUIWeb    # some of them
#   bash .ci/docs.sh --site          # one browsable site of them all in .build-docs/site (the long lane)
#
# The checks read the main build's modules: symbol graphs are extracted from .build's
# swiftmodules and `docc convert` builds each catalog against them, so CI compiles the library
# once. --site builds a combined archive (each module's pages link to its dependencies')
# through the documentation plugin, transformed for static hosting under the path /docs/
# (--hosting-base-path docs): `sdui serve` serves that folder there and links it from the
# preview (http://127.0.0.1:8080/docs/documentation/dynamicui/). The plugin
# (swiftlang/swift-docc-plugin) is a dependency of no product, so an embedding app never resolves
# it; it builds in its own scratch path (.build-docs) so that the main .build is not invalidated.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
root="$(pwd)"
scratch=.build-docs
log=/tmp/dynamicui-docs.log

# The library products, from the manifest.
all=$(sed -n 's/^ *\.library(name: "\([A-Za-z]*\)".*/\1/p' Package.swift)
site=""
names=()
for argument in "$@"; do
    case "$argument" in
        --site) site=$scratch/site ;;
        -*) echo "docs: unknown option $argument (--site, or product names)" >&2; exit 2 ;;
        *) names+=("$argument") ;;
    esac
done
targets=${names[*]:-$all}

if [ -n "$site" ]; then
    args=()
    for t in $targets; do args+=(--target "$t"); done
    rm -rf "$site"
    args+=(--enable-experimental-combined-documentation --transform-for-static-hosting --hosting-base-path docs
        --output-path "$site")
    status=0
    swift package --scratch-path "$scratch" --allow-writing-to-directory "$site" \
        generate-documentation "${args[@]}" --warnings-as-errors 2>&1 | tee "$log" || status=$?
    graphs_glob="$root/$scratch/*/extracted-symbols/*/{target}/{target}.symbols.json"
else
    # From the main build: each module's symbol graph (public symbols, extensions as blocks, as
    # the documentation plugin extracts them), then `docc convert` of its catalog.
    bin="$(swift build --show-bin-path)"
    triple="$(basename "$(dirname "$bin")")"
    graphs="$root/$scratch/symbol-graphs"
    archives="$root/$scratch/archives"
    rm -rf "$graphs" "$archives" && mkdir -p "$graphs" "$archives"
    : >"$log"
    status=0
    for t in $targets; do
        catalog=$(ls -d Modules/*/"$t".docc Plugins/*/"$t".docc 2>/dev/null | head -1 || true)
        if [ ! -f "$bin/Modules/$t.swiftmodule" ]; then
            echo "docs: $t is not built ($bin/Modules/$t.swiftmodule); run \`swift build\` first" | tee -a "$log" >&2
            status=1
            continue
        fi
        mkdir -p "$graphs/$t"
        swift-symbolgraph-extract -module-name "$t" -target "$triple" -I "$bin/Modules" \
            -I .build/checkouts/GRDB.swift/Sources/GRDBSQLite -minimum-access-level public \
            -emit-extension-block-symbols -skip-inherited-docs -output-dir "$graphs/$t" 2>&1 | tee -a "$log" \
            || status=$?
        if [ -z "$catalog" ]; then continue; fi
        docc convert "$catalog" --additional-symbol-graph-dir "$graphs/$t" --fallback-display-name "$t" \
            --fallback-bundle-identifier "$t" --output-path "$archives/$t.doccarchive" --warnings-as-errors \
            2>&1 | tee -a "$log" || status=$?
    done
    graphs_glob="$graphs/{target}/{target}.symbols.json"
fi
if [ "$status" -ne 0 ]; then
    echo "docs: the documentation build failed (exit $status); its diagnostics are above and in $log" >&2
    exit 1
fi
# DocC prints `warning:`/`error:` diagnostics; with --warnings-as-errors none may remain. (SwiftPM's
# note about a dependency's unhandled files is not about this package's documentation.)
if grep -E "(^|[ :])(warning|error):" "$log" | grep -v "^\[" \
    | grep -vE "^warning: '[^']+': found [0-9]+ file\(s\) which are unhandled"; then
    echo "docs: the documentation build reported the diagnostics above" >&2
    exit 1
fi

# Every public top-level symbol reached from a topic group of its module's catalog.
python3 - "$root" "$graphs_glob" $targets <<'PY'
import glob, json, os, re, sys

root, graphs_glob, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
problems = 0
for target in targets:
    graphs = glob.glob(graphs_glob.replace("{target}", target))
    if not graphs:
        print(f"docs: no symbol graph for {target}")
        problems += 1
        continue
    with open(graphs[0]) as f:
        graph = json.load(f)
    top = sorted({s["pathComponents"][0] for s in graph["symbols"] if len(s["pathComponents"]) == 1})
    catalogs = glob.glob(f"{root}/Modules/*/{target}.docc") + glob.glob(f"{root}/Plugins/*/{target}.docc")
    if not catalogs:
        print(f"docs: {target} has no DocC catalog ({target}.docc beside its sources)")
        problems += 1
        continue
    text = ""
    for path in glob.glob(f"{catalogs[0]}/**/*.md", recursive=True):
        with open(path) as f:
            text += f.read()
    linked = set(re.findall(r"``(?:" + re.escape(target) + r"/)?([A-Za-z_][A-Za-z0-9_]*)", text))
    missing = [name for name in top if name.split("(")[0] not in linked]
    for name in missing:
        print(f"docs: {target}: public symbol {name} is in no topic group of {os.path.relpath(catalogs[0], root)}")
    problems += len(missing)
    print(f"docs: {target}: {len(top)} public top-level symbols, {len(top) - len(missing)} curated")
if problems:
    print(f"docs: {problems} problems")
    sys.exit(1)
PY
echo "docs: $(echo $targets | wc -w) products documented, no warnings"
if [ -n "$site" ]; then
    echo "docs: site in $site; \`swift run --package-path tools sdui serve\` (from this folder) serves it at http://127.0.0.1:8080/docs/documentation/dynamicui/"
fi
