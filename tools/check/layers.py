#!/usr/bin/env python3
"""check-layers: the source tree's layering rules (docs/check.md).

    python3 -m tools.check.layers [--root DIR]

Layers, top to bottom:  boot/ -> tests/ -> harness/, bench/ -> pmu/ ->
arch/ -> lib/.  A file may #include "..." only files of its own layer or a
lower one (a quoted include is resolved like the compiler does: next to the
including file first, then from the tree's root, which the build passes as
-I.).  Besides: only boot/ includes boot/, only tests/ includes tests/,
lib/ includes only lib/, arch/ only arch/ and lib/; every .c/.S under
tests/ (but tests/host/) holds a TEST(, but for what a group's tests
share, tests/GROUP/GROUP_*.c.  Host unit tests (tests/host/) may
include any module they test.  The string literals of the code that runs
on the target (every layer but tests/host/ and a generation's host-only
listing.c and referee.c) are ASCII: they end up in the log, which is ASCII ("SDM Vol. 3B 18.15.5.7", not the section sign, which
a UTF-8 source turns into the bytes C2 A7 of the log).

The PMU generations are read from the tree, not from a list: every folder
pmu/GEN/ is one, and the kinds they drive are the `.kind = PMU_X` of their
pmu/GEN/generation.c descriptors.  boot/ and harness/ are generation-
independent: they include no header of a generation folder, name no
generation's PMU_X kind (but pmu/cpu_model.h, which declares them) and
read no CPUID leaf that describes a PMU (0AH, 14H, 23H, 80000022H: the
generation's descriptor's detect hook reads it).

Units: a .c and the header of the same name beside it (pmu/p5/driver.c and
pmu/p5/driver.h).  Within pmu/ and harness/:
  - each header belongs to one .c: every function or object a header
    declares is defined in the .c of its unit (or nowhere: a header
    without a .c is a layout of macros, types and inline functions);
  - no include cycle: the units' #include graph has no cycle;
  - no call cycle: the graph "unit A's .c names a function or object
    that unit B's header declares" has no cycle (calls through a
    function pointer, such as a driver's ops table, are not edges).

Prints one "ok - layers: RULE" or "not ok - layers: RULE: violations" line
per rule, then the violations, and exits 1 when any rule is broken.
"""

import argparse
import os
import re
import sys
from pathlib import Path, PurePosixPath

# Layer of each top-level directory: higher numbers sit higher.
LAYERS = {"boot": 6, "tests": 5, "harness": 4, "bench": 4, "pmu": 3,
          "arch": 2, "lib": 1}
SOURCE_EXT = (".c", ".h", ".S")
HOST_TESTS = "tests/host/"
# A generation folder's files that only the host tools build (the Makefile
# leaves them out of the image): its event listing (pmu/listing.h) and
# its libpfm4 referee (pmu/referee.h).
HOST_ONLY = ("listing.c", "referee.c")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
KIND = re.compile(r"\.kind\s*=\s*(PMU_[A-Z0-9_]+)")
# The folders whose units must form no cycle.
UNIT_DIRS = ("pmu", "harness")

RULES = (
    ("down", "includes go down the layers (boot > tests > harness, bench > "
             "pmu > arch > lib)"),
    ("boot", "only boot/ includes boot/"),
    ("tests", "only tests/ includes tests/"),
    ("lib", "lib/ includes only lib/"),
    ("arch", "arch/ includes only arch/ and lib/"),
    ("generation", "boot/, harness/ and pmu/'s core are generation-"
                   "independent (no header of a pmu/GEN/ folder, no PMU_ "
                   "kind of one, but where pmu/cpu_model.h declares the "
                   "kinds, no CPUID leaf of a PMU)"),
    ("only-tests", "every .c/.S under tests/ (but tests/host/) defines a "
                   "TEST( or is its group's shared tests/GROUP/GROUP_*.c"),
    ("resolve", "every quoted include names a file of the layers"),
    ("ascii", "the target code's string literals are ASCII (the log is "
              "ASCII)"),
    ("owner", "each header of pmu/ and harness/ declares only what its own "
              ".c defines"),
    ("include-cycle", "no include cycle between units of pmu/ and "
                      "harness/"),
    ("call-cycle", "no call cycle between units of pmu/ and harness/"),
    ("perfmon-order", "inside pmu/perfmon/, includes go down one order: "
                      "regs (regs, caps, caps_table, events, report), "
                      "then ds/, then pebs/, bts/, lbr/, then the driver "
                      "and the model (driver, model, sample, generation)"),
)

