"""generations: the PMU generations built into the image, read from the
build's listing (build/pmu-generations.txt).

The Makefile writes the listing from each pmu/<gen>/generation.c, the
generation's descriptor, preprocessed with PMU_GENERATION_LISTING
(pmu/generation.h): one line per generation,

    pmu_generation_listing: .name = "p5", .kind = PMU_P5,
        .kind_name = "p5", ..., .groups = { "p5/" },;

so the host tools know the generations the image has without a list of
their own.

    gens = generations.load()          # build/pmu-generations.txt
    generations.kind_names(gens)       # ["arch-perfmon", "netburst", ...]
"""

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parent.parent.parent
LISTING = ROOT / "build" / "pmu-generations.txt"
PREFIX = "pmu_generation_listing:"

_STR = r'"((?:[^"\\]|\\.)*)"'
_NAME = re.compile(r"\.name\s*=\s*" + _STR)
_KIND = re.compile(r"\.kind\s*=\s*(PMU_[A-Z0-9_]+)")
_KIND_NAME = re.compile(r"\.kind_name\s*=\s*" + _STR)
_FEATURE = re.compile(r"\.feature\s*=\s*(\d+)")
_GROUPS = re.compile(r"\.groups\s*=\s*\{([^}]*)\}")


class ListingError(Exception):
    """The listing is missing or a line of it cannot be read."""


@dataclass
class Generation:
    name: str                   # its folder under pmu/
    kind: str                   # PMU_P5
    kind_name: str = ""         # "# pmu: kind=" ("" for a feature)
    feature: bool = False       # extends another generation's kind
    groups: List[str] = field(default_factory=list)


def parse_line(line):
    """One listing line as a Generation; ListingError when it is not
    one."""
    if not line.startswith(PREFIX):
        raise ListingError(f"not a listing line: {line[:60]!r}")
    name, kind = _NAME.search(line), _KIND.search(line)
    if not name or not kind:
        raise ListingError(f"no .name or .kind in {line[:80]!r}")
    kind_name = _KIND_NAME.search(line)
    feature = _FEATURE.search(line)
    groups = _GROUPS.search(line)
    return Generation(
        name=name.group(1), kind=kind.group(1),
        kind_name=kind_name.group(1) if kind_name else "",
        feature=bool(feature and int(feature.group(1))),
        groups=re.findall(_STR, groups.group(1)) if groups else [])


def parse(text):
    gens = [parse_line(l) for l in text.splitlines() if l.strip()]
    if not gens:
        raise ListingError("the listing names no generation")
    return gens


def load(path=None):
    """The generations of the listing at path (LISTING by default);
    ListingError saying what to do when it is missing."""
    path = LISTING if path is None else path
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise ListingError(f"{path}: {e.strerror or e} (make all writes "
                           "it from pmu/*/generation.c)") from None
    return parse(text)


def kind_names(gens):
    """The "# pmu: kind=" words of the generations that drive a kind."""
    return sorted({g.kind_name for g in gens if not g.feature and
                   g.kind_name})
