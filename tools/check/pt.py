#!/usr/bin/env python3
"""pt_check: make check's `pt` stage - Intel PT on the host (docs/pt.md).

  1. build  the host tools (make targets of the Makefile's PT block);
  2. random streams: for each seed, `ipt-gen SEED COUNT` writes a random
     packet sequence with libipt's encoder; `ptdecode --packets` and
     `ipt-dump` (libipt's packet decoder) must print the same lines, but
     for the one documented difference: libipt's decoder rejects every
     10-byte CYC (an error, then it syncs to the next PSB) where ptdecode
     prints the CYC with its value (checked narrowly: the bytes at the
     error's offset are a 10-byte CYC, ptdecode prints exactly that CYC and
     no error, and libipt skips no PSB).  ipt-dump must also print what
     ipt-gen says it encoded (the referee's own check, same exception);
  3. model streams: `pt-modelgen` (and -i386) runs the model's generator
     over every benchmark's trace under several configurations; each
     stream must decode the same with ptdecode and ipt-dump, exactly, and
     `ptdecode --timing` must give the branches of the trace: one TNT bit
     per conditional branch and compressed RET with its outcome, one TIP
     per indirect branch and uncompressed RET with its target, in order;
     each branch's time (the step's clock minus the enable's clock) equal
     to an exact time and inside a bounded one; under CycThresh 0 and 1
     exact where the SDM guarantees it (a CYC precedes the first
     CYC-eligible packet of each cycle, Table 36-33, and times the first
     branch of a TNT, §36.3.6.2): every TIP and every TNT's first branch
     whose cycle no earlier branch shares; and under CycThresh 0 some TNT
     must hold more than one branch, as hardware's do;
  4. damaged streams: on the fuzz target's corpus (hand-made damage of
     each kind, streams cut short or with bits flipped) both decoders
     print the same lines, their errors at the same offsets (the texts are
     their own), with the 10-byte CYC difference as above;
  5. fuzz smoke: tools/pt/fuzz.sh --smoke runs the libFuzzer target over
     every input of the committed corpus, then on its mutations up to
     5000 runs in all (into a scratch corpus);
  6. resync property: in each valid stream of the corpus (ipt-gen-*,
     model-*), the first k bytes of every multi-byte packet kind put
     before a PSB; from that PSB on ptdecode must print what it prints
     for the undamaged stream (offsets k later), before it the same;
  7. hand-built streams (HAND_STREAMS): what libipt 2.0.5 cannot referee
     (TRIG, MODE.Exec's IF bit and its reserved CS.L = CS.D = 1, a PSB a
     damaged packet ran into, the SKD007 and SKZ84 errata with and without
     `--cpu`, a cycle sum at and past 2^64-1): ptdecode prints exactly
     the lines written here by hand.

One "ok - pt: ..." / "not ok - pt: ..." line per check, details of a
failure as "#" lines under it; exit status 1 when any check failed.  The
streams and the tools' outputs are kept in OUT (default build/check/pt).

    python3 -m tools.check.pt [--out DIR] [--seeds N] [--count N]
        [--fuzz-runs N]
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HB = ROOT / "build" / "host"
PSB = bytes([0x02, 0x82] * 8)
# What libipt's pt_errstr says for -pte_bad_packet, its verdict on a
# 10-byte CYC (pt_pkt_read_cyc: more than 64 payload bits).
LIBIPT_BAD_PACKET = "unknown packet"
DETAIL_LINES = 8


# ---- pure parts (tools/check/tests/test_pt.py)

def cyc_bytes(value):
    """The shortest CYC of value (Intel SDM Vol. 3C, order no.
    326019-060US, §36.4.2.14, Table 36-33: byte 0 count[4:0] in bits 7:3,
    Exp bit 2, bits 1:0 11b; each further byte count bits in 7:1, Exp in
    bit 0)."""
    out = [(value & 31) << 3 | 3]
    value >>= 5
    while value:
        out[-1] |= 4 if len(out) == 1 else 1
        out.append((value & 127) << 1)
        value >>= 7
    return bytes(out)


PSBEND = bytes([0x02, 0x23])


def tip16(ip):
    """TIP with IPBytes 001b, a 16-bit update (Table 36-18)."""
    return bytes([0x2d, ip & 0xff, ip >> 8])


# (name, bytes, ptdecode arguments, the lines it must print).  Bytes of
# the errata streams: libipt's test/src/skd007.ptt and skz84.ptt (a CYC
# first byte with Exp, F7h, then OVF 02 F3 over its other bytes; a TMA
# with reserved byte 4 set, then a bogus byte); the CPUs: 6/94 (06_5EH,
# Skylake, SKD007), 6/85 (06_55H, Cascade Lake, SKZ84).  TRIG: libipt's
# pt_opcodes.h (D9h, byte 1 IP/ICNTV/MULT in bits 7:5, byte 2 TRBV, ICNT
# in 2 more bytes with ICNTV).  MODE.Exec: bit 2 IF; CS.L = CS.D = 1
# reserved (SDM Table 36-26).  Resync: CYC 07h takes the PSB's 02h, 82h
# is a TNT-8, then a broken PSB at 3; the PSB at 1 is found again.
# Saturation: 2^63 + (2^63 - 1) = 2^64 - 1 is an upper bound like any
# other, one cycle more passes 64 bits.
SKD007_BYTES = PSB + PSBEND + bytes([0xf7, 0x02, 0xf3, 0x00])
SKD007_PLAIN = ["0 psb -", "16 psbend -", "18 cyc 0x3e", "20 cyc 0x1e",
                "21 pad -"]
SKZ84_BYTES = PSB + PSBEND + bytes([0x02, 0x73, 1, 1, 1, 1, 0, 0]) + \
    bytes([0x3d, 0x00, 0x10])
SKZ84_PLAIN = ["0 psb -", "16 psbend -", "18 tma 0x101:0x1", "25 pad -",
               "26 fup 1:0x1000"]
SATURATE_BYTES = cyc_bytes(1 << 63) + tip16(1) + tip16(2) + \
    cyc_bytes((1 << 63) - 1) + tip16(3) + tip16(4) + cyc_bytes(1) + tip16(5)
HAND_STREAMS = [
    ("skd007", SKD007_BYTES, ["--packets"], SKD007_PLAIN),
    ("skd007-cpu-6-94", SKD007_BYTES, ["--packets", "--cpu", "6/94"],
     ["0 psb -", "16 psbend -", "18 ovf -", "21 pad -"]),
    ("skd007-cpu-6-85", SKD007_BYTES, ["--packets", "--cpu", "6/85"],
     SKD007_PLAIN),
    ("skd007-timing", SKD007_BYTES + cyc_bytes(10) + tip16(1),
     ["--timing"],
     ["23 tip 0x1 102",
      "# branches=1 exact=1 bounded=0 errors=0 cycles=102"]),
    ("skd007-timing-cpu", SKD007_BYTES + cyc_bytes(10) + tip16(1),
     ["--timing", "--cpu", "0x6/0x5e"],
     ["23 tip 0x1 10",
      "# branches=1 exact=1 bounded=0 errors=0 cycles=10"]),
    ("skz84", SKZ84_BYTES, ["--packets"], SKZ84_PLAIN),
    ("skz84-cpu-6-85", SKZ84_BYTES, ["--packets", "--cpu", "6/85"],
     ["0 psb -", "16 psbend -", "18 invalid skz84", "26 fup 1:0x1000"]),
    ("skz84-cpu-6-94", SKZ84_BYTES, ["--packets", "--cpu", "6/94"],
     SKZ84_PLAIN),
    ("trig-mode", PSB + bytes([0xd9, 0xa0, 0x03, 0xd9, 0x40, 0x07, 0x34,
                               0x12, 0x99, 0x05, 0x99, 0x03]) + PSB,
     ["--packets"],
     ["0 psb -", "16 trig 0x3,ip,mult", "19 trig 0x7,icnt=0x1234",
      "24 mode.exec 0x5",
      "26 error reserved MODE.Exec (CS.L and CS.D both 1)", "28 psb -"]),
    ("resync", bytes([0x07]) + PSB + PSBEND, ["--packets"],
     ["0 cyc 0x20", "2 tnt.8 0x1/6", "3 error broken PSB", "1 psb -",
      "17 psbend -"]),
    ("saturate", SATURATE_BYTES, ["--timing"],
     ["10 tip 0x1 9223372036854775808",
      "13 tip 0x2 [9223372036854775808,18446744073709551615)",
      "26 tip 0x3 18446744073709551615",
      "29 tip 0x4 [18446744073709551615,-)",
      "33 tip 0x5 [18446744073709551615,-)",
      "# branches=5 exact=2 bounded=3 errors=0 "
      "cycles=18446744073709551615 saturated=1"]),
]

def line_offset(line):
    """The OFFSET of a --packets or --timing line, or None."""
    head = line.split(" ", 1)[0]
    return int(head) if head.isdigit() else None


def is_error(line):
    parts = line.split(" ", 2)
    return len(parts) >= 2 and parts[1] == "error"


def cyc_at(data, off):
    """(value, size) of the CYC packet at data[off], or None when no whole
    CYC starts there (Intel SDM Vol. 3C, order no. 326019-060US,
    §36.4.2.14, Table 36-33: byte 0 bits 1:0 = 11b, bit 2 Exp, bits 7:3
    the low 5 bits; each further byte bit 0 Exp and 7 more bits)."""
    if off >= len(data) or data[off] & 3 != 3:
        return None
    value, shift, size = data[off] >> 3, 5, 1
    more = data[off] & 4
    while more:
        if off + size >= len(data):
            return None
        b = data[off + size]
        value |= (b >> 1) << shift
        shift += 7
        size += 1
        more = b & 1
    return value, size


def same_error(o, r):
    """Both lines errors at the same offset (the texts are each decoder's
    own words)."""
    return o is not None and r is not None and is_error(o) and \
        is_error(r) and line_offset(o) == line_offset(r)


def compare_packets(ours, ref, data=b"", cyc10=False,
                    names=("ptdecode", "libipt"), errors_by_offset=False):
    """Problems (strings; none: the same) between ptdecode's --packets
    lines (ours) and libipt's (ref).  With cyc10, the documented
    difference is let through, narrowly: ref's error on a 10-byte CYC whose
    value fits in 64 bits, which ours prints as that CYC, after which ref
    resumes at the next PSB while ours goes on packet by packet up to
    it.  With errors_by_offset, two error lines at the same offset count
    as the same."""
    i = j = 0
    while i < len(ours) or j < len(ref):
        o = ours[i] if i < len(ours) else None
        r = ref[j] if j < len(ref) else None
        if o == r or (errors_by_offset and same_error(o, r)):
            i += 1
            j += 1
            continue
        why = None
        if cyc10 and r is not None and is_error(r):
            why = cyc10_skip(ours, ref, i, j, data)
            if isinstance(why, tuple):
                i, j = why
                continue
        return [why or f"{names[0]} line {i + 1}: {o!r}, {names[1]} line "
                       f"{j + 1}: {r!r}"]
    return []


def cyc10_skip(ours, ref, i, j, data):
    """The documented difference at ref[j] (an error) and ours[i]: the
    indexes past it, or why it is not that difference."""
    off = line_offset(ref[j])
    cyc = cyc_at(data, off) if off is not None else None
    if ref[j] != f"{off} error {LIBIPT_BAD_PACKET}" or not cyc \
            or cyc[1] != 10 or cyc[0] >> 64:
        return (f"libipt line {j + 1}: {ref[j]!r} is not its error on a "
                f"10-byte CYC; ptdecode line {i + 1}: "
                f"{ours[i] if i < len(ours) else None!r}")
    want = f"{off} cyc 0x{cyc[0]:x}"
    if i >= len(ours) or ours[i] != want:
        return (f"offset {off}: a 10-byte CYC, which ptdecode must print "
                f"as {want!r}, printed "
                f"{ours[i] if i < len(ours) else None!r}")
    resume = line_offset(ref[j + 1]) if j + 1 < len(ref) else len(data)
    k = i + 1
    while k < len(ours) and (line_offset(ours[k]) or 0) < resume:
        if is_error(ours[k]) or ours[k].split(" ")[1:2] == ["psb"]:
            return (f"after the 10-byte CYC at {off}: libipt resumed at "
                    f"{resume} but ptdecode line {k + 1} is {ours[k]!r}")
        k += 1
    if resume < len(data) and data[resume:resume + 16] != PSB:
        return f"libipt resumed at {resume}, which is no PSB"
    return k, j + 1


TIME = re.compile(r"^(?:(\d+)|\[(\d+),(\d+|-)\))$")


def parse_time(text):
    """(lo, hi, exact): hi None when open.  ValueError when malformed."""
    if text.isdigit() and text.isascii():     # the common case, exact
        t = int(text)
        return t, t, True
    m = TIME.match(text)
    if not m:
        raise ValueError(f"bad time {text!r}")
    if m.group(1) is not None:
        t = int(m.group(1))
        return t, t, True
    hi = None if m.group(3) == "-" else int(m.group(3))
    return int(m.group(2)), hi, False


def parse_timing(lines):
    """ptdecode --timing lines -> (branches, summary, problems).  A branch
    is a dict: offset, kind (tnt, tip, tip.pge, tip.pgd), value ('T'/'N'
    for tnt, the IP as int or None for tips), lo, hi, exact, epoch, bit
    (tnt: its place in the TNT packet, 0 the oldest; else None)."""
    branches, summary, problems = [], None, []
    for n, line in enumerate(lines, 1):
        if line.startswith("# "):
            summary = dict(kv.split("=", 1) for kv in line[2:].split()
                           if "=" in kv)
            continue
        f = line.split(" ")
        try:
            epoch = 0
            if f[-1].startswith("epoch="):
                epoch = int(f.pop()[6:])
            if len(f) >= 2 and f[1] == "error":
                problems.append(f"line {n}: {line}")
                continue
            bit = None
            if f[1] == "tnt" and len(f) == 5 and f[3] in "TN":
                value = f[3]
                bit = int(f[2].split("/", 1)[0])
            elif f[1] in ("tip", "tip.pge", "tip.pgd") and len(f) == 4:
                value = None if f[2] == "-" else int(f[2], 16)
                if value is not None and not f[2].startswith("0x"):
                    raise ValueError("ip without 0x")
            else:
                raise ValueError("unknown line")
            lo, hi, exact = parse_time(f[-1])
            branches.append(dict(offset=int(f[0]), kind=f[1], value=value,
                                 lo=lo, hi=hi, exact=exact, epoch=epoch,
                                 bit=bit))
        except (ValueError, IndexError) as e:
            problems.append(f"line {n}: {line!r}: {e}")
    if summary is None:
        problems.append("no '# branches=...' summary line")
    return branches, summary, problems


def parse_branches(text):
    """A .branches file of pt-modelgen -> (header dict, expected list of
    (kind, value, clock)); value 'T'/'N' or an int IP."""
    header, want = {}, []
    for line in text.splitlines():
        if line.startswith("# pt-modelgen "):
            header = dict(kv.split("=", 1) for kv in line.split()[2:])
            continue
        kind, value, clock = line.split(" ")
        want.append((kind, value if kind == "tnt" else int(value, 16),
                     int(clock)))
    return header, want


def must_be_exact(b, clock, prev_clock, thresh):
    """Does the SDM guarantee branch b (at clock; the previous branch of
    the trace at prev_clock, None for the first) an exact time?  With
    CycThresh 0 "a CYC packet will be generated in any cycle in which any
    CYC-eligible packet is generated ... and provides the precise cycle
    time of the packets that follow" (Table 36-33); CycThresh 1 (one
    cycle) lets every new cycle have one (§36.3.6.3).  The CYC times the
    first CYC-eligible packet of its cycle: a TIP, or a TNT, whose time is
    its first branch's (§36.3.6.2).  A later branch of a TNT, or a branch
    sharing its cycle with an earlier one, is only bounded."""
    if thresh > 1 or clock == prev_clock:
        return False
    return b["kind"] == "tip" or (b["kind"] == "tnt" and b["bit"] == 0)


def compare_timing(got, header, want):
    """Problems between ptdecode's --timing branches (parse_timing) and
    the trace's (parse_branches); tip.pgd lines are the disable's and not
    compared, tip.pge's time is not compared.  An exact time must be the
    step's, a bounded one must hold it; must_be_exact() says which must
    be exact."""
    start, thresh = int(header["start"]), int(header["thresh"])
    got = [b for b in got if b["kind"] != "tip.pgd"]
    problems = []
    prev = None
    for n, (b, (kind, value, clock)) in enumerate(zip(got, want), 1):
        where = f"branch {n} (offset {b['offset']})"
        if b["kind"] != kind or b["value"] != value:
            shown = value if kind == "tnt" else f"0x{value:x}"
            mine = b["value"] if b["kind"] == "tnt" or b["value"] is None \
                else f"0x{b['value']:x}"
            return [f"{where}: decoded {b['kind']} {mine}, the trace has "
                    f"{kind} {shown} at clock {clock}"]
        if kind == "tip.pge":
            continue
        t = clock - start
        if b["exact"]:
            ok = b["lo"] == t
        else:
            ok = not must_be_exact(b, clock, prev, thresh) and \
                b["lo"] <= t and (b["hi"] is None or t < b["hi"])
        prev = clock
        if not ok:
            shown = b["lo"] if b["exact"] else \
                f"[{b['lo']},{'-' if b['hi'] is None else b['hi']})"
            problems.append(f"{where} {kind}"
                            f"{'' if b['bit'] is None else ' bit %d' % b['bit']}"
                            f": time {shown}, the trace's clock {clock} - "
                            f"{start} = {t} (CycThresh {thresh})")
            if len(problems) >= DETAIL_LINES:
                break
    if len(got) != len(want):
        problems.append(f"decoded {len(got)} branches, the trace has "
                        f"{len(want)}")
    return problems


# ---- running the tools

class Tally:
    def __init__(self):
        self.failed = 0

    def say(self, ok, text, details=()):
        print(f"{'ok' if ok else 'not ok'} - pt: {text}", flush=True)
        for d in list(details)[:DETAIL_LINES]:
            print(f"#   {d}", flush=True)
        if not ok:
            self.failed += 1
        return ok


def run(argv, timeout=120):
    """(exit status, stdout lines, stderr text) of argv (no shell)."""
    try:
        p = subprocess.run([str(a) for a in argv], cwd=ROOT,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, errors="replace", timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, [], str(e)
    return p.returncode, p.stdout.splitlines(), p.stderr


END_LINE = re.compile(r"^# end (\d+) (\d+)$")


def split_each(rc, lines, err, n):
    """The output of `ptdecode/ipt-dump ... --each F1..Fn` -> n (exit
    status, lines) pairs, one per file, as the tool run on that file
    alone gives them; None when the output is not n files' (the tool
    failed as a whole: rc and err say why)."""
    out, start = [], 0
    for i, line in enumerate(lines):
        m = END_LINE.match(line) if line.startswith("# end ") else None
        if not m:
            continue
        if int(m.group(1)) != len(out) + 1:
            return None
        out.append((int(m.group(2)), lines[start:i]))
        start = i + 1
    if len(out) != n or start != len(lines) or \
            rc != max([0] + [r for r, _ in out]):
        return None
    return out


def run_each(argv, paths, timeout=300):
    """argv + ["--each"] + paths in one process: a list of (exit status,
    stdout lines, stderr text) per path, as if each ran alone (stderr is
    the whole run's, for each)."""
    rc, lines, err = run(list(argv) + ["--each"] + list(paths), timeout)
    each = split_each(rc, lines, err, len(paths))
    if each is None:
        why = f"{Path(str(argv[0])).name} --each: exit status {rc}, " \
              f"output not one '# end' per file: {err.strip()}"
        return [(-1, [], why)] * len(paths)
    return [(r, l, err) for r, l in each]


def build(tally, what, targets):
    rc, out, err = run(["make", "-s", "-j2"] +
                       [f"build/host/{t}" for t in targets],
                       timeout=600)
    return tally.say(rc == 0, f"build {what}: make "
                     + " ".join(f"build/host/{t}" for t in targets),
                     (out + err.splitlines())[-DETAIL_LINES:] if rc else ())


def save(path, lines):
    path.write_text("\n".join(lines) + "\n" if lines else "")


def random_streams(tally, out, seeds, count):
    out.mkdir(parents=True, exist_ok=True)
    self_bad = []
    for seed in seeds:
        pt, exp = out / f"seed-{seed}.pt", out / f"seed-{seed}.expect"
        rc, _, err = run([HB / "ipt-gen", seed, count, pt, exp])
        if rc:
            tally.say(False, f"random stream seed {seed}: ipt-gen exit "
                      f"status {rc}", err.splitlines())
            continue
        data = pt.read_bytes()
        orc, ours, oerr = run([HB / "ptdecode", "--packets", pt])
        rrc, ref, rerr = run([HB / "ipt-dump", pt])
        save(out / f"seed-{seed}.ptdecode", ours)
        save(out / f"seed-{seed}.ipt-dump", ref)
        cyc10 = sum(1 for l in ref if is_error(l))
        problems = compare_packets(ours, ref, data, cyc10=True)
        if orc != 0:
            problems.append(f"ptdecode exit status {orc}: {oerr.strip()}")
        if rrc != (1 if cyc10 else 0):
            problems.append(f"ipt-dump exit status {rrc}: {rerr.strip()}")
        offsets = sync_offsets(len(data))
        for off in offsets:
            problems += [f"--offset {off}: {p}" for p in
                         compare_offset(pt, off, data)]
        tally.say(not problems, f"random stream seed {seed}: ptdecode "
                  f"--packets == libipt ({len(ours)} packets, {len(data)} "
                  f"bytes, {cyc10} 10-byte CYCs libipt rejects; also "
                  f"--offset {','.join(map(str, offsets))})", problems)
        bad = compare_packets(exp.read_text().splitlines(), ref, data,
                              cyc10=True, names=("ipt-gen", "ipt-dump"))
        if bad:
            self_bad.append(f"seed {seed}: " + bad[0])
    tally.say(not self_bad, f"random streams: ipt-dump prints what ipt-gen "
              f"encoded ({len(seeds)} seeds)", self_bad)


def sync_offsets(size):
    """Where --offset starts on a stream of size bytes: 1 (past the PSB
    at 0), inside it and past its end."""
    return [1, size // 3 + 1, size // 2 + 7, size + 5]


def compare_offset(pt, off, data):
    orc, ours, oerr = run([HB / "ptdecode", "--packets", "--offset", off,
                           pt])
    rrc, ref, rerr = run([HB / "ipt-dump", "--offset", off, pt])
    problems = compare_packets(ours, ref, data, cyc10=True)
    if orc != 0 or rrc not in (0, 1):
        problems.append(f"exit status ptdecode {orc} ({oerr.strip()}), "
                        f"ipt-dump {rrc} ({rerr.strip()})")
    first = line_offset(ours[0]) if ours else len(data)
    want = data.find(PSB, off)
    if first != (len(data) if want < 0 else want):
        problems.append(f"ptdecode starts at {first}, not at the first "
                        f"PSB from {off}")
    return problems


def model_streams(tally, out, mode, tool):
    mdir = out / mode
    shutil.rmtree(mdir, ignore_errors=True)
    mdir.mkdir(parents=True)
    rc, lines, err = run([HB / tool, mdir], timeout=300)
    if not tally.say(rc == 0 and lines, f"model {mode}: {tool} wrote "
                     f"{len(lines)} streams", err.splitlines()):
        return
    by_cfg = {}
    for path in sorted(mdir.glob("*.branches")):
        header, want = parse_branches(path.read_text())
        by_cfg.setdefault(header["cfg"], []).append((path, header, want))
    # Each decoder once over every stream of the mode (--each), each
    # stream's output as it would print it alone.
    pts = [path.with_suffix(".pt") for streams in by_cfg.values()
           for path, _, _ in streams]
    ours = run_each([HB / "ptdecode", "--packets"], pts)
    refs = run_each([HB / "ipt-dump"], pts)
    tims = run_each([HB / "ptdecode", "--timing"], pts)
    runs = dict(zip(pts, zip(ours, refs, tims)))
    for cfg, streams in by_cfg.items():
        check_config(tally, mode, cfg, streams, runs)


RTIT_CTL_MTCEN = 1 << 9          # IA32_RTIT_CTL, SDM Vol. 3C Table 36-6
RTIT_CTL_MTCFREQ_SHIFT = 14      # MTCFreq, bits 17:14


def mtc_every_step(header):
    """Does every step of this model stream hold an MTC?  With MTCEn the
    MTC goes out each time ART bit MTCFreq toggles (SDM Vol. 3C Table
    36-6), every 2**MTCFreq clocks of the model's clock; a stride of that
    many clocks or more toggles it in every step."""
    ctl, stride = int(header["ctl"], 16), int(header["stride"])
    freq = (ctl >> RTIT_CTL_MTCFREQ_SHIFT) & 0xF
    return bool(ctl & RTIT_CTL_MTCEN) and stride >= 1 << freq


def check_config(tally, mode, cfg, streams, runs):
    pk_bad, tm_bad = [], []
    packets = branches = exact = joined = 0
    for path, header, want in streams:
        pt = path.with_suffix(".pt")
        name = header["bench"]
        (orc, ours, oerr), (rrc, ref, rerr), (trc, tlines, terr) = runs[pt]
        save(pt.with_suffix(".ptdecode"), ours)
        save(pt.with_suffix(".ipt-dump"), ref)
        packets += len(ours)
        bad = compare_packets(ours, ref)
        if orc or rrc:
            bad.append(f"exit status ptdecode {orc}, ipt-dump {rrc}: "
                       f"{(oerr + rerr).strip()}")
        pk_bad += [f"{name}: {b}" for b in bad]
        save(pt.with_suffix(".timing"), tlines)
        got, summary, bad = parse_timing(tlines)
        if trc:
            bad.append(f"ptdecode --timing exit status {trc}: "
                       f"{terr.strip()}")
        bad += compare_timing(got, header, want)
        tm_bad += [f"{name}: {b}" for b in bad]
        branches += sum(1 for b in got if b["kind"] in ("tnt", "tip"))
        exact += sum(1 for b in got if b["kind"] in ("tnt", "tip")
                     and b["exact"])
        joined += sum(1 for b in got if b["kind"] == "tnt" and b["bit"])
    thresh = streams[0][1]["thresh"]
    # Hardware's TNTs hold several branches under CycThresh 0 too (Intel's
    # libipt stream ptxed-tick: cyc(4) tnt(t.n)): so must the model's,
    # unless an MTC (CYC-eligible, so it flushes the TNT) falls between
    # every two steps.
    if thresh == "0" and not joined and not mtc_every_step(streams[0][1]):
        tm_bad.append("no TNT holds more than one branch: a CYC per "
                      "branch, which hardware does not write (SDM "
                      "36.3.6.2: the CYC times the first branch of a TNT)")
    tally.say(not pk_bad, f"model {mode} {cfg}: {len(streams)} benchmark "
              f"streams decode the same with ptdecode and libipt "
              f"({packets} packets)", pk_bad)
    tally.say(not tm_bad, f"model {mode} {cfg} timing: every branch of "
              f"{len(streams)} traces in order with its outcome or target, "
              f"CycThresh {thresh}: {branches} branches, {exact} exact, "
              f"the rest inside their bounds ({joined} later branches of "
              f"a TNT)", tm_bad)


def damaged_streams(tally, out):
    """The fuzz corpus (hand-made damage, cut and flipped streams, and
    whole ones): both decoders see the same packets, report each error at
    the same offset and resume at the same PSB."""
    corpus = ROOT / "tests" / "host" / "pt" / "corpus"
    out.mkdir(parents=True, exist_ok=True)
    files = sorted(corpus.glob("*.pt"))
    bad, errors = [], 0
    ours_all = run_each([HB / "ptdecode", "--packets"], files)
    refs_all = run_each([HB / "ipt-dump"], files)
    for pt, (orc, ours, oerr), (rrc, ref, rerr) in zip(files, ours_all,
                                                        refs_all):
        data = pt.read_bytes()
        if orc not in (0, 1) or rrc not in (0, 1):
            bad.append(f"{pt.name}: exit status ptdecode {orc}, ipt-dump "
                       f"{rrc}: {(oerr + rerr).strip()}")
        save(out / f"{pt.stem}.ptdecode", ours)
        save(out / f"{pt.stem}.ipt-dump", ref)
        errors += sum(1 for l in ours if is_error(l))
        bad += [f"{pt.name}: {p}" for p in
                compare_packets(ours, ref, data, cyc10=True,
                                errors_by_offset=True)]
    tally.say(files and not bad, f"damaged streams: ptdecode and libipt "
              f"see the same packets and errors at the same offsets in "
              f"{len(files)} corpus streams ({errors} errors)", bad)


# The first bytes of every packet kind longer than one byte (Intel SDM
# Vol. 3C, order no. 326019-060US, §36.4.2, Tables 36-16 to 36-44; BBP,
# BEP, CFE, EVD and TRIG of later editions, as libipt and Linux perf read
# them): TNT-64, the IP packets of every IPBytes, MODE, TSC, MTC, CYC of
# 2, 4 and 10 bytes, PSB, and the 02h packets with their sizes.
LONG_PACKETS = [
    bytes([0x02, 0xa3, 1, 2, 3, 4, 5, 6]),
    bytes([0x2d, 1, 2]), bytes([0x51, 1, 2, 3, 4]),
    bytes([0x61, 1, 2, 3, 4, 5, 6]), bytes([0x9d, 1, 2, 3, 4, 5, 6]),
    bytes([0xcd, 1, 2, 3, 4, 5, 6, 7, 8]),
    bytes([0x99, 0x01]), bytes([0x19, 1, 2, 3, 4, 5, 6, 7]),
    bytes([0x59, 0x12]), cyc_bytes(32), cyc_bytes(1 << 20),
    cyc_bytes(1 << 63), PSB, PSBEND, bytes([0x02, 0xf3]),
    bytes([0x02, 0x83]), bytes([0x02, 0x03, 0x20, 0x00]),
    bytes([0x02, 0x73, 0x34, 0x12, 0x00, 0x05, 0x00]),
    bytes([0x02, 0x43, 1, 2, 3, 4, 5, 6]), bytes([0x02, 0xc8, 1, 2, 3, 4, 5]),
    bytes([0x02, 0xc3, 0x88, 1, 2, 3, 4, 5, 6, 7, 8]),
    bytes([0x02, 0x12, 1, 2, 3, 4]), bytes([0x02, 0xb2] + [1] * 8),
    bytes([0x02, 0x62]), bytes([0x02, 0xc2] + [1] * 8),
    bytes([0x02, 0x22, 1, 2]), bytes([0x02, 0xa2, 1, 2, 3, 4, 5]),
    bytes([0x02, 0x63, 0x9f]), bytes([0x02, 0x33]),
    bytes([0x02, 0x13, 0x81, 0x20]), bytes([0x02, 0x53] + [1] * 9),
    bytes([0xd9, 0x40, 0x07, 0x34, 0x12]),
]


def shift_line(line, k):
    """A --packets line with its OFFSET k bytes later."""
    off, rest = line.split(" ", 1)
    return f"{int(off) + k} {rest}"


def resync_problems(ours, damaged, at, k, want=None, i=None):
    """Problems (none: the property holds) between the undamaged lines
    (ours) and the lines of the stream with k bytes put before the PSB at
    offset at: the lines before it the same, and from the last `psb` line
    at at + k on, the undamaged lines from the PSB, k bytes later (want:
    those, and i the index of the PSB's line in ours, when the caller has
    them already)."""
    if i is None:
        i = next((n for n, l in enumerate(ours) if line_offset(l) == at),
                 None)
    if i is None or not ours[i].endswith(" psb -"):
        return [f"no PSB at {at} in the undamaged stream"]
    if damaged[:i] != ours[:i]:
        return ["the lines before the PSB differ"]
    psb = f"{at + k} psb -"
    start = next((n for n in range(len(damaged) - 1, -1, -1)
                  if damaged[n] == psb), None)
    if start is None:
        return [f"the PSB (now at {at + k}) is lost"]
    if want is None:
        want = [shift_line(l, k) for l in ours[i:]]
    got = damaged[start:]
    if got != want:
        n = next((n for n, (g, w) in enumerate(zip(got, want)) if g != w),
                 min(len(got), len(want)))
        return [f"from the PSB, line {n + 1}: "
                f"{got[n] if n < len(got) else None!r}, undamaged "
                f"{want[n] if n < len(want) else None!r}"]
    return []


# What the resync check keeps of a stream after the PSB it damages: the
# decoders agree again within a PSB+ and a few packets, and fewer lines
# keep the check cheap.
RESYNC_TAIL = 192


def resync_bases(streams, out):
    """(name, bytes, PSB offset) per valid stream: cut RESYNC_TAIL bytes
    after its second PSB (its first when it has one), written to OUT;
    and the problems of the streams that are not valid."""
    bases, bad = [], []
    plain = run_each([HB / "ptdecode", "--packets"], streams)
    for pt, (rc, lines, err) in zip(streams, plain):
        psbs = [line_offset(l) for l in lines if l.endswith(" psb -")]
        if rc != 0 or not psbs:
            bad.append(f"{pt.name}: not a valid stream with a PSB "
                       f"(exit status {rc}) {err.strip()}")
            continue
        at = psbs[1] if len(psbs) > 1 else psbs[0]
        data = pt.read_bytes()[:at + RESYNC_TAIL]
        (out / pt.name).write_bytes(data)
        bases.append((pt.name, data, at))
    return bases, bad


def resync_property(tally, out):
    """Item 6 of the docstring: ptdecode --each once over the streams
    cut short, once over their damaged copies."""
    corpus = ROOT / "tests" / "host" / "pt" / "corpus"
    streams = sorted(corpus.glob("ipt-gen-*.pt")) + \
        sorted(corpus.glob("model-*.pt"))
    out.mkdir(parents=True, exist_ok=True)
    bases, bad = resync_bases(streams, out)
    plain = run_each([HB / "ptdecode", "--packets"],
                     [out / name for name, _, _ in bases])
    cases, paths, shifted = [], [], {}
    for (name, data, at), (rc, ours, err) in zip(bases, plain):
        if rc not in (0, 1):
            bad.append(f"{name}: exit status {rc} {err.strip()}")
            continue
        first = next(n for n, l in enumerate(ours) if line_offset(l) == at)
        for k in range(1, len(PSB)):
            shifted[name, k] = [shift_line(l, k) for l in ours[first:]]
        for n, pkt in enumerate(LONG_PACKETS):
            for k in range(1, len(pkt)):
                path = out / f"{Path(name).stem}-{n}-{k}.pt"
                path.write_bytes(data[:at] + pkt[:k] + data[at:])
                cases.append((name, ours, at, pkt, k, first))
                paths.append(path)
    results = run_each([HB / "ptdecode", "--packets"], paths) if paths \
        else []
    for (name, ours, at, pkt, k, first), (rc, lines, err) in \
            zip(cases, results):
        if rc not in (0, 1):
            bad.append(f"{name}: exit status {rc} {err.strip()}")
            continue
        bad += [f"{name}: {pkt[:k].hex()} before the PSB at {at}: {p}"
                for p in resync_problems(ours, lines, at, k,
                                         shifted[name, k], first)]
    tally.say(paths and not bad, f"resync: {len(paths)} copies of "
              f"{len(streams)} valid corpus streams with the first bytes of "
              f"a packet before a PSB decode from it on as undamaged", bad)


def hand_streams(tally, out):
    """HAND_STREAMS: each stream written to OUT, ptdecode run on it with
    its arguments, the lines compared with the ones written by hand."""
    out.mkdir(parents=True, exist_ok=True)
    bad = []
    for name, data, args, want in HAND_STREAMS:
        path = out / f"{name}.pt"
        path.write_bytes(data)
        rc, got, err = run([HB / "ptdecode"] + args + [path])
        save(out / f"{name}.ptdecode", got)
        want_rc = 1 if any(is_error(l) for l in want) else 0
        if rc != want_rc or got != want:
            bad.append(f"{name} ({' '.join(args)}): exit status {rc} "
                       f"(want {want_rc}) {err.strip()}")
            bad += [f"  got  {l}" for l in got[:DETAIL_LINES]]
            bad += [f"  want {l}" for l in want[:DETAIL_LINES]]
    tally.say(not bad, f"hand-built streams: TRIG, MODE.Exec IF and "
              f"reserved, resync into a PSB, SKD007/SKZ84 with and without "
              f"--cpu, cycle sums at 2^64-1 ({len(HAND_STREAMS)} runs, "
              f"ptdecode prints the lines written by hand)", bad)


def fuzz_smoke(tally, runs):
    corpus = ROOT / "tests" / "host" / "pt" / "corpus"
    before = sorted(p.name for p in corpus.iterdir()) if corpus.is_dir() \
        else []
    # libFuzzer lists only the non-empty files (it runs the empty input
    # on its own first).
    inputs = sum(1 for p in corpus.iterdir() if p.is_file() and
                 p.stat().st_size) if corpus.is_dir() else 0
    rc, out, err = run(["tools/pt/fuzz.sh", "--smoke", runs], timeout=300)
    done = re.findall(r"stat::number_of_executed_units:\s*(\d+)", err)
    seeds = re.findall(r"INFO: seed corpus: files: (\d+)", err)
    after = sorted(p.name for p in corpus.iterdir()) if corpus.is_dir() \
        else []
    problems = [] if rc == 0 else [f"fuzz.sh exit status {rc}"] + [
        l for l in err.splitlines()
        if re.search(r"ERROR|SUMMARY|runtime error|pt-fuzz:|fuzz.sh:|"
                     r"Test unit written", l)]
    if not before:
        problems.append(f"no seed corpus in {corpus}")
    if before != after:
        problems.append("the committed corpus changed")
    if rc == 0 and seeds != [str(inputs)]:
        problems.append(f"libFuzzer's seed corpus: {seeds or 'no'} files, "
                        f"{corpus} has {inputs} non-empty ones")
    if rc == 0 and done[-1:] != [str(runs)]:
        problems.append(f"{done[-1] if done else 'no count of'} runs, not "
                        f"{runs}")
    tally.say(not problems, f"fuzz smoke: pt-fuzz ran the {inputs} "
              f"non-empty corpus inputs, then mutations up to "
              f"{done[-1] if done else '?'} runs, clean under ASan/UBSan",
              problems)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "build" / "check" / "pt"))
    ap.add_argument("--seeds", type=int, default=16)
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--fuzz-runs", type=int, default=5000)
    args = ap.parse_args(argv[1:])
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tally = Tally()

    if build(tally, "the decoder and the referee",
             ["ptdecode", "ipt-dump", "ipt-gen"]):
        random_streams(tally, out / "random", range(1, args.seeds + 1),
                       args.count)
        damaged_streams(tally, out / "damaged")
        hand_streams(tally, out / "hand")
        resync_property(tally, out / "resync")
        if build(tally, "the model's streams",
                 ["pt-modelgen", "pt-modelgen-i386"]):
            model_streams(tally, out / "model", "x86_64", "pt-modelgen")
            model_streams(tally, out / "model", "i386", "pt-modelgen-i386")
    if build(tally, "the fuzz target", ["pt-fuzz"]):
        fuzz_smoke(tally, args.fuzz_runs)
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