# The order inside pmu/perfmon/ (issue 38): a file includes files of its
# own level or a lower one.  The architectural registers and the
# capabilities (what every part reads) first; the DS save area, the base
# that PEBS, BTS and the LBRs build on; those three; then what drives
# them all.  Folders by name, top-level files by stem; a new top-level
# file must be placed here (the rule says so), not fall anywhere.
PERFMON = "pmu/perfmon/"
PERFMON_FOLDERS = {"ds": 1, "pebs": 2, "bts": 2, "lbr": 2}
PERFMON_FILES = {"regs": 0, "caps": 0, "caps_table": 0, "events": 0,
                 "report": 0,
                 "driver": 3, "model": 3, "sample": 3, "generation": 3,
                 "listing": 3, "referee": 3}


def top(rel):
    """The top-level directory of a tree-relative path ("" for none)."""
    parts = PurePosixPath(rel).parts
    return parts[0] if len(parts) > 1 else ""


def sources(root):
    """Tree-relative POSIX paths of the sources under the layer dirs."""
    out = []
    for d in sorted(LAYERS):
        base = root / d
        if not base.is_dir():
            continue
        for dirpath, dirnames, files in os.walk(base):
            dirnames.sort()
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    out.append((Path(dirpath) / f).relative_to(root)
                               .as_posix())
    return out


# Where the PMU kinds are declared: the one core file that names them.
KINDS_DECLARED = "pmu/cpu_model.h"

# The CPUID leaves that describe a PMU, which only its generation reads
# (its descriptor's detect hook, pmu/generation.h): SDM Vol. 2A CPUID
# (order no. 253666) 0AH "Architectural Performance Monitoring Leaf",
# 14H "Intel Processor Trace Enumeration Main Leaf", 23H "Architectural
# Performance Monitoring Extended Leaf"; AMD64 APM Vol. 3 (order no.
# 24594) 80000022H "Extended Performance Monitoring and Debug".
PMU_CPUID_LEAVES = {0x0A: "0AH", 0x14: "14H", 0x23: "23H",
                    0x80000022: "80000022H"}
CPUID_CALL = re.compile(r"\bcpuid(?:_count)?\s*\(\s*(0[xX][0-9a-fA-F]+|\d+)"
                        r"\b")


def generation_free(rel):
    """Code that must name no generation (issue 38): boot/, harness/ and
    pmu/'s own files outside the generation folders.  What a generation
    is, the core learns from its descriptor (pmu/generation.h)."""
    parts = PurePosixPath(rel).parts
    if parts[0] in ("boot", "harness"):
        return True
    return parts[0] == "pmu" and len(parts) == 2 and rel != KINDS_DECLARED


def on_target(rel):
    """Code the image carries: all but the host unit tests and the host
    tools' files of the generation folders (HOST_ONLY)."""
    parts = PurePosixPath(rel).parts
    if rel.startswith(HOST_TESTS):
        return False
    return not (len(parts) == 3 and parts[0] == "pmu" and
                parts[2] in HOST_ONLY)


def group_run(rel):
    """tests/GROUP/GROUP_*.c: what a group's tests share (the PEBS run and
    the SDM's PEBS rules of pebs/), which belongs to no generation-
    independent layer; tests are named by topic, not by their group."""
    parts = PurePosixPath(rel).parts
    return len(parts) == 3 and parts[2].startswith(f"{parts[1]}_") and \
        parts[2].endswith(".c")


