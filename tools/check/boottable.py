"""boottable: load and validate the boot table (tools/check/matrix.yaml).

    boots, errors = boottable.load("tools/check/matrix.yaml")

boots is the list of valid Boot entries, in table order; errors is a list
of TableError (boot is the entry's name, or None for the table as a whole).
A table with errors is never partly trusted in silence: an entry with any
error is left out of boots and named in errors; an error of the table as a
whole (YAML syntax, top-level keys, a golden file that cannot be read)
leaves boots empty.  docs/check.md describes the format.

The table says how each boot is run, its verdict and its PMU kind; what
its log must show comes from the golden files its 'golden' key names
(tests/GROUP/golden.yaml beside the tests they pin, and
tools/check/suite/golden.yaml), merged here into the same Boot.  A table
without 'golden' (the host tests' small tables) holds its expectations in
its entries, under the same keys.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Dict, List, Optional, Tuple

import yaml

VERDICTS = ("pass", "fail", "shutdown", "bail", "untested")
VOLUME_LOGS = ("same", "prefix", "absent")
# How a boot is run (docs/check.md, "Boot kinds"): uefi, OVMF under
# qemu-system-x86_64 from build/pmu-harness.img (tools/boot/qemu-boot.sh);
# bios-*, SeaBIOS under qemu-system-i386 (qemu-boot.sh --bios MEDIUM);
# bochs-*, Bochs (tools/boot/bochs-boot.sh --medium MEDIUM).  kernel is the
# Multiboot ELF (QEMU -kernel), disk and cd the image, floppy the floppy
# image.
BOOT_KINDS = ("uefi", "bios-kernel", "bios-disk", "bios-cd", "bios-floppy",
              "bochs-cd", "bochs-disk", "bochs-floppy")
# Keys that only a UEFI boot takes (a BIOS boot has no boot volume log
# file, and its machine always has a VGA adapter), and those Bochs refuses.
UEFI_ONLY_KEYS = ("cfg_file", "volume_free_kib", "volume_logdir_file",
                  "volume_readonly", "volume_log", "vga", "nvram",
                  "write_iops")
# What OVMF's variable store holds when a UEFI boot starts: "warm", what an
# earlier boot of the image left (the build's build/ovmf-vars.fd, as on a
# machine booted before; OVMF starts 1.5 s faster), or "fresh", Debian's
# empty OVMF_VARS_4M.fd (the first boot of a new machine).
NVRAMS = ("warm", "fresh")
BOCHS_REFUSES = ("com4",)
BOCHS_CPU_RE = re.compile(r"^[a-z0-9_]+$")
BOCHS_MEMORY_MIB = (4, 2048)
MEMORY_MIB = (16, 4096)         # the range of 'memory' (QEMU -m)
CFG_DIR = "tests/fixtures"      # 'cfg_file' must be below it
ROOT = Path(__file__).resolve().parents[2]   # what 'cfg_file' is
                                                # relative to
RESULT_STATUSES = ("ok", "not ok", "skip")
BACKENDS = ("hw", "model", "emulated", "none")
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
# QEMU's -smp: [cpus=]N[,maxcpus=N][,sockets=N][,dies=N][,clusters=N]
# [,cores=N][,threads=N].  Only these words and digits: the value is data
# for one argv element, and anything else is a typo QEMU would reject.
SMP_RE = re.compile(r"(?:cpus=)?([1-9][0-9]*)"
                    r"((?:,(?:maxcpus|sockets|dies|clusters|cores|threads)"
                    r"=[1-9][0-9]*)*)")
SMP_TOPOLOGY = ("sockets", "dies", "clusters", "cores", "threads")
FIELD_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class TableError:
    boot: Optional[str]     # entry name (or "boots[i]"); None: whole table
    message: str

    def __str__(self):
        return f"{self.boot}: {self.message}" if self.boot else self.message


@dataclass
class ResultRule:
    name: str               # a glob over "group/name" (fnmatch, * and ?)
    status: str             # "ok", "not ok" or "skip"


@dataclass
class Boot:
    name: str
    cpu: str                            # QEMU -cpu, or the Bochs CPU model
    verdict: str                        # pass, fail, shutdown, bail, untested
    # What the header lines must say (from tests/detect/golden.yaml, and
    # the table's 'pmu' for the kind)
    expect_cpu: Dict[str, object] = field(default_factory=dict)
                                        # vendor, family, model, stepping[, name]
    expect_pmu: Dict[str, object] = field(default_factory=dict)
                                        # kind and other "# pmu:" fields
    backend: Optional[str] = None       # hw, model, emulated or none
    backend_reason: Optional[re.Pattern] = None
    options: str = ""                   # harness options
    smp: Optional[str] = None           # QEMU -smp (qemu-boot.sh --smp)
    com4: bool = False
    vga: bool = False
    no_hpet: bool = False               # QEMU BIOS boots: -machine hpet=off
    no_acpi: bool = False               # QEMU BIOS boots: -machine acpi=off
    nvram: str = "warm"
    timeout: int = 180
    memory: Optional[int] = None        # QEMU -m in MiB; None: the default
    cfg_file: Optional[str] = None      # repository-relative cfg fixture
    volume_free_kib: Optional[int] = None
    volume_logdir_file: bool = False
    volume_readonly: bool = False
    write_iops: Optional[int] = None    # qemu-boot.sh --write-iops: a
                                        # slow medium; None: unthrottled
    volume_log: str = "same"            # same, prefix or absent; "none"
                                        # for a BIOS boot (no volume)
    boot: str = "uefi"                  # one of BOOT_KINDS
    require_results: List[ResultRule] = field(default_factory=list)
    forbid_results: List[ResultRule] = field(default_factory=list)
    # compiled with re.M: searched in the whole TAP text, ^ $ at line ends
    require_lines: List[re.Pattern] = field(default_factory=list)
    forbid_lines: List[re.Pattern] = field(default_factory=list)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The safe loader (libyaml's where it is there: every pytest worker
    and the lab load the table and its golden files, 0.3 s of CPU each
    in pure Python) that refuses a key given twice in one mapping (PyYAML
    would keep the last one without a word)."""


