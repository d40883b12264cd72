"""tools/lab/parse.py and `pmu-harness parse`: real logs, and the same logs
damaged every way a lab sees (cut anywhere, garbage and firmware output
in between, CR LF and lone CR, NUL bytes, bytes that are not UTF-8)."""

import json
import random
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import FIXTURES, PY, PMU_HARNESS, harness

from tools.lab import pmulog
from tools.lab import parse as lparse

LAB = FIXTURES / "lab"
HARNESS = [PY, str(PMU_HARNESS)]

# Whole logs that are intact (plan, summary, no parse error).
INTACT = [LAB / n for n in (
    "p54c-model.log", "skylake-model.serial.log", "p5-inject-fails.log",
    "watchdog-hangs.log", "bail-out.log", "refused-hw.log")] + \
    [FIXTURES / n for n in ("p54c.log", "selftest.log", "p54c-p5-fail.log",
                            "options-errors.log", "logfile-full.log")]

FIRMWARE = [
    b'BdsDxe: loading Boot0002 "UEFI QEMU HARDDISK QM00001 " from '
    b'PciRoot(0x0)/Pci(0x1F,0x2)/Sata(0x0,0xFFFF,0x0)',
    b"\x1b[2J\x1b[01;01H\x1b[=3h\x1b[2J\x1b[01;01H",
    b"\x1b[=3hBdsDxe: starting Boot0002",
    b"garbage \x01\x02 line",
    b"",
    b"\xff\xfe not UTF-8",
    b"\x00\x00",
]
# (A "#" line is a TAP comment and a blank line inside a YAML block is
# YAML: neither is damage.)


def cli(*args):
    """pmu-harness with these arguments, in this process
    (support.harness): (status, stdout, stderr).
    RealLogs.test_cli_json_round_trips runs the command itself."""
    r = harness(*args)
    return r.returncode, r.stdout, r.stderr


def command(*args, timeout=60):
    """The same through `pmu-harness` in a process of its own."""
    p = subprocess.run(HARNESS + [str(a) for a in args],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def split_lines(data):
    """The input's lines with their ends (b"\\n" only, like pmulog)."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def block_end(r):
    """The last input line of a result: its YAML block's '  ...' line."""
    if r.yaml_text is None:
        return r.line
    return r.line + r.yaml_text.count("\n") + 2


def same_result(a, b):
    return (a.number, a.name, a.status, a.directive, a.reason, a.yaml,
            a.line) == (b.number, b.name, b.status, b.directive, b.reason,
                        b.yaml, b.line)


class Tmp:
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="pmu-parse-")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, data):
        p = self.tmp / name
        p.write_bytes(data)
        return p