def generations(root):
    """{folder name: [PMU_ kinds]} of the folders under pmu/."""
    out = {}
    base = root / "pmu"
    if not base.is_dir():
        return out
    for d in sorted(p for p in base.iterdir() if p.is_dir()):
        desc = d / "generation.c"
        kinds = []
        if desc.is_file():
            kinds = KIND.findall(strip_comments(
                desc.read_text(errors="replace")))
        out[d.name] = kinds
    return out


def resolve(root, rel, inc):
    """The tree-relative path a quoted #include of rel names, or None when
    it names no file in the tree."""
    for base in (PurePosixPath(rel).parent, PurePosixPath("")):
        p = os.path.normpath(str(base / inc))
        if p.startswith("..") or os.path.isabs(p):
            continue
        if (root / p).is_file():
            return PurePosixPath(p).as_posix()
    return None


# ---- C text, crudely but enough for this tree's style ---------------------

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
# "struct cpu_info" names a type, not the function cpu_info().
TAG = re.compile(r"\b(?:struct|union|enum)\s+\w+")


# Comments and literals in one pass, so that neither hides in the other.
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                   r"|'(?:\\.|[^'\\\n])*'", re.S)


def non_ascii_literals(text):
    """(line, literal) of each string or character literal that holds a
    byte outside ASCII."""
    for m in TOKEN.finditer(text):
        lit = m.group(0)
        if lit[0] in "\"'" and any(ord(c) > 127 for c in lit):
            yield text.count("\n", 0, m.start()) + 1, lit


def strip_comments(text):
    """The text with comments blanked (newlines kept for line numbers)."""
    return COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def code_of(text):
    """Comments, strings and preprocessor lines blanked."""
    text = STRING.sub('""', strip_comments(text))
    lines = text.split("\n")
    out, cont = [], False
    for line in lines:
        if cont or line.lstrip().startswith("#"):
            cont = line.endswith("\\")
            out.append("")
            continue
        out.append(line)
    return "\n".join(out)


def top_level_statements(code):
    """The file-scope statements: text up to a ';' at brace and paren
    depth 0, or a brace block with what precedes it (a definition)."""
    stmts, cur, depth, paren = [], [], 0, 0
    for ch in code:
        cur.append(ch)
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and paren == 0:
                stmts.append("".join(cur))
                cur = []
        elif ch == ";" and depth == 0 and paren == 0:
            stmts.append("".join(cur))
            cur = []
    return [" ".join(s.split()) for s in stmts if s.strip()]


def declared_name(stmt):
    """The function or object an external declaration in a header names,
    or None (types, typedefs, macros, inline definitions)."""
    s = stmt.strip()
    if s.startswith(("typedef", "static", "struct", "enum", "union")) and \
            "(" not in s.split("{")[0] and not s.startswith("static"):
        # struct x { ... }; enum ...; union ...
        return None
    if s.startswith(("typedef", "static")) or s.endswith("}"):
        return None
    if "(" in s:
        head = s.split("(")[0]
        # a function pointer object: int (*x)(...)
        if head.rstrip().endswith("(") or head.strip() == "":
            return None
        names = IDENT.findall(head)
        return names[-1] if names else None
    if s.startswith("extern"):
        names = IDENT.findall(s.split("[")[0].split("=")[0])
        return names[-1] if names else None
    return None


def defined_names(code):
    """Functions and objects a .c defines with external linkage."""
    out = set()
    for s in top_level_statements(code):
        # top-level asm, and registrations (TEST(), BENCH(),
        # PMU_GENERATION()): static objects in a linker section
        if s.startswith(("__asm__", "asm")) or re.match(r"[A-Z_][A-Z0-9_]*\s*\(", s):
            continue
        if s.startswith(("static", "typedef", "extern", "struct",
                         "enum", "union")) and not (
                s.startswith(("struct", "enum", "union")) and
                ("(" in s.split("{")[0] or "=" in s)):
            continue
        head = s.split("{")[0].split("=")[0]
        if "(" in head:
            names = IDENT.findall(head.split("(")[0])
        else:
            names = IDENT.findall(head.split("[")[0])
        # a type and a name at least ("d;" alone is the declarator tail
        # of a struct definition, already split off)
        if len(names) >= 2:
            out.add(names[-1])
    return out


