#!/usr/bin/env python3
"""Fails on two SwiftUI mistakes that no model-level test can see.

    python3 .ci/swiftui-lint.py [PATH...]    # default: Modules/SwiftUI Plugins/MediaPlayer
    python3 .ci/swiftui-lint.py --self-test  # the rules against the snippets below

(a) identity: an `if`/`else` (or `else if` chain), or a ternary of views, whose branches are the
    same expression with and without trailing modifiers (`if c { v.padding() } else { v }`).
    SwiftUI gives each branch its own identity, so when the condition changes the content is
    built anew: its state, focus, scroll position and image loads are lost. Apply the modifier
    always, with a neutral value when it should do nothing.
(b) hit area: `.padding`, `.background` or `.frame` in the modifier chain of a `Button` that
    has `.buttonStyle(.plain)`. A plain button is tapped only on its label's shape; what is
    added outside the label is drawn but dead to touch. Put it inside the label and add
    `.contentShape(Rectangle())`.

Each finding is printed as `file:line: why`; the exit status is 1 when there is one. A finding
is accepted only with `// swiftui-lint: allow <reason>` on its line or the line above, where the
reason says why the condition cannot change for a drawn view (the definition decides it, not the
data). The parser is deliberately small: it masks comments and string literals, matches
brackets, and compares branches with their whitespace removed.
"""