def _construct_mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            dup = key in seen
        except TypeError:
            dup = False
        if dup:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} given twice", key_node.start_mark)
        try:
            seen.add(key)
        except TypeError:
            pass
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                        _construct_mapping)


def _tname(v):
    return "null" if v is None else type(v).__name__


class _Entry:
    """Validation of one table entry; collects its errors."""

    def __init__(self):
        self.errors = []

    def err(self, msg):
        self.errors.append(msg)

    def take(self, m, key, kinds, required, ctx=""):
        """m[key] when present and of one of the kinds (bool is never an
        int here), else an error."""
        label = f"{ctx}{key}"
        if key not in m:
            if required:
                self.err(f"missing field '{label}'")
            return None
        v = m[key]
        if not any(type(v) is k for k in kinds):
            want = " or ".join(k.__name__ for k in kinds)
            hint = " (quote yes/no/on/off/true/false)" \
                if isinstance(v, bool) and str in kinds else ""
            self.err(f"'{label}' must be {want}, not {_tname(v)} {v!r}{hint}")
            return None
        return v

    def unknown(self, m, allowed, ctx=""):
        for k in m:
            if k not in allowed:
                self.err(f"unknown key '{ctx}{k}' (known: "
                         f"{', '.join(allowed)})")

    def regex(self, s, label, flags=0):
        try:
            return re.compile(s, flags)
        except re.error as e:
            self.err(f"bad regex in '{label}': /{s}/: {e}")
            return None

    def regex_list(self, m, key):
        v = self.take(m, key, (list,), False)
        out = []
        for i, s in enumerate(v or []):
            if type(s) is not str or not s:
                self.err(f"'{key}[{i}]' must be a non-empty string, not "
                         f"{_tname(s)} {s!r}")
                continue
            r = self.regex(s, f"{key}[{i}]", re.M)
            if r is not None:
                out.append(r)
        return out

    def result_list(self, m, key):
        v = self.take(m, key, (list,), False)
        out = []
        for i, r in enumerate(v or []):
            ctx = f"{key}[{i}]."
            if type(r) is not dict:
                self.err(f"'{key}[{i}]' must be a mapping with name and "
                         f"status, not {_tname(r)} {r!r}")
                continue
            self.unknown(r, ("name", "status"), ctx)
            name = self.take(r, "name", (str,), True, ctx)
            status = self.take(r, "status", (str,), True, ctx)
            if name is not None and not name:
                self.err(f"'{ctx}name' is empty")
                name = None
            if status is not None and status not in RESULT_STATUSES:
                self.err(f"'{ctx}status' is {status!r}, expected one of "
                         + ", ".join(RESULT_STATUSES))
                status = None
            if name and status:
                out.append(ResultRule(name, status))
        return out


