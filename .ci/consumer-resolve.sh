#!/usr/bin/env bash
# What an app that embeds DynamicUI resolves: a throwaway package that depends on every library
# product of this repository, once as a remote (git) package and once by path, is resolved, its
# packages are printed, and the check fails when it fetches any package beyond the allowed ones.
# SwiftPM resolves, for a dependency, every package that any declared product of it reaches, so a
# product that reaches a tool's dependency (Hummingbird, swift-nio, swift-argument-parser, ...)
# brings it into every app, whichever products the app uses.
#
#   bash .ci/consumer-resolve.sh                  # the committed HEAD
#   bash .ci/consumer-resolve.sh --working-tree   # the working tree, uncommitted changes included
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
root="$(pwd)"

# The packages an embedding app may resolve (SwiftPM identities), besides DynamicUI itself.
allowed=(grdb.swift swift-log swift-metrics)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# A one-commit copy of the tree (HEAD's, or the working tree's through a temporary index, so the
# real index, HEAD and branches are untouched), tagged 1.0.0 in a bare repository.
if [ "${1:-}" = "--working-tree" ]; then
    export GIT_INDEX_FILE="$tmp/index"
    git read-tree HEAD
    git add -A .
    tree="$(git write-tree)"
    unset GIT_INDEX_FILE
else
    tree="$(git rev-parse 'HEAD^{tree}')"
fi
commit="$(GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@localhost GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@localhost \
    git commit-tree "$tree" -m "consumer-resolve")"
git init -q --bare "$tmp/dynamicui.git"
git push -q "$tmp/dynamicui.git" "$commit:refs/tags/1.0.0"
git clone -q --branch 1.0.0 "$tmp/dynamicui.git" "$tmp/dynamicui" 2>/dev/null

# Every library product the manifest declares.
products="$(cd "$tmp/dynamicui" && swift package dump-package |
    python3 -c 'import json, sys
print(", ".join(sorted(chr(34) + p["name"] + chr(34) for p in json.load(sys.stdin)["products"] if "library" in p["type"])))')"
[ -n "$products" ] || { echo "consumer-resolve: no library product found" >&2; exit 1; }

status=0
for kind in url path; do
    consumer="$tmp/consumer-$kind"
    mkdir -p "$consumer/Sources/Consumer"
    echo 'public let consumer = 1' >"$consumer/Sources/Consumer/Consumer.swift"
    if [ "$kind" = url ]; then
        dependency=".package(url: \"file://$tmp/dynamicui.git\", from: \"1.0.0\")"
    else
        dependency=".package(path: \"$tmp/dynamicui\")"
    fi
    cat >"$consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [$dependency],
    targets: [
        .target(name: "Consumer", dependencies: [$products].map { .product(name: \$0, package: "dynamicui") })
    ]
)
MANIFEST
    if ! (cd "$consumer" && swift package resolve >"$tmp/resolve-$kind.log" 2>&1); then
        cat "$tmp/resolve-$kind.log" >&2
        echo "consumer-resolve: the $kind consumer does not resolve" >&2
        exit 1
    fi
    # Every package SwiftPM fetched for the app, DynamicUI itself aside.
    resolved="$(cd "$consumer" && swift package show-dependencies --format json 2>/dev/null | python3 -c 'import json, sys
seen = set()
def walk(node):
    for d in node["dependencies"]:
        seen.add(d["identity"])
        walk(d)
walk(json.load(sys.stdin))
print(" ".join(sorted(seen - {"dynamicui"})))')"
    extra=()
    for package in $resolved; do
        [[ " ${allowed[*]} " == *" $package "* ]] || extra+=("$package")
    done
    echo "consumer-resolve ($kind dependency, $(echo "$products" | tr -cd ',' | wc -c | awk '{print $1 + 1}') library products): $(echo "$resolved" | wc -w | tr -d ' ') packages: $resolved"
    if [ ${#extra[@]} -gt 0 ]; then
        echo "consumer-resolve: an embedding app would also fetch: ${extra[*]} (allowed: ${allowed[*]})" >&2
        status=1
    fi
done
exit "$status"