class RealLogs(Tmp, unittest.TestCase):
    def test_results_and_counts_equal_pmulog_and_summary(self):
        for path in INTACT:
            with self.subTest(log=path.name):
                a = lparse.analyse(path)
                log = pmulog.parse_file(path)
                self.assertEqual(a.damage, [])
                self.assertEqual(lparse.exit_status([a]), 0)
                d = a.to_dict()
                self.assertEqual(len(d["results"]), len(log.results))
                self.assertGreater(len(log.results), 0)
                for got, want in zip(d["results"], log.results):
                    self.assertEqual(
                        (got["number"], got["name"], got["status"],
                         got["directive"], got["reason"], got["line"]),
                        (want.number, want.name, want.status,
                         want.directive, want.reason, want.line))
                    self.assertEqual(got["yaml"], lparse.jsonable(want.yaml))
                s = log.summary
                self.assertEqual(d["summary"]["passed"], s.passed)
                self.assertEqual(
                    (d["counts"]["passed"], d["counts"]["failed"],
                     d["counts"]["skipped"]),
                    (s.passed, s.failed, s.skipped))
                self.assertEqual(d["plan"], len(log.results))
                self.assertEqual(d["counts"]["missing"], 0)

    def test_cli_json_round_trips(self):
        # the command itself, in a process of its own
        rc, out, err = command("parse", *INTACT)
        self.assertEqual((rc, err), (0, ""))
        doc = json.loads(out)
        want = [json.loads(json.dumps(lparse.analyse(p).to_dict()))
                for p in INTACT]
        self.assertEqual(doc, {"logs": want})
        self.assertEqual([l["path"] for l in doc["logs"]],
                         [str(p) for p in INTACT])
        rc, out, err = cli("parse", "--indent", "0", INTACT[0])
        self.assertEqual(rc, 0)
        self.assertEqual(out.count("\n"), 1)
        self.assertEqual(json.loads(out), {"logs": want[:1]})

    def test_headers_machine_backend(self):
        path = LAB / "skylake-model.serial.log"
        raw = path.read_bytes().split(b"\n")
        cpu_line = next(i for i, l in enumerate(raw, 1)
                        if l.startswith(b"# cpu:"))
        d = lparse.analyse(path).to_dict()
        self.assertEqual(d["machine"], "Core 6th gen (Skylake) 0x506e3")
        self.assertEqual(d["label"],
                         "Core 6th gen (Skylake) 0x506e3 "
                         "[skylake-model.serial]")
        self.assertEqual((d["backend"], d["model"]), ("model", True))
        cpu = d["headers"]["cpu"]
        self.assertEqual(cpu["line"], cpu_line)
        self.assertEqual((cpu["fields"]["family"], cpu["fields"]["model"]),
                         ("6", "94"))
        self.assertEqual(d["headers"]["harness"]["words"],
                         ["pmu-harness", "0.1.0"])
        hw = lparse.analyse(LAB / "refused-hw.log").to_dict()
        self.assertEqual((hw["backend"], hw["model"]), ("hw", False))

    def test_emulated_is_model_backed(self):
        # backend=emulated: the reference model counting as silicon would
        # (docs/emulators.md); its results are model-backed and labelled
        # so, like backend=model's.
        text = (LAB / "skylake-model.serial.log").read_bytes()
        text = re.sub(rb"^# backend: model ", b"# backend: emulated ", text,
                      flags=re.M)
        d = lparse.analyse(self.write("emul.log", text)).to_dict()
        self.assertEqual((d["backend"], d["model"]), ("emulated", True))

    def test_time_and_elapsed(self):
        text = (LAB / "p54c-model.log").read_text()
        m = re.search(r"^# time: run=(\d+) ms slowest=(\S+) (\d+) ms", text,
                      re.M)
        d = lparse.analyse(LAB / "p54c-model.log").to_dict()
        self.assertEqual((d["time"]["run_ms"], d["time"]["slowest"],
                          d["time"]["slowest_ms"]),
                         (int(m.group(1)), m.group(2), int(m.group(3))))
        self.assertEqual((d["time"]["timeout_s"],
                          d["time"]["run_timeout_s"]), (60, 3600))
        timed = [r for r in d["results"] if r["elapsed_s"] is not None]
        self.assertEqual([(r["name"], r["elapsed_s"]) for r in timed],
                         [(m.group(2), int(m.group(3)) / 1000)])
        # tests stopped at their time limit: elapsed_s from their block
        d = lparse.analyse(LAB / "watchdog-hangs.log").to_dict()
        for r in d["results"]:
            if r["yaml"] and r["yaml"].get("timed_out"):
                self.assertEqual(r["elapsed_s"], r["yaml"]["elapsed_s"])
            else:
                self.assertIsNone(r["elapsed_s"], r["name"])
        self.assertEqual(sum(r["elapsed_s"] is not None
                             for r in d["results"]), 5)

    def test_errors_and_bail_outs(self):
        d = lparse.analyse(LAB / "refused-hw.log").to_dict()
        self.assertEqual(len(d["errors"]), 1)
        self.assertTrue(d["errors"][0]["text"].startswith("option inject="))
        self.assertEqual(d["errors"][0]["line"], 7)
        d = lparse.analyse(LAB / "bail-out.log").to_dict()
        self.assertEqual(d["bail_outs"], [{
            "reason": "unexpected #UD (vector 6) outside a test at "
                      "rip=0xdfd08e0 error=0x0", "line": 14}])
        rc, _, err = cli("parse", LAB / "bail-out.log")
        self.assertEqual((rc, err), (0, ""))    # intact: parse's status

    def test_failed_tests_exit_0(self):
        """parse judges the log, not the tests: 50 failures, status 0."""
        rc, out, err = cli("parse", LAB / "p5-inject-fails.log")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(json.loads(out)["logs"][0]["counts"]["failed"], 50)

    def test_truncated_kill(self):
        path = LAB / "truncated-kill.log"
        last = path.read_bytes().count(b"\n")
        rc, out, err = cli("parse", path)
        self.assertEqual(rc, 3)
        d = json.loads(out)["logs"][0]
        self.assertEqual({x["kind"] for x in d["damage"]}, {"truncated"})
        self.assertEqual({x["line"] for x in d["damage"]}, {last})
        self.assertEqual(len(d["results"]),
                         len(pmulog.parse_file(path).results))
        self.assertIsNone(d["summary"])
        self.assertEqual(err.splitlines(), [
            f"pmu-harness parse: {path}:{x['line']}: {x['message']}"
            for x in d["damage"]])
        # the run was cut while its last "# running" line's test ran
        # (the fixture's line 98)
        self.assertEqual(d["in_flight"], {
            "name": "apic/pmi-during-trace-cpl0", "line": 98,
            "what": "a PMI raised at the k-th traced step of a CPL 0 "
                    "benchmark lands at its next_rip, once, and the tracer "
                    "counts every step"})
        # a finished verbose log has no test in flight
        rc, out, _ = cli("parse", LAB / "watchdog-hangs.log")
        self.assertIsNone(json.loads(out)["logs"][0]["in_flight"])

    def edited(self, old, new, name="p54c-model.log"):
        text = (LAB / name).read_text()
        self.assertIn(old, text)
        p = self.write(name, text.replace(old, new, 1).encode())
        line = text[:text.index(old)].count("\n") + 1
        return p, line

    def test_summary_disagrees_with_results(self):
        p, line = self.edited("# summary: passed=136 ",
                              "# summary: passed=135 ")
        a = lparse.analyse(p)
        self.assertEqual([(d.line, d.kind) for d in a.damage],
                         [(line, "summary-mismatch")])
        self.assertIn("passed=135", a.damage[0].message)
        self.assertIn("passed=136", a.damage[0].message)
        rc, _, err = cli("parse", p)
        self.assertEqual(rc, 3)
        self.assertIn(f"{p}:{line}: summary says", err)

    def test_plan_disagrees_with_results(self):
        p, line = self.edited("\n1..207\n", "\n1..209\n")
        a = lparse.analyse(p)
        self.assertEqual([(d.line, d.kind) for d in a.damage],
                         [(line + 1, "plan-mismatch")])
        self.assertEqual(a.missing, 2)
        self.assertEqual(a.to_dict()["counts"]["missing"], 2)

    def test_last_line_without_line_end(self):
        """Cut just before the last line's end: the content is all there,
        but the capture stopped mid-line; and a cut inside the summary's
        last number, which still reads as a summary."""
        data = (LAB / "p54c-model.log").read_bytes()
        last = data.count(b"\n")
        a = lparse.analyse(self.write("nolf.log", data[:-1]))
        self.assertEqual([(d.line, d.kind) for d in a.damage],
                         [(last, "truncated")])
        self.assertIn("ends mid-line", a.damage[0].message)
        a = lparse.analyse(self.write("cut.log", data[:-2]))
        self.assertEqual(sorted((d.line, d.kind) for d in a.damage),
                         [(last, "summary-mismatch"), (last, "truncated")])

    def test_restart(self):
        text = (LAB / "bail-out.log").read_bytes()
        lines = split_lines(text)
        data = b"".join(lines[:15] + lines + [b"1..1\n"])
        a = lparse.analyse(self.write("restart.log", data))
        self.assertIn((16, "restart"), [(d.line, d.kind) for d in a.damage])
        self.assertEqual(lparse.exit_status([a]), 3)

    def test_utf16_log_said_so(self):
        # a log re-encoded as UTF-16 (issue 43: "no TAP line: the harness
        # did not start" misled): damaged, no-tap, and the encoding named,
        # with and without a byte-order mark (Unicode 15.0 §3.10, D98)
        text = (INTACT[0].read_bytes()).decode("utf-8", "replace")
        for enc, bom, what in (("utf-16-le", b"\xff\xfe", "UTF-16LE"),
                               ("utf-16-be", b"\xfe\xff", "UTF-16BE"),
                               ("utf-16-le", b"", "UTF-16LE (a NUL after"),
                               ("utf-16-be", b"", "UTF-16BE (a NUL before")):
            with self.subTest(enc=enc, bom=bom):
                p = self.write(f"{enc}-{len(bom)}.log",
                               bom + text.encode(enc))
                rc, out, err = cli("parse", p)
                self.assertEqual(rc, 3)
                d = json.loads(out)["logs"][0]
                self.assertEqual([x["kind"] for x in d["damage"]],
                                 ["no-tap"])
                self.assertIn(f"the file is {what}", err)

    def test_unreadable_empty_and_usage(self):
        missing = self.tmp / "missing.log"
        rc, out, err = cli("parse", missing)
        self.assertEqual(rc, 2)
        d = json.loads(out)["logs"][0]
        self.assertEqual([x["kind"] for x in d["damage"]], ["unreadable"])
        self.assertEqual(err.strip(),
                         f"pmu-harness parse: {missing}: cannot read "
                         f"{missing}: No such file or directory")
        rc, out, err = cli("parse", self.tmp)             # a directory
        self.assertEqual(rc, 2)
        self.assertNotIn("Traceback", err)
        empty = self.write("empty.log", b"")
        rc, out, err = cli("parse", empty)
        self.assertEqual(rc, 3)
        d = json.loads(out)["logs"][0]
        self.assertEqual([(x["line"], x["kind"]) for x in d["damage"]],
                         [(0, "no-tap")])
        self.assertIn("the file is empty", err)
        self.assertEqual(d["results"], [])
        # one unreadable log among good ones: 2, and the others still printed
        rc, out, _ = cli("parse", INTACT[0], missing, empty)
        self.assertEqual(rc, 2)
        self.assertEqual(len(json.loads(out)["logs"]), 3)
        rc, _, _ = cli("parse", INTACT[0], empty)
        self.assertEqual(rc, 3)
        for bad in (["parse"], ["parse", "--indent", "-1", INTACT[0]],
                    ["parse", "--indent", "x", INTACT[0]]):
            rc, _, err = cli(*bad)
            self.assertEqual(rc, 2, bad)
            self.assertNotIn("Traceback", err)


