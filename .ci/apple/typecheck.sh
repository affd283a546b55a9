#!/usr/bin/env bash
# Type-checks the package for iOS on Linux against Apple's real iPhoneOS SDK interfaces
# (SwiftUI, UIKit, AVKit, Security, Network, Foundation ... as .swiftinterface files and headers).
#
#   bash .ci/apple/typecheck.sh            # from anywhere; the package is this script's ../..
#
# What it checks (README, "Apple platforms"):
# - every target that ships on Apple platforms (the library products and their dependencies) as
#   an interface compiled for arm64-apple-ios17.0: declarations, imports, access levels,
#   availability; the tools, benchmarks and fuzzers never run in an app and are not checked;
# - with bodies: the targets that import SwiftUI, AVKit, UIKit or AppKit, the files of other
#   targets that hold Apple-only branches (`#if canImport(Security)`, `#if os(iOS)`, ...), and
#   every folder of Examples/ against all the libraries;
# - that each deliberately wrong snippet of .ci/apple/misuse/ is rejected with the error it
#   names (`// expect-error: TEXT`), so the supplement cannot hide a misuse.
# APIs newer than the 16.5 SDK come from .ci/apple/supplement/ (Apple's published declarations),
# compiled into the module AppleSDKSupplement and imported implicitly into every full check.
# The SDK archive is read from ../shared/apple-sdk beside the checkout (APPLE_SDK_DIR to move it).
# Prints each error as `path:line:col: error: ...` and a last line
# `apple-typecheck: N modules, E errors`; exits 1 when E > 0. No diagnostic is filtered.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
co=$(cd "$here/../.." && pwd)
sdkdir=${APPLE_SDK_DIR:-$co/../shared/apple-sdk}
swiftc=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)
work=${APPLE_TYPECHECK_WORK:-$co/.build/apple-typecheck}
mkdir -p "$work"
[ -f "$sdkdir/iPhoneOS16.5-typecheck.tar.xz" ] || { echo "apple-typecheck: no SDK archive in $sdkdir"; exit 2; }

# 1. The SDK (extracted once) and a resource directory without the Linux-only module maps.
sdk=$work/iPhoneOS16.5.sdk
if [ ! -f "$sdk/.extracted" ]; then
  rm -rf "$sdk" && tar -xJf "$sdkdir/iPhoneOS16.5-typecheck.tar.xz" -C "$work" && touch "$sdk/.extracted"