import pathlib
import re
import sys

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_ROOTS = [REPOSITORY / "Modules/SwiftUI", REPOSITORY / "Plugins/MediaPlayer"]
HIT_AREA_MODIFIERS = {"padding", "background", "frame"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPENERS = {"(": ")", "[": "]", "{": "}"}
ALLOW = re.compile(r"//\s*swiftui-lint:\s*allow\s+\S")


def mask(source):
    """The source with comments and the text of string literals replaced by spaces (newlines
    kept, so offsets and line numbers stay those of the file). Interpolations stay code."""
    out = list(source)
    i, n = 0, len(source)
    # Each entry is an open string: (is_multiline, paren depth of its current interpolation);
    # the depth is None while in the string's text.
    strings = []

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if strings and strings[-1][1] is None:
            multiline = strings[-1][0]
            if source.startswith("\\(", i):
                strings[-1] = (multiline, 0)
                i += 2
            elif source[i] == "\\":
                blank(i, i + 2)
                i += 2
            elif multiline and source.startswith('"""', i):
                strings.pop()
                i += 3
            elif not multiline and source[i] == '"':
                strings.pop()
                i += 1
            else:
                blank(i, i + 1)
                i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif source.startswith('"""', i):
            strings.append((True, None))
            i += 3
        elif source[i] == '"':
            strings.append((False, None))
            i += 1
        else:
            if strings:  # inside an interpolation: count its parentheses
                multiline, depth = strings[-1]
                if source[i] == "(":
                    strings[-1] = (multiline, depth + 1)
                elif source[i] == ")":
                    strings[-1] = (multiline, None) if depth == 0 else (multiline, depth - 1)
            i += 1
    return "".join(out)


def closing(text, start):
    """The offset just past the bracket that closes the one at `start` (the text is masked)."""
    stack = [OPENERS[text[start]]]
    i = start + 1
    while i < len(text):
        c = text[i]
        if c in OPENERS:
            stack.append(OPENERS[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                return None
            if not stack:
                return i + 1
        i += 1
    return None


def skip_space(text, i):
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def word_at(text, i):
    """The identifier starting at `i` when it is a whole word there, else None."""
    if i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_."):
        return None
    m = IDENT.match(text, i)
    return m.group(0) if m else None


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def squeeze(code):
    return re.sub(r"\s+", "", code)


def trailing_chain(base, longer):
    """Whether `longer` is `base` followed only by modifier calls (`.name(…)`, `.name { … }`)."""
    if not base or not longer.startswith(base) or len(longer) == len(base):
        return False
    rest = longer[len(base):]
    i, calls = 0, 0
    while i < len(rest):
        m = re.match(r"\.([A-Za-z_]\w*)", rest[i:])
        if not m:
            return False
        i += m.end()
        called = False
        while i < len(rest) and rest[i] in "({":
            end = closing(rest, i)
            if end is None:
                return False
            i, called = end, True
            label = re.match(r"[A-Za-z_]\w*:(?=\{)", rest[i:])  # a labelled trailing closure
            if label:
                i += label.end()
        if not called:
            return False  # a property (`.count`), not a modifier
        calls += 1
    return calls > 0


def branches_differ_by_modifier(bodies):
    """The first pair of branch bodies where one is the other plus trailing modifiers."""
    squeezed = [squeeze(b) for b in bodies]
    for a in range(len(squeezed)):
        for b in range(len(squeezed)):
            if a != b and trailing_chain(squeezed[a], squeezed[b]):
                return a, b
    return None


def if_chains(text):
    """Every `if … { } else …` chain: (offset of the `if`, [branch bodies])."""
    found = []
    for m in re.finditer(r"\bif\b", text):
        start = m.start()
        before = text[:start].rstrip()
        if before.endswith("else") and word_at(text, len(before) - 4) == "else":
            continue  # part of the chain of an earlier `if`
        if start > 0 and text[start - 1] in "#@.":
            continue  # `#if`, an attribute or a member named `if`
        bodies, i = [], m.end()
        while True:
            # The body opens at the first `{` outside brackets after the condition.
            depth = 0
            while i < len(text) and depth >= 0:
                c = text[i]
                if c in "([":
                    depth += 1
                elif c in ")]":
                    depth -= 1
                elif c == "{" and depth == 0:
                    break
                i += 1
            if i >= len(text) or depth < 0:
                bodies = []
                break
            end = closing(text, i)
            if end is None:
                bodies = []
                break
            bodies.append(text[i + 1:end - 1])
            j = skip_space(text, end)
            if word_at(text, j) != "else":
                break
            j = skip_space(text, j + 4)
            if word_at(text, j) == "if":
                i = j + 2
                continue
            if j < len(text) and text[j] == "{":
                close = closing(text, j)
                if close is not None:
                    bodies.append(text[j + 1:close - 1])
            break
        if len(bodies) >= 2:
            found.append((start, bodies))
    return found


def strip_anyview(operand):
    m = re.fullmatch(r"AnyView\((.*)\)", operand)
    return m.group(1) if m else operand


def operand_end(text, i, stops):
    """The end of an expression starting at `i`: the first stop character outside brackets,
    or a line break not followed by a `.` (a modifier on the next line continues it)."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and c in stops:
            return i
        elif depth == 0 and c == "\n":
            k = skip_space(text, i)
            if k >= len(text) or text[k] != ".":
                return i
        i += 1
    return i


def ternaries(text):
    """Ternaries whose two operands are views, one the other plus modifiers: offsets."""
    found = []
    for m in re.finditer(r"\s\?\s", text):
        yes_start = skip_space(text, m.end())
        colon = yes_start
        depth = 0
        while colon < len(text):
            c = text[colon]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    colon = len(text)
                    break
                depth -= 1
            elif depth == 0 and text.startswith(" : ", colon):
                break
            colon += 1
        if colon >= len(text):
            continue
        no_start = skip_space(text, colon + 3)
        yes = squeeze(text[yes_start:colon])
        no = squeeze(text[no_start:operand_end(text, no_start, ",;")])
        wrapped = strip_anyview(yes) != yes and strip_anyview(no) != no
        yes, no = strip_anyview(yes), strip_anyview(no)
        # Views only: both operands were wrapped in `AnyView`, or the shorter one is a view
        # built by its type (`Text(…)`).
        shorter = yes if len(yes) < len(no) else no
        is_view = wrapped or re.match(r"[A-Z]\w*[({]", shorter) is not None
        if is_view and (trailing_chain(yes, no) or trailing_chain(no, yes)):
            found.append(m.start())
    return found


def plain_buttons(text):
    """Modifiers of HIT_AREA_MODIFIERS in the chain of a `Button` styled `.plain`: offsets."""
    found = []
    for m in re.finditer(r"\bButton\b", text):
        start = m.start()
        if start > 0 and text[start - 1] == "." and not text[:start].endswith("SwiftUI."):
            continue
        i = m.end()
        # The call: an argument list and/or trailing closures (`label:` and others).
        i = skip_space(text, i)
        took = False
        if i < len(text) and text[i] == "(":
            end = closing(text, i)
            if end is None:
                continue
            i, took = end, True
        while True:
            j = skip_space(text, i)
            label = re.match(r"[A-Za-z_]\w*\s*:\s*(?=\{)", text[j:]) if took else None
            if j < len(text) and text[j] == "{":
                end = closing(text, j)
            elif label:
                j += label.end()
                end = closing(text, j)
            else:
                break
            if end is None:
                break
            i, took = end, True
        if not took:
            continue
        # The chain of modifiers after the call.
        modifiers = []
        while True:
            j = skip_space(text, i)
            mod = re.match(r"\.([A-Za-z_]\w*)", text[j:])
            if not mod:
                break
            name, k = mod.group(1), j + mod.end()
            args = ""
            while k < len(text) and text[k] in "({":
                end = closing(text, k)
                if end is None:
                    break
                args += text[k:end]
                after = skip_space(text, end)
                k = after if after < len(text) and text[after] == "{" else end  # a trailing closure
            modifiers.append((name, squeeze(args), j))
            i = k
        plain = any(
            name == "buttonStyle" and args in ("(.plain)", "(PlainButtonStyle())") for name, args, _ in modifiers
        )
        if plain:
            found += [offset for name, _, offset in modifiers if name in HIT_AREA_MODIFIERS]
    return found


def lint(source):
    """The findings of one file: (line, why)."""
    text = mask(source)
    findings = []
    for start, bodies in if_chains(text):
        pair = branches_differ_by_modifier(bodies)
        if pair:
            findings.append(
                (
                    line_of(text, start),
                    "if/else whose branches are one view with and without trailing modifiers: "
                    "the content is rebuilt when the condition flips; apply the modifier always, "
                    "with a neutral value",
                )
            )
    for offset in ternaries(text):
        findings.append(
            (
                line_of(text, offset),
                "ternary of one view with and without trailing modifiers: the content is rebuilt "
                "when the condition flips; apply the modifier always, with a neutral value",
            )
        )
    for offset in plain_buttons(text):
        findings.append(
            (
                line_of(text, offset),
                "padding, background or frame outside a plain button's label: that area is drawn "
                "but not tappable; move it into the label and add .contentShape(Rectangle())",
            )
        )
    lines = source.splitlines()

    def allowed(line):
        return any(ALLOW.search(lines[k - 1]) for k in (line, line - 1) if 1 <= k <= len(lines))

    return sorted({(line, why) for line, why in findings if not allowed(line)})


def run(roots):
    failures = 0
    for root in roots:
        path = pathlib.Path(root)
        files = [path] if path.is_file() else sorted(path.rglob("*.swift"))
        for file in files:
            shown = file.resolve().relative_to(REPOSITORY) if file.resolve().is_relative_to(REPOSITORY) else file
            for line, why in lint(file.read_text(encoding="utf-8")):
                print(f"{shown}:{line}: {why}")
                failures += 1
    return 1 if failures else 0


# Snippets and the number of findings each must give.
SELF_TEST = [
    # (a) if/else
    ("bad: modifier only in one branch", "if flag {\n    content.padding()\n} else {\n    content\n}", 1),
    ("bad: modifier chain, branches reversed", "if let a { content } else { content.animation(a, value: ids).id(1) }", 1),
    (
        "bad: else-if chain with a bare branch",
        "if c { view.clipShape(Circle()) } else if let r { view.clipShape(Rect(r)) } else { view }",
        1,
    ),
    ("bad: trailing closure modifier", "if v { content.background { Color.red } } else { content }", 1),
    (
        "bad: animation only while a child has a transition",
        "if let animation = NodeTransition.animation(for: node.children) {\n"
        "    children.animation(animation, value: node.children.map(\\.id))\n} else {\n    children\n}",
        1,
    ),
    ("good: modifier always applied", "content.animation(animation, value: ids)", 0),
    ("good: different views", "if let label { Text(label) } else { Image(systemName: \"x\") }", 0),
    ("good: different modifiers", "if list { base.buttonStyle(.automatic) } else { base.buttonStyle(.bordered) }", 0),
    ("good: property, not a modifier", "if a { items.count } else { items }", 0),
    ("good: longer name, not a modifier", "if a { contentView } else { content }", 0),
    ("good: no else", "if let header { Text(header).font(.headline) }", 0),
    ("good: braces inside a string", 'if a { Text("{ x }") } else { Text("{ x }").bold() + "}" }', 0),
    ("good: #if", "#if os(iOS)\n    content.padding()\n#else\n    content\n#endif", 0),
    ("good: comment", "// if a { v.padding() } else { v }\nText(x)", 0),
    (
        "good: allowed with a reason",
        "// swiftui-lint: allow the definition decides\nif circle { v.clipShape(Circle()) } else { v }",
        0,
    ),
    ("bad: allowed without a reason", "// swiftui-lint: allow\nif circle { v.clipShape(Circle()) } else { v }", 1),
    # (a) ternaries
    ("bad: ternary of AnyViews", "let v = flag ? AnyView(content.padding()) : AnyView(content)", 1),
    ("bad: ternary of a view type", "flag ? Text(title) : Text(title).bold()", 1),
    ("good: ternary of values", "let w = fill ? .infinity : nil", 0),
    ("good: ternary of strings", "let s = upper ? name.uppercased() : name", 0),
    # (b) plain buttons
    (
        "bad: padding after a plain button",
        "Button {\n    fire()\n} label: {\n    Text(title)\n}\n.buttonStyle(.plain)\n.padding(12)",
        1,
    ),
    (
        "bad: background and frame before the style",
        "Button(action: fire) { Text(t) }\n    .frame(maxWidth: .infinity)\n    .background(Color.red)\n"
        "    .buttonStyle(PlainButtonStyle())",
        2,
    ),
    ("bad: title button", 'Button("Go") { go() }.buttonStyle(.plain).padding()', 1),
    (
        "good: style inside the label",
        "Button { fire() } label: {\n    Text(t).padding(12).background(Color.red).contentShape(Rectangle())\n}\n"
        ".buttonStyle(.plain)",
        0,
    ),
    ("good: bordered button", "Button(\"Go\") { go() }.buttonStyle(.bordered).padding()", 0),
    ("good: padding of the container", "HStack { Button(\"a\") { }.buttonStyle(.plain) }.padding()", 0),
    ("good: not a Button", "MyButton { }.buttonStyle(.plain).padding()", 0),
]


def self_test():
    failed = 0
    for name, snippet, expected in SELF_TEST:
        got = lint(snippet)
        if len(got) != expected:
            failed += 1
            print(f"self-test: {name}: expected {expected} finding(s), got {len(got)}: {got}")
    print(f"self-test: {len(SELF_TEST) - failed} of {len(SELF_TEST)} snippets as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(run(sys.argv[1:] or DEFAULT_ROOTS))