TOP_KEYS = ("golden", "boots")
# How a boot is run: the keys of a table entry.
HOW_KEYS = ("name", "boot", "cpu", "smp", "options", "verdict", "com4", "vga",
            "no_hpet", "no_acpi",
            "nvram", "timeout", "memory", "cfg_file", "volume_free_kib",
            "volume_logdir_file", "volume_readonly", "volume_log",
            "write_iops")
# What its log must show: the keys of a golden file's entry (or of an
# entry of a table without golden files).  The header lines detection
# writes, then the rules over results and lines.
HEADER_KEYS = ("expect_cpu", "expect_pmu", "expect_backend")
RULE_KEYS = ("require_results", "forbid_results", "require_lines",
             "forbid_lines")
EXPECT_KEYS = HEADER_KEYS + RULE_KEYS
BOOT_KEYS = HOW_KEYS + EXPECT_KEYS      # an entry of a table without golden
TABLE_KEYS = HOW_KEYS + ("pmu",)        # an entry of a table with golden
# The golden file that pins detection's header lines: the only one that
# takes HEADER_KEYS, and every boot must have its expect_cpu and
# expect_backend there.
DETECT_GOLDEN = "tests/detect/golden.yaml"
# A test group's golden file: tests/GROUP/golden.yaml.  Its results are
# GROUP's (GROUP/... or GROUP-.../..., as selftest-hang/* for selftest),
# its lines those of their result blocks; forbid_lines, searched in every
# line of the log, are the run's (GOLDEN_RUN_KEYS), in any other golden
# file, such as tools/check/suite/golden.yaml.
GROUP_GOLDEN_RE = re.compile(r"^tests/([a-z0-9_-]+)/golden\.yaml$")
GOLDEN_GROUP_KEYS = ("require_results", "forbid_results", "require_lines")
GOLDEN_RUN_KEYS = RULE_KEYS
CPU_KEYS = ("vendor", "family", "model", "stepping", "name")
BACKEND_KEYS = ("name", "reason")


def smp_error(spec: str) -> Optional[str]:
    """Why an smp value is not one QEMU takes (None: it is).  With sockets,
    cores and threads all given, their product (times dies and clusters)
    must be the processor count (maxcpus, else the first number), as QEMU
    requires."""
    m = SMP_RE.fullmatch(spec)
    if not m:
        return (f"'smp' {spec!r} is not [cpus=]N[,maxcpus|sockets|dies|"
                "clusters|cores|threads=N]...")
    fields = dict(kv.split("=") for kv in m.group(2).split(",")[1:])
    if len(fields) != m.group(2).count(","):
        return f"'smp' {spec!r} names a field twice"
    if all(k in fields for k in ("sockets", "cores", "threads")):
        total = int(fields.get("maxcpus", m.group(1)))
        product = 1
        for k in SMP_TOPOLOGY:
            product *= int(fields.get(k, 1))
        if product != total:
            return (f"'smp' {spec!r}: sockets x dies x clusters x cores x "
                    f"threads = {product}, not {total}")
    return None