fi
res=$work/resource-dir
rm -rf "$res" && mkdir -p "$res/apinotes"
cp -r "$toolchain/lib/swift/shims" "$res/" && ln -s "$(readlink -f "$toolchain/lib/swift/clang")" "$res/clang"
cp "$sdkdir"/apinotes/*.apinotes "$res/apinotes/"

# 2. The package graph, in dependency order, from SwiftPM itself.
(cd "$co" && swift package resolve >/dev/null && swift package describe --type json) > "$work/describe.json" \
  || { echo "apple-typecheck: swift package describe failed"; exit 2; }
python3 "$here/plan.py" "$co" "$work/describe.json" > "$work/plan.tsv" || exit 2
rootpkg=$(cat "$work/root-package")

out=$work/modules; rm -rf "$out"; mkdir -p "$out"
common=(-target arm64-apple-ios17.0 -sdk "$sdk" -resource-dir "$res" -module-cache-path "$work/module-cache"
        -plugin-path "$toolchain/lib/swift/host/plugins" -I "$out")
modules=0; errors=0

report() {  # report LOG: count and print the log's errors (paths relative to the checkout)
  local n; n=$(grep -c ': error:' "$1"); errors=$((errors + n))
  grep ': error:' "$1" | sed "s|$co/||" | sort -u
}

# 3. The supplement: Apple's declarations of the iOS 17+ APIs the 16.5 SDK lacks.
mapfile -t sfiles < <(find "$here/supplement" -name '*.swift' | sort)
"$swiftc" -emit-module -emit-module-path "$out/AppleSDKSupplement.swiftmodule" -module-name AppleSDKSupplement \
  "${common[@]}" -parse-as-library -swift-version 6 -Xfrontend -experimental-skip-all-function-bodies "${sfiles[@]}" \
  > "$out/AppleSDKSupplement.log" 2>&1
report "$out/AppleSDKSupplement.log"
supplement=(-Xfrontend -import-module -Xfrontend AppleSDKSupplement)

interface() {  # interface NAME PACKAGE FLAGS... -- FILES...: declarations only
  local name=$1 package=$2; shift 2
  "$swiftc" -emit-module -emit-module-path "$out/$name.swiftmodule" -module-name "$name" -package-name "$package" \
    "${common[@]}" "$@" -Xfrontend -experimental-skip-all-function-bodies \
    -Xfrontend -experimental-allow-module-with-compiler-errors
}

# 4. Interfaces first, then the checks with bodies, in dependency order.
while IFS=$'\t' read -r mode name package flags files primaries; do
  read -r -a f <<<"$flags"; IFS='|' read -r -a src <<<"$files"; IFS='|' read -r -a prim <<<"$primaries"
  log=$out/$name.log
  case $mode in
    interface)
      interface "$name" "$package" "${f[@]}" "${src[@]}" > "$log" 2>&1
      if [ "$package" = "$rootpkg" ]; then report "$log"; modules=$((modules + 1)); fi ;;
    branches)
      interface "$name" "$package" "${f[@]}" "${src[@]}" > "$log" 2>&1
      # The Apple-only files with bodies, the rest of the module read for its declarations.
      pflags=(); for p in "${prim[@]}"; do pflags+=(-primary-file "$p"); done
      rest=(); for s in "${src[@]}"; do [[ " ${prim[*]} " == *" $s "* ]] || rest+=("$s"); done
      "$swiftc" -frontend -typecheck -module-name "$name" -package-name "$package" \
        -target arm64-apple-ios17.0 -sdk "$sdk" -resource-dir "$res" -module-cache-path "$work/module-cache" \
        -plugin-path "$toolchain/lib/swift/host/plugins" -I "$out" -enable-cross-import-overlays \
        "${f[@]}" -import-module AppleSDKSupplement "${pflags[@]}" "${rest[@]}" >> "$log" 2>&1
      report "$log"; modules=$((modules + 1)) ;;
    full)
      "$swiftc" -typecheck -wmo -module-name "$name" -package-name "$package" "${common[@]}" \
        -Xfrontend -enable-cross-import-overlays "${f[@]}" "${supplement[@]}" "${src[@]}" > "$log" 2>&1
      report "$log"; modules=$((modules + 1))
      # the full check of an Apple target also gives the interface the next targets import
      interface "$name" "$package" "${f[@]}" "${supplement[@]}" "${src[@]}" >> "$log" 2>&1 ;;
    example)
      "$swiftc" -typecheck -wmo -module-name "$name" "${common[@]}" -Xfrontend -enable-cross-import-overlays \
        "${f[@]}" "${supplement[@]}" "${src[@]}" > "$log" 2>&1
      report "$log"; modules=$((modules + 1)) ;;
    misuse)
      # Must fail, with every error it names.
      "$swiftc" -typecheck -module-name "$name" "${common[@]}" -Xfrontend -enable-cross-import-overlays \
        "${f[@]}" "${supplement[@]}" "${src[@]}" > "$log" 2>&1
      snippet=${src[0]#"$co/"}
      mapfile -t expected < <(sed -n 's|^// expect-error: ||p' "${src[0]}")
      if [ ${#expected[@]} -eq 0 ]; then
        echo "$snippet: error: a misuse snippet names no expected error (// expect-error: TEXT)"; errors=$((errors + 1))
      fi
      for e in "${expected[@]}"; do
        if grep ': error:' "$log" | grep -qF -- "$e"; then
          echo "apple-typecheck: $snippet rejected as expected: $e"
        else
          echo "$snippet: error: the check accepted a deliberate misuse (expected an error containing: $e)"
          errors=$((errors + 1))
        fi
      done ;;
  esac
done < "$work/plan.tsv"
echo "apple-typecheck: $modules modules, $errors errors"
[ "$errors" -eq 0 ]