def unit_of(rel):
    """The unit a pmu/ or harness/ source belongs to (its path without the
    extension), or None."""
    if top(rel) not in UNIT_DIRS or not rel.endswith((".c", ".h")):
        return None
    return rel[:-2]


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def cycle_path(graph, comp, label):
    """One closed walk through a component, for the message."""
    comp = set(comp)
    start = min(comp)
    path, seen, v = [start], {start}, start
    while True:
        nxt = sorted(w for w in graph.get(v, ()) if w in comp)
        back = [w for w in nxt if w == start]
        fresh = [w for w in nxt if w not in seen]
        if back and (len(path) > 1 or not fresh):
            path.append(start)
            break
        if not fresh:
            path.append(nxt[0] if nxt else start)
            break
        v = fresh[0]
        path.append(v)
        seen.add(v)
    steps = []
    for a, b in zip(path, path[1:]):
        why = label.get((a, b))
        steps.append(f"{a} -> {b}" + (f" ({why})" if why else ""))
    return "; ".join(steps)


def perfmon_level(rel):
    """The level of a pmu/perfmon/ source in PERFMON's order, or None
    when it has none (a new folder or file the order does not place)."""
    parts = PurePosixPath(rel[len(PERFMON):]).parts
    if len(parts) > 1:
        return PERFMON_FOLDERS.get(parts[0])
    return PERFMON_FILES.get(PurePosixPath(parts[0]).stem)


def check_perfmon_order(rel, target, arrow, v):
    """The perfmon-order rule for one include of rel."""
    if not rel.startswith(PERFMON):
        return
    lr = perfmon_level(rel)
    if lr is None:
        v["perfmon-order"].append(f"{rel}: no place in the order "
                                  "(tools/check/layers.py PERFMON_*)")
        return
    if not target.startswith(PERFMON):
        return
    lt = perfmon_level(target)
    if lt is not None and lt > lr:
        v["perfmon-order"].append(f"{arrow} (level {lr} includes level "
                                  f"{lt})")