def bochs_count(spec: str) -> Optional[str]:
    """The Bochs 'cpu: count=P:C:T' of an smp value (QEMU's syntax), or
    None when Bochs cannot take it: Bochs counts packages, cores and
    threads, each 1..9 here (tools/boot/bochs-boot.sh --smp), so the
    value must name sockets, cores and threads, and nothing else but the
    processor count (their product: smp_error())."""
    m = SMP_RE.fullmatch(spec)
    if not m:
        return None
    fields = dict(kv.split("=") for kv in m.group(2).split(",")[1:])
    if set(fields) != {"sockets", "cores", "threads"} or \
            not all(1 <= int(v) <= 9 for v in fields.values()):
        return None
    return ":".join(fields[k] for k in ("sockets", "cores", "threads"))


def cfg_file_error(path: str, root: Path) -> Optional[str]:
    """Why a cfg_file value is not a file below CFG_DIR of the repository
    at root (None: it is).  The path is relative, in '/' form, without
    '.' or '..' parts; it must name a regular file, also once symlinks
    are followed."""
    p = PurePosixPath(path)
    if not path or path != str(p) or p.is_absolute() or \
            any(part in (".", "..") for part in p.parts) or "\\" in path:
        return (f"'cfg_file' {path!r} must be a plain relative path "
                f"below {CFG_DIR}/ (no '.', '..', '\\' or leading '/')")
    if p.parts[:2] != PurePosixPath(CFG_DIR).parts or len(p.parts) < 3:
        return f"'cfg_file' {path!r} is not below {CFG_DIR}/"
    full = Path(root, *p.parts)
    try:
        real = full.resolve(strict=True)
    except (OSError, RuntimeError):
        return f"'cfg_file' {path!r}: no such file"
    base = Path(root, CFG_DIR).resolve()
    if base not in real.parents:
        return f"'cfg_file' {path!r} leads out of {CFG_DIR}/ (a symlink)"
    if not real.is_file():
        return f"'cfg_file' {path!r} is not a regular file"
    return None


def _volume_keys(e, raw, root):
    """The keys that shape the boot volume and the QEMU machine: a dict
    of Boot fields."""
    out = {}
    memory = e.take(raw, "memory", (int,), False)
    lo, hi = MEMORY_MIB
    if memory is not None and not lo <= memory <= hi:
        e.err(f"'memory' must be {lo}..{hi} (MiB), not {memory}")
    elif memory is not None:
        out["memory"] = memory
    cfg = e.take(raw, "cfg_file", (str,), False)
    if cfg is not None:
        why = cfg_file_error(cfg, root)
        if why:
            e.err(why)
        else:
            out["cfg_file"] = cfg
        if raw.get("options"):
            e.err("'cfg_file' and a non-empty 'options' exclude each other "
                  "(the cfg file is the options)")
    free = e.take(raw, "volume_free_kib", (int,), False)
    if free is not None and free < 0:
        e.err(f"'volume_free_kib' must be >= 0, not {free}")
    elif free is not None:
        out["volume_free_kib"] = free
    for key in ("volume_logdir_file", "volume_readonly"):
        v = e.take(raw, key, (bool,), False)
        if v is not None:
            out[key] = v
    iops = e.take(raw, "write_iops", (int,), False)
    if iops is not None and iops < 1:
        e.err(f"'write_iops' must be >= 1 (writes a second), not {iops}")
    elif iops is not None:
        out["write_iops"] = iops
    vlog = e.take(raw, "volume_log", (str,), False)
    if vlog is not None and vlog not in VOLUME_LOGS:
        e.err(f"'volume_log' is {vlog!r}, expected one of "
              + ", ".join(VOLUME_LOGS))
    elif vlog is not None:
        out["volume_log"] = vlog
    return out


