#!/usr/bin/env python3
"""The JSON reader beside references outside Swift, on the same files, at the same time.

    python3 Benchmarks/reference-parsers.py PROBE [rounds] [filter]

PROBE is a release build of the probe (`swift build -c release --package-path Benchmarks
--scratch-path .build-bench --product dynamicui-probe`). The script writes the reader inputs
(screens of 20 and 100 KB, lists of 1,000 and 10,000 items, and the string-heavy ones: a 46 KB
iTunes lookup response and a screen localized in twelve languages) to a temporary folder, then
for each round and file alternates: the probe's median read time as a `JSONValue` tree and as a
`JSONDocument` (a tape, like simdjson's DOM), orjson.loads (Python objects) and simdjson's parser
(its DOM, no Python objects). It prints each contender's median and the median of the per-round
ratios: the tree against orjson (both build every value), the document against simdjson (both
keep a tape). A filter keeps the files whose name
contains it (`itunes`, `localized`, `list`, …).
orjson and pysimdjson come from pip (installed for the user when missing).
"""
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def ensure(module, package):
    try:
        return __import__(module)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--user", package], check=True)
        import site
        import importlib
        sys.path.append(site.getusersitepackages())
        importlib.invalidate_caches()
        return __import__(module)


def median_ns(function, data, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        function(data)
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times)


def main():
    probe = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    wanted = sys.argv[3] if len(sys.argv) > 3 else ""
    orjson = ensure("orjson", "orjson")
    simdjson = ensure("simdjson", "pysimdjson")
    parser = simdjson.Parser()
    folder = Path(tempfile.mkdtemp(prefix="dynamicui-inputs-"))
    subprocess.run([probe, "dump", str(folder)], check=True)
    files = sorted((p for p in folder.glob("*.json") if wanted in p.name),
                   key=lambda p: (not p.name.startswith("screen"), p.stat().st_size))
    print("| input | bytes | DynamicUI `JSONValue` tree | DynamicUI `JSONDocument` | orjson.loads | simdjson (DOM) "
          "| tree ÷ orjson (time) | document ÷ simdjson (time) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in files:
        data = path.read_bytes()
        repeats = 20 if len(data) > 1_000_000 else 100
        tree, document, theirs, simd = [], [], [], []
        for _ in range(rounds):
            for kind, times in (("tree", tree), ("document", document)):
                times.append(float(subprocess.run([probe, "read-file", str(path), str(repeats), kind], check=True,
                                                  capture_output=True, text=True).stdout))
            theirs.append(median_ns(orjson.loads, data, repeats))
            simd.append(median_ns(lambda d: parser.parse(d), data, repeats))
        def rate(ns):
            return f"{statistics.median(ns) / 1000:,.0f} µs · {len(data) / statistics.median(ns) * 1000:,.0f} MB/s"
        orjson_ratio = statistics.median(a / b for a, b in zip(tree, theirs))
        simd_ratio = statistics.median(a / b for a, b in zip(document, simd))
        print(f"| {path.stem} | {len(data):,} | {rate(tree)} | {rate(document)} | {rate(theirs)} | {rate(simd)} | "
              f"{orjson_ratio:.2f}× | {simd_ratio:.2f}× |")

if __name__ == "__main__":
    main()
