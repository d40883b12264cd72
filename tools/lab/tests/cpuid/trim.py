#!/usr/bin/env python3
"""trim: cut an InstLatx64 CPUID dump down to a corpus file (issue 40).

    python3 tools/lab/tests/cpuid/trim.py SRC_DIR NAME...   # writes ./NAME

The copy keeps the source's own line format (the parser is tested on the
real layouts, tools/lab/cpuid_dump.py) and keeps, verbatim:
- the lines before the first logical CPU's section (the report's header;
  none in a file without headings);
- the sections of the first and second logical CPUs of the file (#0 and
  its sibling #1; #1 and #2 in the "CPUID Registers (CPU #N)" layout,
  numbered from 1) and, on a hybrid part (CPUID.07H:EDX[15]), the first
  logical CPU of each other core type (CPUID.1AH:EAX[31:24]);
- in those sections only the heading, "allcpu:" lines, blank lines (a
  run of them as one) and the CPUID lines of the leaves in KEEP.
It then checks that the copy parses to the kept CPUs' leaves, unchanged.
Prints, per file, the N of the logical CPUs kept (for README.md).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from tools.lab import cpuid_dump as cd   # noqa: E402

KEEP = {0x0, 0x1, 0x2, 0x4, 0x6, 0x7, 0xA, 0xB, 0x14, 0x1A, 0x1C, 0x1F,
        0x23} | set(range(0x80000000, 0x80000009))


def sections(lines):
    """Per line, the ordinal (0, 1 ...) of the logical CPU section it is
    in, or None; the same walk as cpuid_dump.parse()."""
    owner, n, cur, headed, seen0 = [], -1, None, False, False
    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if cd._heading(s) is not None:
            headed, n, seen0 = True, n + 1, False
            cur = n
        elif cd._OTHER_HEADING.fullmatch(s):
            cur = None
        else:
            got = cd._cpuid_line(s, i)
            if got and not headed and (cur is None or
                                       (got[0] == 0 and seen0)):
                n += 1
                cur, seen0 = n, False
            if got and got[0] == 0:
                seen0 = True
        owner.append(cur)
    return owner


def kept_ordinals(cpus):
    """The first two logical CPUs and, on a hybrid part, the first of
    each other core type."""
    keep = list(range(min(2, len(cpus))))
    first = cpus[0]
    maxleaf = first.get(0)[0]
    if maxleaf >= 7 and first.get(7) and first.get(7)[3] >> 15 & 1:
        types = set()
        for k in keep:
            a = cpus[k].get(0x1A)
            types.add(a[0] >> 24 if a else None)
        for i, c in enumerate(cpus):
            a = c.get(0x1A)
            t = a[0] >> 24 if a else None
            if t not in types:
                types.add(t)
                keep.append(i)
    return sorted(keep)


def trim(text):
    """(the trimmed text, the N of the kept logical CPUs)."""
    lines = text.splitlines()
    cpus = cd.parse(text)
    keep = kept_ordinals(cpus)
    owner = sections(lines)
    first = owner.index(0)
    out = lines[:first]
    for i in range(first, len(lines)):
        if owner[i] not in keep:
            continue
        s = lines[i].strip()
        got = cd._cpuid_line(s, i + 1)
        if got is not None:
            if got[0] in KEEP:
                out.append(lines[i])
        elif not s:
            if out and out[-1].strip():
                out.append(lines[i])
        else:   # a heading or allcpu:
            if cd._heading(s) is not None or s.startswith("allcpu:"):
                out.append(lines[i])
    new = "\n".join(out).rstrip("\n") + "\n"
    check(cpus, keep, cd.parse(new))
    return new, [cpus[k].index for k in keep]


def check(cpus, keep, got):
    """The copy holds exactly the kept CPUs' KEEP leaves."""
    assert [c.index for c in got] == [cpus[k].index for k in keep]
    for c, k in zip(got, keep):
        want = {key: v for key, v in cpus[k].leaves.items()
                if key[0] in KEEP}
        assert c.leaves == want, (c.index, set(want) ^ set(c.leaves))


def main(argv):
    src = Path(argv[1])
    for name in argv[2:]:
        text = (src / name).read_text(encoding="latin-1")
        new, kept = trim(text)
        Path(name).write_text(new, encoding="latin-1")
        print(name, " ".join(f"#{k}" for k in kept))


if __name__ == "__main__":
    main(sys.argv)