def _how_to_boot(e, raw, root):
    """The keys of a table entry that say how the boot is run, as Boot
    fields (every Boot field but the expectations)."""
    name = e.take(raw, "name", (str,), True)
    if name is not None and not NAME_RE.match(name):
        e.err(f"'name' {name!r} must match {NAME_RE.pattern} (it names "
              "files)")
    kind = e.take(raw, "boot", (str,), False)
    if kind is not None and kind not in BOOT_KINDS:
        e.err(f"'boot' is {kind!r}, expected one of " + ", ".join(BOOT_KINDS))
        kind = None
    kind = kind or "uefi"
    cpu = e.take(raw, "cpu", (str,), True)
    if cpu is not None and not cpu.strip():
        e.err("'cpu' is empty")
    elif cpu is not None and kind.startswith("bochs-") and \
            not BOCHS_CPU_RE.match(cpu):
        e.err(f"'cpu' {cpu!r} is not a Bochs CPU model name "
              f"({BOCHS_CPU_RE.pattern})")
    if kind != "uefi":
        for k in UEFI_ONLY_KEYS:
            if k in raw:
                e.err(f"'{k}' is for UEFI boots only: a BIOS boot ('boot: "
                      f"{kind}') has no boot volume log and always a VGA "
                      "adapter")
    if kind.startswith("bochs-"):
        for k in BOCHS_REFUSES:
            if k in raw:
                e.err(f"'{k}' is not for Bochs boots ('boot: {kind}')")
        mem = raw.get("memory")
        lo, hi = BOCHS_MEMORY_MIB
        if type(mem) is int and not lo <= mem <= hi:
            e.err(f"'memory' of a Bochs boot must be {lo}..{hi} (MiB), "
                  f"not {mem}")
    smp = e.take(raw, "smp", (str,), False)
    if smp is not None and smp_error(smp):
        e.err(smp_error(smp))
        smp = None
    if smp is not None and kind.startswith("bochs-") and \
            bochs_count(smp) is None:
        e.err(f"'smp' {smp!r} of a Bochs boot must be N,sockets=P,cores=C,"
              "threads=T with P, C and T from 1 to 9 (Bochs's cpu "
              "count=P:C:T)")
        smp = None
    options = e.take(raw, "options", (str,), False)
    verdict = e.take(raw, "verdict", (str,), True)
    if verdict is not None and verdict not in VERDICTS:
        e.err(f"'verdict' is {verdict!r}, expected one of "
              + ", ".join(VERDICTS))
    com4 = e.take(raw, "com4", (bool,), False)
    vga = e.take(raw, "vga", (bool,), False)
    no_hpet = e.take(raw, "no_hpet", (bool,), False)
    no_acpi = e.take(raw, "no_acpi", (bool,), False)
    for k, v in (("no_hpet", no_hpet), ("no_acpi", no_acpi)):
        if v is not None and not kind.startswith("bios-"):
            e.err(f"'{k}' is for QEMU BIOS boots only ('boot: bios-*'): "
                  "q35's HPET is built in, OVMF needs ACPI, Bochs's "
                  "machine is its own")
    nvram = e.take(raw, "nvram", (str,), False)
    if nvram is not None and nvram not in NVRAMS:
        e.err(f"'nvram' is {nvram!r}, expected one of " + ", ".join(NVRAMS))
    timeout = e.take(raw, "timeout", (int,), False)
    if timeout is not None and timeout <= 0:
        e.err(f"'timeout' must be positive, not {timeout}")
    volume = _volume_keys(e, raw, root)
    fields = dict(name=name, cpu=cpu, verdict=verdict,
                  options=options or "", smp=smp, com4=bool(com4),
                  vga=bool(vga), no_hpet=bool(no_hpet),
                  no_acpi=bool(no_acpi), nvram=nvram or "warm",
                  timeout=timeout if timeout is not None else 180,
                  boot=kind, **volume)
    if kind != "uefi":
        fields["volume_log"] = "none"   # a BIOS boot has no boot volume
    return fields


