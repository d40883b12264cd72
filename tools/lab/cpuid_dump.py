"""cpuid_dump: read the CPUID dumps of InstLatx64/InstLatx64 (issue 40).

    from tools.lab import cpuid_dump
    for cpu in cpuid_dump.parse_file("GenuineIntel0000F44_..._CPUID.txt"):
        cpu.index                       # N of the heading (0 when none)
        cpu.leaves[(0x4, 1)]            # (eax, ebx, ecx, edx), ints

The dumps were written by EVEREST and AIDA64 (and their CPUID tools)
over twenty years, in several layouts; all of them are read here.

A CPUID line is "CPUID", the leaf in 8 hex digits, ':' or blanks (spaces,
a TAB), then the four registers EAX-EBX-ECX-EDX, 8 hex digits each,
joined by '-' (upper or lower case hex):

    CPUID 00000001: 00000F44-00020800-0000641D-BFEBFBFF
    CPUID 00000001  \t00000F44-00020800-0000641D-BFEBFBFF
    CPUID 00000001 00000692-00000001-00000000-0381F9BF
    CPUID 00000004: 7C004121-01C0003F-0000003F-00000000 [SL 00]
    CPUID 80000002: 756E6547-20656E69-65746E49-2952286C [Genuine Intel(R)]

After the registers, separated by blanks, a comment may follow: an
"[SL xx]" tag (newer AIDA64) names the subleaf in hex (xx, two digits;
the dumps skip subleaves, e.g. leaf 0DH's [SL 07] then [SL 09]); any
other text (a decoded string, "[SSE]", "[30GHz" unclosed, ...) is the
report's and is ignored.  A line without a tag is the next subleaf of
its leaf: repeated lines of one leaf are its subleaves 0, 1, 2 ... in
order (as the dumps were written: leaf 04H's cache type and level,
EAX[4:0] and EAX[7:5], change from line to line; leaf 0BH's and 1FH's
ECX[7:0] echo the subleaf; leaf 0DH's sizes and offsets are those of
state components 0, 1, 2 ...; SDM Vol. 2A, CPUID).

Logical CPUs, one section each, are headed by one of

    ------[ Logical CPU #N ]------                 EVEREST
    ------[ CPUID Registers / Logical CPU #N ]------   AIDA64
    CPUID Registers (CPU #N):                      EVEREST/AIDA64 dumps
    CPUID Registers (CPU #N Virtual):              (N from 1; "Virtual"
                                                    is an HT sibling)
    CPU#NNN AffMask: 0x0000000000000001            AIDA64 CPUID tool

and a section ends at the next heading, or at any other report heading
"------[ ... ]------" (e.g. "MSR Registers / Logical CPU #N").  A file
with no heading is the bare CPUID tool's output: its first CPUID line
starts logical CPU #0, and each later "CPUID 00000000" line the next one
(#1, #2 ...), since a dump of each CPU starts at leaf 0 (leaf 0 has no
subleaves).  Lines that are not CPUID lines (the report's other text,
"CPUID Revision : 00000F44h", "CPUID CPU Name : ...") are ignored; a
CPUID line that is damaged (a leaf not 8 hex digits, a register count
other than four, a register not 8 hex digits, a bad [SL] tag, a subleaf
given twice) is a DumpError naming its line, and so is a CPUID line
outside any section of a file that has headings (after "------[ MSR
Registers ]------", say) and a CPU number N of over 9 digits.  The parse
is one pass over the lines, each regular expression linear in the line,
and it is bounded: text over MAX_BYTES (characters; parse_file: bytes)
or over MAX_CPUS logical CPUs is refused.
"""

import re

MAX_BYTES = 16 * 1024 * 1024    # larger than any dump (the largest: 1.2 MB)
MAX_CPUS = 4096                 # logical CPUs in one file

# Headings of a logical CPU's section; group 1 is N (decimal).
_HEADINGS = (
    re.compile(r"-+\[ *Logical CPU #(\d+) *\]-+"),
    re.compile(r"-+\[ *CPUID Registers / Logical CPU #(\d+) *\]-+"),
    re.compile(r"CPUID Registers \(CPU #(\d+)(?: Virtual)?\):"),
    re.compile(r"CPU#(\d+) AffMask:.*"),
)
# Any other heading of the report: it ends a section.
_OTHER_HEADING = re.compile(r"-+\[[^\]]*\]-+")
# "CPUID", a first word (the leaf), an optional ':', the next word (the
# registers) and the rest; none of the groups can overlap, so matching
# is linear in the line.
_CPUID = re.compile(r"CPUID[ \t]+([^\s:]+)[ \t]*(:?)[ \t]*(\S*)(.*)")
_HEX8 = re.compile(r"[0-9A-Fa-f]{8}")
_HEX = re.compile(r"[0-9A-Fa-f]+")
_SL = re.compile(r"\[SL ([0-9A-Fa-f]{2})\]")


class DumpError(ValueError):
    """A dump that cannot be read: damaged CPUID line, too large."""