def check_units(root, texts, v):
    """The owner, include-cycle and call-cycle rules over pmu/ and
    harness/."""
    units = {}
    for rel in texts:
        u = unit_of(rel)
        if u:
            units.setdefault(u, []).append(rel)
    code = {rel: code_of(texts[rel]) for u in units for rel in units[u]}
    # What each unit's header declares, and which .c defines what.
    declares = {}
    defines = {}
    for u, rels in units.items():
        if u + ".h" in rels:
            names = set()
            for s in top_level_statements(code[u + ".h"]):
                n = declared_name(s)
                if n:
                    names.add(n)
            declares[u] = names
        if u + ".c" in rels:
            defines[u] = defined_names(code[u + ".c"])
    definer = {}
    for u, names in defines.items():
        for n in names:
            definer.setdefault(n, u)
    for u, names in sorted(declares.items()):
        for n in sorted(names):
            d = definer.get(n)
            if d is not None and d != u:
                v["owner"].append(f"{u}.h declares {n}, which {d}.c "
                                  f"defines")
    # Include graph between units.
    inc_graph, inc_label = {}, {}
    for u, rels in units.items():
        for rel in rels:
            for n, line in enumerate(texts[rel].splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                t = resolve(root, rel, m.group(1))
                tu = unit_of(t) if t else None
                if tu and tu != u and tu in units:
                    inc_graph.setdefault(u, set()).add(tu)
                    inc_label.setdefault((u, tu), f"{rel}:{n}")
    for comp in cycles(inc_graph):
        v["include-cycle"].append(cycle_path(inc_graph, comp, inc_label))
    # Call graph: a unit's .c naming a function or object another unit's
    # .c defines.
    call_graph, call_label = {}, {}
    for u, rels in units.items():
        if u + ".c" not in rels:
            continue
        body = TAG.sub(" ", code[u + ".c"])
        for ident in set(IDENT.findall(body)):
            o = definer.get(ident)
            if o and o != u:
                call_graph.setdefault(u, set()).add(o)
                call_label.setdefault((u, o), ident)
    for comp in cycles(call_graph):
        v["call-cycle"].append(cycle_path(call_graph, comp, call_label))


def check_generation_free(rel, text, kind_re, v):
    """The generation rule's kinds and CPUID leaves in one file of the
    core: no generation's PMU_ kind, no PMU's CPUID leaf read."""
    for n, line in enumerate(strip_comments(text).splitlines(), 1):
        m = kind_re.search(line) if kind_re else None
        if m:
            v["generation"].append(f"{rel}:{n}: mentions {m.group(0)}")
        for c in CPUID_CALL.finditer(line):
            num = c.group(1)
            leaf = PMU_CPUID_LEAVES.get(int(num, 16 if num[:2] in ("0x", "0X")
                                            else 10))
            if leaf:
                v["generation"].append(f"{rel}:{n}: reads CPUID leaf "
                                       f"{leaf}, a PMU's (its "
                                       "generation's detect hook reads "
                                       "it)")


def check(root):
    """Returns {rule id: [violation text, ...]} for the tree at root."""
    v = {rid: [] for rid, _ in RULES}
    gens = generations(root)
    kinds = sorted({k for ks in gens.values() for k in ks})
    kind_re = re.compile(r"\b(" + "|".join(kinds) + r")\b") if kinds \
        else None
    texts = {}
    for rel in sources(root):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError as e:
            v["resolve"].append(f"{rel}: cannot read: {e}")
            continue
        texts[rel] = text
        layer = top(rel)
        host = rel.startswith(HOST_TESTS)
        if on_target(rel):
            for n, lit in non_ascii_literals(text):
                v["ascii"].append(f"{rel}:{n}: {lit[:60]}")
        if layer == "tests" and not host and rel.endswith((".c", ".S")) \
                and "TEST(" not in text and not group_run(rel):
            v["only-tests"].append(f"{rel}: no TEST(")
        if generation_free(rel):
            check_generation_free(rel, text, kind_re, v)
        for n, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            where = f"{rel}:{n}: #include \"{inc}\""
            target = resolve(root, rel, inc)
            if target is None:
                v["resolve"].append(f"{where}: no such file in the tree")
                continue
            tl = top(target)
            if tl not in LAYERS:
                v["resolve"].append(f"{where} -> {target}: outside the "
                                    "layers")
                continue
            parts = PurePosixPath(target).parts
            if generation_free(rel) and len(parts) > 2 and \
                    parts[0] == "pmu" and parts[1] in gens:
                v["generation"].append(f"{where} -> {target}")
            if host:
                continue        # host tests include what they test
            arrow = f"{where} -> {target}"
            check_perfmon_order(rel, target, arrow, v)
            if LAYERS[tl] > LAYERS[layer]:
                v["down"].append(f"{arrow} ({layer}/ is below {tl}/)")
            if tl == "boot" and layer != "boot":
                v["boot"].append(arrow)
            if tl == "tests" and layer != "tests":
                v["tests"].append(arrow)
            if layer == "lib" and tl != "lib":
                v["lib"].append(arrow)
            if layer == "arch" and tl not in ("arch", "lib"):
                v["arch"].append(arrow)
    check_units(root, texts, v)
    return v


def main(argv=None):
    ap = argparse.ArgumentParser(description="check the source layering")
    ap.add_argument("--root", default=str(Path(__file__).resolve()
                                          .parents[2]))
    a = ap.parse_args(argv)
    root = Path(a.root)
    if not any((root / d).is_dir() for d in LAYERS):
        print(f"not ok - layers: no source tree under {root}")
        return 1
    v = check(root)
    bad = 0
    for rid, text in RULES:
        if v[rid]:
            bad += 1
            print(f"not ok - layers: {text}: {len(v[rid])} violation(s)")
            for line in v[rid]:
                print(f"#   {line}")
        else:
            print(f"ok - layers: {text}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