def _header_expectations(e, raw, required):
    """expect_cpu, expect_pmu and expect_backend of raw (a table entry or
    a golden entry) as Boot fields; required: each must be there (a table
    without golden files).  expect_pmu's kind is required with it."""
    out = {}
    ecpu = e.take(raw, "expect_cpu", (dict,), required)
    if ecpu is not None:
        out["expect_cpu"] = {}
        e.unknown(ecpu, CPU_KEYS, "expect_cpu.")
        for k, kinds, req in (("vendor", (str,), True),
                              ("family", (int,), True),
                              ("model", (int,), True),
                              ("stepping", (int,), True),
                              ("name", (str,), False)):
            v = e.take(ecpu, k, kinds, req, "expect_cpu.")
            if v is not None:
                out["expect_cpu"][k] = v

    epmu = e.take(raw, "expect_pmu", (dict,), required)
    if epmu is not None:
        out["expect_pmu"] = {}
        if required and "kind" not in epmu:
            e.err("missing field 'expect_pmu.kind'")
        if not required and "kind" in epmu:
            e.err("'expect_pmu.kind' is the table's 'pmu' key (the boot "
                  "says what PMU it has)")
        for k in epmu:
            if type(k) is not str or not FIELD_RE.match(k):
                e.err(f"'expect_pmu' key {k!r} is not a field name")
                continue
            v = e.take(epmu, k, (str, int), False, "expect_pmu.")
            if v is not None:
                out["expect_pmu"][k] = v

    eback = e.take(raw, "expect_backend", (dict,), required)
    if eback is not None:
        e.unknown(eback, BACKEND_KEYS, "expect_backend.")
        backend = e.take(eback, "name", (str,), True, "expect_backend.")
        if backend is not None and backend not in BACKENDS:
            e.err(f"'expect_backend.name' is {backend!r}, expected one of "
                  + ", ".join(BACKENDS))
        out["backend"] = backend
        r = e.take(eback, "reason", (str,), False, "expect_backend.")
        if r is not None:
            out["backend_reason"] = e.regex(r, "expect_backend.reason")
    return out


def _rule_expectations(e, raw):
    """The result and line rules of raw, as Boot fields."""
    return {"require_results": e.result_list(raw, "require_results"),
            "forbid_results": e.result_list(raw, "forbid_results"),
            "require_lines": e.regex_list(raw, "require_lines"),
            "forbid_lines": e.regex_list(raw, "forbid_lines")}


def _table_pmu(e, raw):
    """A table entry's 'pmu' key (the golden files' tables): the "# pmu:"
    line's kind, as expect_pmu's first field."""
    kind = e.take(raw, "pmu", (str,), True)
    if "pmu" not in raw:
        e.errors[-1] += (" (the PMU kind, the '# pmu:' line's kind=; the "
                         f"rest of that line is pinned in {DETECT_GOLDEN})")
    if kind is not None and not kind:
        e.err("'pmu' is empty")
    return {"expect_pmu": {"kind": kind}} if kind else {}


def validate_entry(raw, root: Path = ROOT, golden: bool = False
                   ) -> Tuple[Optional[Boot], List[str]]:
    """Validates one entry (a parsed YAML value); cfg_file is looked up
    in the repository at root.  golden: the table has golden files, which
    hold the entry's expectations (merge_golden() adds them); the entry
    then names its PMU kind ('pmu') and holds no expectation.  Returns
    (Boot or None, error messages)."""
    e = _Entry()
    if type(raw) is not dict:
        return None, [f"an entry must be a mapping, not {_tname(raw)} "
                      f"{raw!r}"]
    if golden:
        for k in raw:
            if k in EXPECT_KEYS:
                e.err(f"'{k}' is an expectation: it belongs in a golden "
                      "file (tests/GROUP/golden.yaml beside the tests it "
                      f"pins; {DETECT_GOLDEN} for the header lines), not "
                      "in the table")
        e.unknown({k: v for k, v in raw.items() if k not in EXPECT_KEYS},
                  TABLE_KEYS)
    else:
        e.unknown(raw, BOOT_KEYS)
    how = _how_to_boot(e, raw, root)
    if golden:
        expect = _table_pmu(e, raw)
    else:
        expect = _header_expectations(e, raw, True)
        expect.update(_rule_expectations(e, raw))
    if e.errors:
        return None, e.errors
    return Boot(**how, **expect), []


