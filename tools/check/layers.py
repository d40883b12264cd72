#!/usr/bin/env python3
"""check-layers: the source tree's layering rules (docs/check.md).

    python3 -m tools.check.layers [--root DIR]

Layers, top to bottom:  boot/ -> tests/ -> harness/, bench/ -> pmu/ ->
arch/ -> lib/.  A file may #include "..." only files of its own layer or a
lower one (a quoted include is resolved like the compiler does: next to the
including file first, then from the tree's root, which the build passes as
-I.).  Besides: only boot/ includes boot/, only tests/ includes tests/,
lib/ includes only lib/, arch/ only arch/ and lib/; boot/ names no PMU
generation (no pmu/p5*.h, p6*, netburst*, p4*, core*, arch_perfmon*
header, no PMU_P5/PMU_P6/PMU_NETBURST/PMU_ARCH); every .c/.S under tests/
(but tests/host/) holds a TEST(.  Host unit tests (tests/host/) may include
any module they test.

Prints one "ok - layers: RULE" or "not ok - layers: RULE: violations" line
per rule, then the violations, and exits 1 when any rule is broken.
"""

import argparse
import os
import re
import sys
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

# Layer of each top-level directory: higher numbers sit higher.
LAYERS = {"boot": 6, "tests": 5, "harness": 4, "bench": 4, "pmu": 3,
          "arch": 2, "lib": 1}
SOURCE_EXT = (".c", ".h", ".S")
HOST_TESTS = "tests/host/"
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
GENERATION_HEADERS = ("pmu/p5*.h", "pmu/p6*.h", "pmu/netburst*.h",
                      "pmu/p4*.h", "pmu/core*.h", "pmu/arch_perfmon*.h")
GENERATION_NAMES = re.compile(r"\bPMU_(P5|P6|NETBURST|ARCH)")

RULES = (
    ("down", "includes go down the layers (boot > tests > harness, bench > "
             "pmu > arch > lib)"),
    ("boot", "only boot/ includes boot/"),
    ("tests", "only tests/ includes tests/"),
    ("lib", "lib/ includes only lib/"),
    ("arch", "arch/ includes only arch/ and lib/"),
    ("generation", "boot/ names no PMU generation"),
    ("only-tests", "every .c/.S under tests/ (but tests/host/) defines a "
                   "TEST("),
    ("resolve", "every quoted include names a file of the layers"),
)


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


def check(root):
    """Returns {rule id: [violation text, ...]} for the tree at root."""
    v = {rid: [] for rid, _ in RULES}
    for rel in sources(root):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError as e:
            v["resolve"].append(f"{rel}: cannot read: {e}")
            continue
        layer = top(rel)
        host = rel.startswith(HOST_TESTS)
        if layer == "tests" and not host and rel.endswith((".c", ".S")) \
                and "TEST(" not in text:
            v["only-tests"].append(f"{rel}: no TEST(")
        for n, line in enumerate(text.splitlines(), 1):
            if layer == "boot":
                m = GENERATION_NAMES.search(line)
                if m:
                    v["generation"].append(f"{rel}:{n}: mentions "
                                           f"{m.group(0)}")
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
            if layer == "boot" and any(fnmatchcase(target, g)
                                       for g in GENERATION_HEADERS):
                v["generation"].append(f"{where} -> {target}")
            if host:
                continue        # host tests include what they test
            arrow = f"{where} -> {target}"
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
