#!/usr/bin/env python3
"""Prints the compile plan for typecheck.sh: one line per module to check, dependencies first.

    mode<TAB>module<TAB>package<TAB>flags<TAB>source files<TAB>primary files   (files joined by '|')

mode is one of
  interface  declarations only (bodies skipped): every dependency, and each of the package's
             targets that has no Apple-only code;
  branches   like interface, then the files that hold Apple-only branches (`#if canImport(Security)`,
             `#if os(iOS)`, ...) are type-checked with bodies as primary files, the rest of the
             module read as declarations; the 16.5 standard library lacks a few Swift 6 APIs
             (typed-throws `Result(catching:)`, `AsyncStream.makeStream`) that the rest may use;
  full       bodies included: the package's targets that import SwiftUI, AVKit, UIKit or AppKit;
  example    a folder of Examples/, type-checked in full as one module against every library;
  misuse     a deliberately wrong snippet of .ci/apple/misuse/ that the check must reject.

Usage: plan.py ROOT DESCRIBE_JSON   (DESCRIBE_JSON from `swift package describe --type json`)
"""
import glob
import json
import os
import re
import subprocess
import sys

root_dir, describe_path = sys.argv[1], sys.argv[2]
work = os.path.dirname(describe_path)
apple_import = re.compile(r'^\s*(public |internal |package |@preconcurrency )*import (SwiftUI|AVKit|UIKit|AppKit)\b', re.M)
apple_branch = re.compile(
    r'^\s*#(if|elseif)\b.*\b(canImport\((Security|Network|AVKit|AVFoundation|UIKit|AppKit|SwiftUI|Darwin|os)\)'
    r'|os\((iOS|macOS|tvOS|watchOS|visionOS)\))', re.M)


def describe(path):
    out = subprocess.run(['swift', 'package', 'describe', '--type', 'json'], cwd=path,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f'apple-typecheck: swift package describe failed in {path}: {out.stderr[-300:]}')
    return json.loads(out.stdout)


def swift_flags(pkg_dir, tools_version):
    manifest = open(os.path.join(pkg_dir, 'Package.swift'), encoding='utf-8').read()
    flags = ['-swift-version', '6' if int(str(tools_version).split('.')[0]) >= 6 else '5']
    for feature in sorted(set(re.findall(r'enableUpcomingFeature\("(\w+)"\)', manifest))):
        flags += ['-enable-upcoming-feature', feature]
    return flags


packages = {}  # package name -> (dir, describe json)
root = json.load(open(describe_path))
packages[root['name']] = (root_dir, root)
open(os.path.join(work, 'root-package'), 'w').write(root['name'])
checkouts = os.path.join(root_dir, '.build', 'checkouts')
if os.path.isdir(checkouts):
    for entry in sorted(os.listdir(checkouts)):
        d = os.path.join(checkouts, entry)
        if os.path.isfile(os.path.join(d, 'Package.swift')):
            desc = describe(d)
            packages[desc['name']] = (d, desc)
product_owner = {}  # product name -> (package name, [targets])
for name, (d, desc) in packages.items():
    for p in desc.get('products', []):
        product_owner.setdefault(p['name'], (name, p.get('targets', [])))

targets = {}  # (package, target) -> describe entry plus its package's folder and tools version
for pname, (d, desc) in packages.items():
    for t in desc['targets']:
        targets[(pname, t['name'])] = dict(t, package=pname, dir=d, tools=desc.get('tools_version', '5.9'))


def deps_of(key):
    pname, _ = key
    t = targets[key]
    out = [(pname, n) for n in t.get('target_dependencies', [])]
    for prod in t.get('product_dependencies', []):
        if prod in product_owner:
            owner, ts = product_owner[prod]
            out += [(owner, n) for n in ts]
    return [k for k in out if k in targets]


def sources(key):
    t = targets[key]
    return [os.path.join(t['dir'], t['path'], s) for s in t.get('sources', []) if s.endswith('.swift')]


def read(path):
    return open(path, encoding='utf-8').read()


order, seen = [], set()


def visit(key):
    if key in seen:
        return
    seen.add(key)
    for k in deps_of(key):
        visit(k)
    order.append(key)


# What ships on Apple platforms: the targets of the library products (and what they depend on).
# The tools (sdui, the demo backend, the catalog, the fault workload), the benchmarks and the
# fuzzers run on the developer's machine or in CI, never in an app, so they are not checked here.
shipped = {t for p in root['products'] if 'library' in p.get('type', {}) for t in p['targets']}
roots = [(root['name'], t['name']) for t in root['targets'] if t['name'] in shipped]
for k in roots:
    visit(k)

modulemaps = []
for key in order:
    t = targets[key]
    if t.get('module_type') == 'SystemLibraryTarget':
        mm = os.path.join(t['dir'], t['path'], 'module.modulemap')
        if os.path.exists(mm):
            modulemaps += ['-Xcc', f'-fmodule-map-file={mm}']


def line(mode, module, package, flags, files, primaries=()):
    # Paths are joined with '|' (dependencies have folders with spaces in their names).
    print('\t'.join([mode, module, re.sub(r'\W', '_', package), ' '.join(flags), '|'.join(files), '|'.join(primaries)]))


root_flags = swift_flags(root_dir, root.get('tools_version', '6.0')) + modulemaps
libraries = []
for key in order:
    t = targets[key]
    if t.get('module_type') != 'SwiftTarget':
        continue
    srcs = sources(key)
    flags = swift_flags(t['dir'], t['tools']) + modulemaps
    if not any(os.path.basename(s) == 'main.swift' for s in srcs):
        flags.append('-parse-as-library')
    if key[0] != root['name']:
        line('interface', t['c99name'], key[0], flags, srcs)
        continue
    if t.get('type') == 'library':
        libraries.append(t['c99name'])
    if any(apple_import.search(read(s)) for s in srcs):
        line('full', t['c99name'], key[0], flags, srcs)
    else:
        branch_files = [s for s in srcs if apple_branch.search(read(s))]
        line('branches' if branch_files else 'interface', t['c99name'], key[0], flags, srcs, branch_files)

examples = os.path.join(root_dir, 'Examples')
for folder in sorted(glob.glob(os.path.join(examples, '*', ''))):
    # A plugin package: its library's sources (its tests run on Linux, in the README's test command).
    sources = os.path.join(folder, 'Sources') if os.path.exists(os.path.join(folder, 'Package.swift')) else folder
    files = sorted(glob.glob(os.path.join(sources, '**', '*.swift'), recursive=True))
    if files:
        name = re.sub(r'\W', '_', os.path.basename(os.path.dirname(folder)))
        line('example', name, root['name'], root_flags + ['-parse-as-library'], files)

for snippet in sorted(glob.glob(os.path.join(root_dir, '.ci', 'apple', 'misuse', '*.swift'))):
    line('misuse', 'Misuse', root['name'], root_flags + ['-parse-as-library'], [snippet])