def _golden_globs(doc):
    """The table's 'golden' key: its globs (relative to the repository),
    or an error message."""
    globs = doc.get("golden")
    if type(globs) is not list or not globs or \
            not all(type(g) is str and g for g in globs):
        return None, ("'golden' must be a non-empty list of globs of "
                      f"golden files, not {_tname(globs)} {globs!r}")
    for g in globs:
        p = PurePosixPath(g)
        if p.is_absolute() or ".." in p.parts:
            return None, f"'golden' glob {g!r} leads out of the repository"
    return globs, None


def read_golden(globs, root: Path = ROOT):
    """The golden files the globs name below root: ({label: text}, errors),
    label the file's path relative to root."""
    files, errors = {}, []
    for g in globs:
        paths = sorted(root.glob(g))
        if not paths:
            errors.append(TableError(None, f"'golden' glob {g!r} matches no "
                                     f"file below {root}"))
        for p in paths:
            label = p.relative_to(root).as_posix()
            try:
                files[label] = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                errors.append(TableError(None, f"cannot read golden file "
                                         f"{label}: {e}"))
    return files, errors


def golden_keys(label):
    """The keys a golden file's entries may hold, and the test group
    whose results it holds (None: results of any group)."""
    m = GROUP_GOLDEN_RE.match(label)
    if not m:
        return GOLDEN_RUN_KEYS, None
    keys = GOLDEN_GROUP_KEYS
    if label == DETECT_GOLDEN:
        keys = HEADER_KEYS + keys
    return keys, m.group(1)


def _in_group(glob, group):
    """Whether a result glob names tests of group: GROUP/... or, for a
    group's variants (selftest-hang/* in tests/selftest/), GROUP-.../..."""
    head = glob.split("/", 1)[0]
    return "/" in glob and (head == group or head.startswith(group + "-"))


def _parse_golden(label, text):
    """A golden file's boots: ({boot: entry}, None) or (None, error)."""
    try:
        doc = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as e:
        return None, f"{label}: not valid YAML: " + " ".join(str(e).split())
    if type(doc) is not dict or set(doc) != {"boots"} or \
            type(doc["boots"]) is not dict:
        return None, (f"{label}: a golden file is a mapping with the one "
                      "key 'boots', a mapping of boot names to their "
                      "expectations")
    return doc["boots"], None


def _golden_entry(label, raw):
    """Validates one boot's entry of a golden file: (Boot fields, errors)."""
    e = _Entry()
    if type(raw) is not dict or not raw:
        return {}, [f"an entry must be a non-empty mapping of "
                    f"expectations, not {_tname(raw)} {raw!r}"]
    keys, group = golden_keys(label)
    for k in raw:
        if k not in keys:
            where = (f"{DETECT_GOLDEN}'s" if k in HEADER_KEYS else
                     "tools/check/suite/golden.yaml's (it searches every "
                     "line)" if k == "forbid_lines" else "no golden file's")
            e.err(f"key '{k}' is {where}, not this file's (known here: "
                  f"{', '.join(keys)})")
    fields = _header_expectations(e, raw, False)
    fields.update(_rule_expectations(e, raw))
    for key in ("require_results", "forbid_results"):
        for rule in fields[key]:
            if group is not None and not _in_group(rule.name, group):
                e.err(f"'{key}' row {rule.name!r} is not a {group}/* "
                      f"result: it belongs in the golden file of its "
                      "group, or tools/check/suite/golden.yaml")
    return fields, e.errors


def _merge(boot, fields):
    """Adds a golden entry's fields to the boot."""
    for key in RULE_KEYS:
        getattr(boot, key).extend(fields.get(key, []))
    boot.expect_cpu.update(fields.get("expect_cpu", {}))
    boot.expect_pmu.update(fields.get("expect_pmu", {}))
    for key in ("backend", "backend_reason"):
        if key in fields:
            setattr(boot, key, fields[key])


