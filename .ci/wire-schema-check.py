#!/usr/bin/env python3
"""Checks the catalogs against the exported wire schema with tools that are not ours.

usage: wire-schema-check.py SDUI_BINARY WORK_FOLDER

1. `sdui schema` equals the committed `schema/dynamicui.schema.json`.
2. Every catalog document (EduGo screens, templates and navigation, the podcasts' documents,
   the capability manifests) is valid under Python's `jsonschema` (draft 2020-12), and the
   invalid documents of `tools/Tests/DynamicUIToolingTests/Broken` whose fault is structural are
   rejected by it (the others break rules no schema can state, which `sdui validate` checks).
3. The same documents compile as TypeScript against the declarations (`tsc --strict
   --noEmit`), and the structurally broken ones do not.
"""

import json
import os
import subprocess
import sys

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "tools", "catalog")
BROKEN = os.path.join(ROOT, "tools", "Tests", "DynamicUIToolingTests", "Broken")

# The broken documents and whether a schema can see what is wrong with them.
STRUCTURAL = {
    "wrong-type.json": "a slot id that is a number",
    "missing-required-field.json": "no screen_name",
    "pagination-page-size-zero.json": "page_size 0 (must be positive)",
}
# Of those, the faults a TypeScript type can express (a bound on a number cannot).
TYPE_ERRORS = {"wrong-type.json", "missing-required-field.json"}
SEMANTIC = {
    "bad-endpoint-prefix.json", "condition-does-not-compile.json", "duplicate-action-id.json",
    "duplicate-slot-id.json", "icon-only-button.json", "malformed-path-param.json", "missing-trigger-slot.json",
    "navigation-missing-screen.json", "pagination-without-endpoint.json", "placeholder-does-not-compile.json",
    "unknown-control-type.json", "unknown-handler-key.json",
}


def kind(document):
    """The schema definition a document is checked against, as the validator classifies it."""
    has = document.__contains__
    if has("template_id"):
        return "ScreenInstance" if has("screen_key") or has("screen_id") else "ScreenTemplateDocument"
    if has("screen_key") or has("screen_id") or (has("template") and has("pattern")):
        return "ScreenDefinition"
    if has("sdk_version") and has("schema_version"):
        return "ClientCapabilities"
    if has("bottom_nav") or has("drawer_items"):
        return "NavigationDefinition"
    if has("type"):
        return "ViewNode"
    if has("components"):
        return "ComponentLibrary"
    return "Theme"


def catalog_documents():
    folders = ["edugo/screens", "edugo/templates", "edugo/navigation", "manifests", "podcasts"]
    for folder in folders:
        path = os.path.join(CATALOG, folder)
        for name in sorted(os.listdir(path)):
            if name.endswith(".json"):
                yield os.path.join(folder, name), os.path.join(path, name)


def fail(message):
    print("wire-schema-check: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    sdui, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)

    exported = subprocess.run([sdui, "schema"], check=True, capture_output=True, text=True).stdout
    schema = json.loads(exported)
    with open(os.path.join(ROOT, "schema", "dynamicui.schema.json")) as handle:
        if json.load(handle) != schema:
            fail("sdui schema differs from schema/dynamicui.schema.json")
    typescript = subprocess.run([sdui, "schema", "--format", "typescript"], check=True, capture_output=True,
                                text=True).stdout

    jsonschema.Draft202012Validator.check_schema(schema)
    # Each document is checked against its own kind, so an error names that kind's members.
    validators = {
        name: jsonschema.Draft202012Validator({"$schema": schema["$schema"], "$defs": schema["$defs"],
                                               "$ref": f"#/$defs/{name}"})
        for name in schema["$defs"]
    }

    documents = []
    for display, path in catalog_documents():
        with open(path) as handle:
            document = json.load(handle)
        name = kind(document)
        errors = sorted(validators[name].iter_errors(document), key=lambda e: list(e.absolute_path))
        if errors:
            fail(f"{display} ({name}) is invalid: " + "; ".join(
                f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:5]))
        documents.append((display, name, document))
    print(f"jsonschema: {len(documents)} catalog documents valid")

    broken = []
    for file in sorted(os.listdir(BROKEN)):
        with open(os.path.join(BROKEN, file)) as handle:
            text = handle.read()
        try:
            document = json.loads(text)
        except json.JSONDecodeError:
            print(f"jsonschema: {file} is not JSON")
            continue
        name = kind(document)
        errors = list(validators[name].iter_errors(document))
        if file in STRUCTURAL:
            if not errors:
                fail(f"{file} ({STRUCTURAL[file]}) was accepted by the schema")
            broken.append((file, name, document))
            print(f"jsonschema: {file} rejected at /{'/'.join(map(str, errors[0].absolute_path))}: {errors[0].message}")
        elif file in SEMANTIC:
            if errors:
                fail(f"{file} breaks a rule the schema cannot state, yet the schema rejects it: {errors[0].message}")
        else:
            fail(f"{file} is not listed as structural or semantic in wire-schema-check.py")

    # TypeScript: each document as a typed constant, in its own file.
    with open(os.path.join(work, "dynamicui.d.ts"), "w") as handle:
        handle.write(typescript)
    # The podcasts app registers one native component, as a backend declares its app's own.
    with open(os.path.join(work, "native.d.ts"), "w") as handle:
        handle.write('import type { JSONValue } from "./dynamicui";\n'
                     'declare module "./dynamicui" {\n'
                     '    interface NativeNodeProps { media_player: { [key: string]: JSONValue } }\n'
                     '}\n')
    good, bad = [], []
    for index, (display, name, document) in enumerate(documents):
        good.append(write_typed(work, f"doc{index}", name, document))
    for file, name, document in broken:
        if file not in TYPE_ERRORS:
            continue
        bad.append((file, write_typed(work, "broken-" + file[:-5], name, document)))
    result = tsc(work, good)
    if result.returncode != 0:
        fail("tsc rejects catalog documents:\n" + result.stdout[:4000])
    print(f"tsc --strict: {len(good)} catalog documents compile")
    for file, path in bad:
        result = tsc(work, [path])
        if result.returncode == 0:
            fail(f"tsc accepts {file}")
        print(f"tsc --strict: {file} rejected: {result.stdout.strip().splitlines()[0][:160]}")


def write_typed(work, stem, name, document):
    path = os.path.join(work, stem + ".ts")
    with open(path, "w") as handle:
        handle.write(f'import type {{ {name} }} from "./dynamicui";\n')
        handle.write(f"export const document: {name} = {json.dumps(document, indent=1, ensure_ascii=False)};\n")
    return path


def tsc(work, files):
    return subprocess.run(["tsc", "--strict", "--noEmit", "--target", "es2020", "native.d.ts", *files], cwd=work,
                          capture_output=True, text=True)


if __name__ == "__main__":
    main()
