#!/usr/bin/env python3
"""Fails when a public declaration has no `///` doc comment.

Protocol witnesses (`init(json:context:)`, `init(node:context:)`, `json`, `encode(to:)`, `==`,
`description`, …) are documented where the protocol declares them, so they are exempt.
"""
import pathlib
import re
import sys

WITNESSES = re.compile(
    r"public (static )?"
    r"(init\(json: JSONValue, context:|init\(node: JSONNode, context:|init\(from decoder|func encode\(to encoder|var json: JSONValue"
    r"|var rawValue: String|static let knownCases|static let rawValueTable|var description: String|func hash\(into"
    r"|func == |func < |var startIndex|var endIndex|subscript\(position: Int\)"
    r"|init\((nilLiteral|booleanLiteral|integerLiteral|floatLiteral|stringLiteral|arrayLiteral|dictionaryLiteral)"
    r"|init\(dictionaryLiteral)"
)
DECL = re.compile(r"^\s*(@\w+(\(.*?\))?\s+)*(public|open) ")
# An enum case declaration (not a `case .x:` of a switch) inside a public enum.
CASE = re.compile(r"^\s+case [`a-zA-Z_][\w`]*(\(.*\))?( = [^:]*)?(, [`a-zA-Z_][\w`]*(\(.*\))?)*\s*$")

failures = []
for root in sys.argv[1:]:
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        # Tests are no API (a package's tests live under its Tests/ folder).
        if "Tests" in path.parts:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        in_public_enum = False
        for number, line in enumerate(lines):
            if re.match(r"^\s*public (indirect )?enum ", line):
                in_public_enum = True
            elif re.match(r"^(public |extension |struct |final class |enum |protocol )", line):
                in_public_enum = line.startswith("public enum") or line.startswith("public indirect enum")
            # A switch case with its code on the same line (`case f(x): code`) is not a declaration.
            is_case = in_public_enum and CASE.match(line) is not None and not re.search(r"\)\s*:\s*\S", line)
            if not is_case and (not DECL.match(line) or "import " in line or WITNESSES.search(line)):
                continue
            previous = number - 1
            while previous >= 0 and lines[previous].strip().startswith("@"):
                previous -= 1
            if previous < 0 or not lines[previous].strip().startswith("///"):
                failures.append(f"{path}:{number + 1}: public declaration without a doc comment: {line.strip()}")

print("\n".join(failures))
print(f"doc check: {len(failures)} undocumented public declarations")
sys.exit(1 if failures else 0)