def _header_gaps(boot):
    """What a boot lacks of the header expectations every boot has."""
    missing = [k for k, v in (("expect_cpu", boot.expect_cpu),
                              ("expect_backend", boot.backend)) if not v]
    return [f"no {k} for this boot in {DETECT_GOLDEN} (every boot pins "
            "its '# cpu:' and '# backend:' lines there)" for k in missing]


def merge_golden(boots, table_names, golden):
    """Merges the golden files ({label: text}) into boots (the valid
    entries of a table with golden files; table_names every name the
    table has).  Returns (the boots still valid, errors)."""
    errors, bad = [], set()
    by_name = {b.name: b for b in boots}
    for label, text in sorted(golden.items()):
        entries, why = _parse_golden(label, text)
        if why:
            return [], [TableError(None, why)]
        for name, raw in entries.items():
            if name not in table_names:
                errors.append(TableError(str(name), f"{label}: no boot "
                                         f"{name!r} in the table"))
                continue
            fields, errs = _golden_entry(label, raw)
            errors.extend(TableError(name, f"{label}: {m}") for m in errs)
            if errs:
                bad.add(name)
            elif name in by_name:
                _merge(by_name[name], fields)
    kept = []
    for b in boots:
        gaps = _header_gaps(b)
        errors.extend(TableError(b.name, m) for m in gaps)
        if not gaps and b.name not in bad:
            kept.append(b)
    return kept, errors


def _entries(raw, root, golden):
    """Validates the table's entries: (valid boots, every name, errors)."""
    boots, names, errors = [], set(), []
    for i, entry in enumerate(raw):
        where = f"boots[{i}]"
        if type(entry) is dict and type(entry.get("name")) is str and \
                entry["name"]:
            where = entry["name"]
            names.add(where)
        boot, errs = validate_entry(entry, root, golden)
        errors.extend(TableError(where, m) for m in errs)
        if boot is None:
            continue
        if boot.name in {b.name for b in boots}:
            errors.append(TableError(where, f"boot name {boot.name!r} used "
                                     "twice"))
            continue
        boots.append(boot)
    return boots, names, errors


def loads(text: str, root: Path = ROOT, golden: Optional[Dict[str, str]] =
          None) -> Tuple[List[Boot], List[TableError]]:
    """Validates a table given as YAML text (cfg_file paths and golden
    globs are relative to root, the repository).  golden, {label: text}:
    the golden files to merge instead of those the table's 'golden' key
    names (a table with neither holds its expectations in its entries)."""
    try:
        doc = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as e:
        return [], [TableError(None, "not valid YAML: "
                               + " ".join(str(e).split()))]
    if type(doc) is not dict:
        return [], [TableError(None, "the table must be a mapping with the "
                               f"key 'boots', not {_tname(doc)}")]
    errors = [TableError(None, f"unknown top-level key {k!r} (known: "
                         f"{', '.join(TOP_KEYS)})")
              for k in doc if k not in TOP_KEYS]
    raw = doc.get("boots")
    if type(raw) is not list or not raw:
        errors.append(TableError(None, "'boots' must be a non-empty list, "
                                 f"not {_tname(raw)}"))
        return [], errors
    if "golden" in doc and golden is None:
        globs, why = _golden_globs(doc)
        if why:
            errors.append(TableError(None, why))
        else:
            golden, errs = read_golden(globs, root)
            errors.extend(errs)
    if errors:
        return [], errors
    boots, names, errors = _entries(raw, root, golden is not None)
    if golden is None:
        return boots, errors
    boots, more = merge_golden(boots, names, golden)
    if any(e.boot is None for e in more):
        return [], more
    return boots, errors + more


def load(path, root: Path = ROOT) -> Tuple[List[Boot], List[TableError]]:
    """Validates the table in the file at path (cfg_file paths and golden
    globs relative to root, the repository), its golden files merged."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return [], [TableError(None, f"cannot read {path}: {e}")]
    return loads(text, root)