class Damaged(Tmp, unittest.TestCase):
    """Real logs damaged at seeded random points."""

    def check(self, data, orig, damaged_line, name="damaged.log",
              all_kept=False):
        """The damaged log: no traceback, status 3, a damage entry at
        damaged_line, every result that ends before it as it was (and
        with all_kept, as many results as the original)."""
        a = lparse.analyse(self.write(name, data))
        msg = f"damage at line {damaged_line}: {a.damage}"
        self.assertEqual(lparse.exit_status([a]), 3, msg)
        self.assertIn(damaged_line, [d.line for d in a.damage], msg)
        for d in a.damage:
            self.assertIn(d.kind, lparse.DAMAGE_KINDS)
        got = {r.line: r for r in a.log.results}
        for r in orig.log.results:
            if block_end(r) < damaged_line:
                self.assertIn(r.line, got, f"result {r.number} lost; {msg}")
                self.assertTrue(same_result(r, got[r.line]),
                                f"result {r.number} changed; {msg}")
        if all_kept:
            self.assertEqual([r.name for r in a.log.results],
                             [r.name for r in orig.log.results], msg)
        json.dumps(a.to_dict())     # always printable
        return a

    def test_truncated_at_random_points(self):
        rng = random.Random(12)
        kinds = set()
        for name, n in (("watchdog-hangs.log", 40),
                        ("skylake-model.serial.log", 12),
                        ("p5-inject-fails.log", 25), ("bail-out.log", 15)):
            data = (LAB / name).read_bytes()
            orig = lparse.analyse(LAB / name)
            tap_at = data.index(b"TAP version 13")
            yaml_lines = {l for r in orig.log.results if r.yaml_text
                          for l in range(r.line + 1, block_end(r))}
            cuts = [rng.randrange(1, len(data)) for _ in range(n)]
            # a cut inside a YAML value, and one inside a result line
            starts = [0]
            for l in split_lines(data):
                starts.append(starts[-1] + len(l))
            for r in [r for r in orig.log.results if r.yaml_text][:1]:
                cuts += [starts[r.line + 1] + 5, starts[r.line - 1] + 4,
                         starts[r.line + 2]]
            # at line ends, and inside the firmware's output
            cuts += [rng.choice(starts[1:-1]) for _ in range(n // 3)]
            cuts += [tap_at // 2] if tap_at else []
            for k in cuts:
                cut = data[:k]
                last = cut.count(b"\n") + (0 if cut.endswith(b"\n") else 1)
                mid_line = not cut.endswith(b"\n")
                kinds.add(("mid-line" if mid_line else "at line end",
                           "in YAML" if last in yaml_lines else
                           "before TAP" if k < tap_at + 14 else "TAP"))
                with self.subTest(log=name, cut=k):
                    if k < tap_at + len(b"TAP version 13"):
                        a = lparse.analyse(self.write("cut.log", cut))
                        self.assertEqual([(d.line, d.kind)
                                          for d in a.damage], [(0, "no-tap")])
                        self.assertEqual(lparse.exit_status([a]), 3)
                        continue
                    a = self.check(cut, orig, last)
                    # no result invented: each is the original's, or the
                    # original's cut short on the last line
                    want = {r.line: r for r in orig.log.results}
                    for r in a.log.results:
                        self.assertIn(r.line, want)
                        if r.line < last:
                            self.assertEqual(r.name, want[r.line].name)
        for want in (("mid-line", "in YAML"), ("at line end", "in YAML"),
                     ("mid-line", "TAP"), ("at line end", "TAP"),
                     ("mid-line", "before TAP")):
            self.assertIn(want, kinds)

    def insert_line(self, name, rng, n, junk):
        """n copies of the log, each with one junk line inserted after the
        TAP version line; yields (data, inserted line number)."""
        data = (LAB / name).read_bytes()
        lines = split_lines(data)
        eol = b"\r\n" if lines[0].endswith(b"\r\n") else b"\n"
        first = next(i for i, l in enumerate(lines)
                     if l.startswith(b"TAP version 13"))
        for _ in range(n):
            i = rng.randrange(first + 1, len(lines) + 1)
            line = junk if junk is not None else rng.choice(FIRMWARE)
            yield b"".join(lines[:i] + [line + eol] + lines[i:]), i + 1

    def test_garbage_and_firmware_lines(self):
        rng = random.Random(5)
        for name, n in (("p5-inject-fails.log", 30),
                        ("watchdog-hangs.log", 25),
                        ("skylake-model.serial.log", 6)):
            orig = lparse.analyse(LAB / name)
            for data, line in self.insert_line(name, rng, n, None):
                with self.subTest(log=name, line=line):
                    a = self.check(data, orig, line, all_kept=True)
                    here = [d for d in a.damage if d.line == line]
                    self.assertTrue(any(d.kind == "garbage" for d in here),
                                    here)

    def test_intruding_result_line(self):
        rng = random.Random(9)
        orig = lparse.analyse(LAB / "watchdog-hangs.log")
        for data, line in self.insert_line("watchdog-hangs.log", rng, 10,
                                           b"ok 999 - intruder/line"):
            with self.subTest(line=line):
                a = lparse.analyse(self.write("x.log", data))
                self.assertIn((line, "numbering"),
                              [(d.line, d.kind) for d in a.damage])
                self.assertEqual(lparse.exit_status([a]), 3)
                self.assertEqual(len(a.log.results),
                                 len(orig.log.results) + 1)

    def test_escapes_inside_yaml_values(self):
        """ANSI escapes and NULs inside a YAML line (the line still starts
        with its two spaces): pmulog cannot load that block; the damage
        points at the line itself."""
        rng = random.Random(3)
        name = "watchdog-hangs.log"
        orig = lparse.analyse(LAB / name)
        lines = split_lines((LAB / name).read_bytes())
        body = [l for r in orig.log.results if r.yaml_text
                for l in range(r.line + 1, block_end(r) - 1)]
        for junk in (b"\x1b[2J\x1b[01;01H", b"\x00", b"\x1b[=3h", b"\x07",
                     b"\xc3", b"\xff\xfe"):
            for n in rng.sample(body, 4):
                l = lines[n - 1]
                at = rng.randrange(3, len(l) - 1)
                new = lines[:n - 1] + [l[:at] + junk + l[at:]] + lines[n:]
                with self.subTest(junk=junk, line=n):
                    a = self.check(b"".join(new), orig, n, all_kept=True)
                    self.assertTrue(any(d.line == n and d.kind == "garbage"
                                        for d in a.damage), a.damage)

    def test_nul_and_invalid_utf8_in_tap_lines(self):
        rng = random.Random(4)
        name = "p5-inject-fails.log"
        orig = lparse.analyse(LAB / name)
        lines = split_lines((LAB / name).read_bytes())
        for junk in (b"\x00", b"\x00\x00\x00", b"\xff", b"\xe2\x82",
                     b"\r"):
            for n in rng.sample(range(2, len(lines) + 1), 8):
                l = lines[n - 1]
                at = rng.randrange(1, max(2, len(l) - 1))
                new = lines[:n - 1] + [l[:at] + junk + l[at:]] + lines[n:]
                with self.subTest(junk=junk, line=n):
                    self.check(b"".join(new), orig, n)

    def test_lone_cr_joins_lines(self):
        rng = random.Random(6)
        name = "watchdog-hangs.log"
        orig = lparse.analyse(LAB / name)
        lines = split_lines((LAB / name).read_bytes())
        for n in rng.sample(range(2, len(lines)), 12):
            new = lines[:n - 1] + [lines[n - 1][:-1] + b"\r"] + lines[n:]
            with self.subTest(line=n):
                a = self.check(b"".join(new), orig, n)
                self.assertTrue(any("lone CR" in d.message
                                    for d in a.damage if d.line == n)
                                or any(d.line == n for d in
                                       a.log.parse_errors), a.damage)

    def test_cr_lf_is_intact(self):
        data = (LAB / "p54c-model.log").read_bytes()
        a = lparse.analyse(self.write("crlf.log",
                                      data.replace(b"\n", b"\r\n")))
        self.assertEqual(a.damage, [])
        orig = lparse.analyse(LAB / "p54c-model.log")
        self.assertTrue(all(same_result(x, y) for x, y in
                            zip(orig.log.results, a.log.results)))
        self.assertEqual(len(a.log.results), len(orig.log.results))

    def test_whole_file_odd_endings(self):
        data = (LAB / "watchdog-hangs.log").read_bytes()
        for label, variant in (("lone CR", data.replace(b"\n", b"\r")),
                               ("NULs", data.replace(b"\n", b"\x00\n")),
                               ("no line ends", data.replace(b"\n", b"")),
                               ("latin-1 junk", bytes(range(256)) * 4)):
            with self.subTest(label):
                p = self.write("odd.log", variant)
                rc, out, err = cli("parse", p)
                self.assertEqual(rc, 3)
                self.assertNotIn("Traceback", err)
                d = json.loads(out)["logs"][0]
                self.assertTrue(d["damage"])
                self.assertEqual(len(err.splitlines()), len(d["damage"]))

    def test_cli_on_damaged_variants(self):
        """The command itself on a few damaged logs: status 3, JSON on
        stdout with the results kept, one stderr line per damage naming
        FILE:LINE."""
        rng = random.Random(8)
        orig = lparse.analyse(LAB / "p5-inject-fails.log")
        variants = list(self.insert_line("p5-inject-fails.log", rng, 3,
                                         None))
        data = (LAB / "p5-inject-fails.log").read_bytes()
        k = rng.randrange(len(data) // 2, len(data))
        cut = data[:k]
        variants.append((cut, cut.count(b"\n") + 1))
        for i, (vdata, line) in enumerate(variants):
            p = self.write(f"v{i}.log", vdata)
            rc, out, err = cli("parse", p)
            with self.subTest(variant=i, line=line):
                self.assertEqual(rc, 3)
                self.assertNotIn("Traceback", err)
                d = json.loads(out)["logs"][0]
                for e in err.splitlines():
                    self.assertRegex(e, rf"^pmu-harness parse: "
                                        rf"{re.escape(str(p))}:\d+: .+")
                self.assertIn(f"pmu-harness parse: {p}:{line}: ", err)
                kept = [r.name for r in orig.log.results
                        if block_end(r) < line]
                self.assertEqual([r["name"] for r in d["results"]
                                  ][:len(kept)], kept)


if __name__ == "__main__":
    unittest.main()