class LogicalCPU:
    """One logical CPU's section: index is the N of its heading (0, 1 ...
    in a file without headings); leaves maps (leaf, subleaf) to the
    registers (eax, ebx, ecx, edx) as ints; line is the 1-based line of
    the heading (or of the first CPUID line without one)."""

    __slots__ = ("index", "leaves", "line")

    def __init__(self, index, line=0):
        self.index = index
        self.leaves = {}
        self.line = line

    def get(self, leaf, subleaf=0):
        """The registers of (leaf, subleaf), or None when not dumped."""
        return self.leaves.get((leaf, subleaf))

    def __repr__(self):
        return f"LogicalCPU(#{self.index}, {len(self.leaves)} leaves)"


def _heading(line, number=0):
    """N when line heads a logical CPU's section, else None; an N of
    more than 9 digits is damage (and int() of a long one is slow)."""
    for h in _HEADINGS:
        m = h.fullmatch(line)
        if m:
            if len(m.group(1)) > 9:
                raise DumpError(f"line {number}: a logical CPU number of "
                                f"{len(m.group(1))} digits")
            return int(m.group(1))
    return None


def _cpuid_line(line, number):
    """(leaf, subleaf or None, regs) when line is a CPUID line, None when
    it is other text; DumpError when it is a damaged CPUID line.  A line
    is a CPUID line when its first word after "CPUID" is hex (the leaf)
    or its next word holds a '-' (registers): "CPUID CPU Name : ..." and
    "CPUID Revision : 00000F44h" are not."""
    m = _CPUID.fullmatch(line)
    if not m:
        return None
    word, _colon, regs, rest = m.groups()
    if not (_HEX.fullmatch(word) or "-" in regs):
        return None
    where = f"line {number}"
    if not _HEX8.fullmatch(word):
        raise DumpError(f"{where}: the leaf {word!r} is not 8 hex digits: "
                        f"{line.strip()!r}")
    parts = regs.split("-")
    if len(parts) != 4:
        raise DumpError(f"{where}: {len(parts)} registers, not 4 "
                        f"(EAX-EBX-ECX-EDX): {line.strip()!r}")
    for p in parts:
        if not _HEX8.fullmatch(p):
            raise DumpError(f"{where}: the register {p!r} is not 8 hex "
                            f"digits: {line.strip()!r}")
    subleaf = None
    rest = rest.strip()
    if rest.startswith("[SL"):
        t = _SL.match(rest)
        if not t:
            raise DumpError(f"{where}: a damaged subleaf tag (not "
                            f"'[SL xx]'): {line.strip()!r}")
        subleaf = int(t.group(1), 16)
    return int(word, 16), subleaf, tuple(int(p, 16) for p in parts)


def _add(cpu, leaf, subleaf, regs, number):
    """Stores one line's registers; an untagged line is the subleaf after
    the leaf's last one in this section (0 for the first)."""
    if subleaf is None:
        subs = [s for (l, s) in cpu.leaves if l == leaf]
        subleaf = max(subs) + 1 if subs else 0
    if (leaf, subleaf) in cpu.leaves:
        raise DumpError(f"line {number}: leaf {leaf:08X} subleaf {subleaf} "
                        f"given twice for logical CPU #{cpu.index}")
    cpu.leaves[(leaf, subleaf)] = regs


def parse(text):
    """The logical CPUs of a dump's text, in the file's order (see the
    module's text for the layouts).  Raises DumpError."""
    if len(text) > MAX_BYTES:
        raise DumpError(f"the dump is {len(text)} characters, over "
                        f"MAX_BYTES ({MAX_BYTES})")
    cpus = []
    cpu = None              # the section being read, None between them
    headed = False          # the file has had a heading
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        n = _heading(line, number)
        if n is not None:
            headed = True
            cpu = _new(cpus, n, number)
            continue
        if _OTHER_HEADING.fullmatch(line):
            cpu = None
            continue
        got = _cpuid_line(line, number)
        if got is None:
            continue
        leaf, subleaf, regs = got
        if cpu is None and headed:
            raise DumpError(f"line {number}: a CPUID line outside any "
                            f"logical CPU's section: {line!r}")
        if not headed and (cpu is None or
                           (leaf == 0 and (0, 0) in cpu.leaves)):
            cpu = _new(cpus, len(cpus), number)
        _add(cpu, leaf, subleaf, regs, number)
    return cpus


def _new(cpus, index, number):
    """Appends and returns a new logical CPU, within MAX_CPUS."""
    if len(cpus) >= MAX_CPUS:
        raise DumpError(f"line {number}: over MAX_CPUS ({MAX_CPUS}) "
                        f"logical CPUs")
    cpu = LogicalCPU(index, number)
    cpus.append(cpu)
    return cpu


def parse_file(path):
    """parse() of a file's text (read as Latin-1: any byte is a character,
    and a non-ASCII one in a CPUID line is damage); a file over MAX_BYTES
    is refused before it is read whole."""
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise DumpError(f"{path}: over MAX_BYTES ({MAX_BYTES})")
    try:
        return parse(data.decode("latin-1"))
    except DumpError as e:
        raise DumpError(f"{path}: {e}") from None
