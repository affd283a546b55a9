#!/usr/bin/env python3
"""Checks the package's layering rules against its manifest and its sources.

    python3 .ci/layering.py              # reads `swift package describe --type json`
    python3 .ci/layering.py --self-test  # shows that each rule fails on a graph that breaks it

The rules (README, "Modules"; CONTRIBUTING, "Layout"):
1. every module a target's sources import is a declared dependency of that target (the build's
   explicit import check says the same of the compiled modules; this also reads files behind
   `#if` that Linux does not compile);
2. the libraries never depend on the tools (the catalog, the demo backend, sdui's kit), the
   benchmarks or the fuzzers;
3. the render tree and the HTML renderer are platform-neutral lowering: DynamicUIRendering
   depends on Models and Resolvers only, DynamicUIWeb on those and Rendering;
4. handler plugins build on Actions and what is below it, never on the composition root
   (DynamicUI) or a UI layer; a component plugin (the media player) may use the SwiftUI layer;
5. nothing below the composition root depends on it.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl",
    "Darwin", "SwiftUI", "UIKit", "AppKit", "AVKit", "AVFoundation", "Security", "Network", "Testing", "XCTest",
    "os", "Combine", "Observation", "Synchronization", "MediaPlayer", "CoreGraphics", "WebKit", "_Concurrency",
    "SQLite3", "CoreFoundation", "UniformTypeIdentifiers", "Accessibility", "Android", "ucrt", "WinSDK",
}
TOOLS = {"DynamicUICatalog", "DynamicUIDemoBackend", "DynamicUITooling", "sdui", "fault-workload"}
BELOW_ACTIONS = {"DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork", "DynamicUIActions"}
ALLOWED = {
    "DynamicUIRendering": {"DynamicUIModels", "DynamicUIResolvers"},
    "DynamicUIWeb": {"DynamicUIModels", "DynamicUIResolvers", "DynamicUIRendering"},
}
HANDLER_PLUGINS = {"DynamicUIAuthPlugin", "DynamicUICRUDPlugin", "DynamicUINavigationPlugin"}
BELOW_ROOT = BELOW_ACTIONS | {"DynamicUIRendering", "DynamicUIWeb"} | HANDLER_PLUGINS
IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?import\s+"
    r"(?:struct |enum |class |func |protocol |typealias |var |let )?(\w+)", re.M)


def imports_of(target):
    found = set()
    for source in target.get("sources", []):
        with open(os.path.join(ROOT, target["path"], source), encoding="utf-8") as f:
            found |= set(IMPORT.findall(f.read()))
    return found


def check(targets, products_of, read_imports=imports_of):
    """The broken rules of a graph: `targets` as `swift package describe` lists them."""
    problems = []
    libraries = {t for p in products_of for t in p["targets"] if "library" in p.get("type", {})}
    for t in targets:
        name = t["name"]
        deps = set(t.get("target_dependencies", [])) | set(t.get("product_dependencies", []))
        undeclared = sorted(read_imports(t) - deps - SYSTEM - {name})
        for module in undeclared:
            problems.append(f"{name} imports {module} without declaring it")
        if name in libraries:
            for dep in sorted(deps & TOOLS):
                problems.append(f"library {name} depends on the tool {dep}")
        if name in ALLOWED:
            for dep in sorted(set(t.get("target_dependencies", [])) - ALLOWED[name]):
                problems.append(f"{name} depends on {dep}; it may depend on {', '.join(sorted(ALLOWED[name]))} only")
        if name in HANDLER_PLUGINS:
            for dep in sorted(set(t.get("target_dependencies", [])) - BELOW_ACTIONS):
                problems.append(f"handler plugin {name} depends on {dep}, above DynamicUIActions")
        if name in BELOW_ROOT and "DynamicUI" in deps:
            problems.append(f"{name} depends on the composition root DynamicUI")
    return problems


def self_test():
    base = [
        {"name": "DynamicUIModels", "path": "", "sources": []},
        {"name": "DynamicUIRendering", "path": "", "sources": [], "target_dependencies": ["DynamicUIModels"]},
    ]
    products = [{"type": {"library": []}, "targets": ["DynamicUIModels", "DynamicUIRendering"]}]
    none = lambda t: set()
    assert check(base, products, none) == [], check(base, products, none)
    broken = [dict(base[0]), dict(base[1], target_dependencies=["DynamicUIModels", "DynamicUIActions"])]
    assert any("may depend on" in p for p in check(broken, products, none))
    undeclared = lambda t: {"DynamicUIResolvers"} if t["name"] == "DynamicUIRendering" else set()
    assert any("without declaring" in p for p in check(base, products, undeclared))
    tool = [dict(base[0], target_dependencies=["DynamicUIDemoBackend"]), base[1]]
    assert any("depends on the tool" in p for p in check(tool, products, none))
    plugin = base + [{"name": "DynamicUIAuthPlugin", "path": "", "sources": [], "target_dependencies": ["DynamicUI"]}]
    found = check(plugin, products, none)
    assert any("above DynamicUIActions" in p for p in found) and any("composition root" in p for p in found)
    print("layering: self-test passed (each rule fails on a graph that breaks it)")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    described = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout
    package = json.loads(described[described.index("{"):])
    problems = check(package["targets"], package["products"])
    for problem in problems:
        print(f"layering: {problem}")
    if problems:
        print(f"layering: {len(problems)} broken rules")
        sys.exit(1)
    print(f"layering: {len(package['targets'])} targets, every rule holds")


if __name__ == "__main__":
    main()
