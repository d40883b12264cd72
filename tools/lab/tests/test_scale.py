"""Lab scale (issue 43 item 3; docs/lab.md, "Lab scale"): parse, junit and
report read a log a result at a time and write as they go, in bounded
memory, with progress on stderr, and say the same as reading it whole.

The fast tests here run by default: reading a log result by result
judges and writes it exactly as reading it whole did (the verdict, the
damage, parse's JSON byte for byte, junit's XML, report's page); the
harness's own YAML read without the YAML loader is what the loader reads;
the progress lines; JUnit's texts kept under libxml2's limit with a note.

The scale test, Scale, generates a 200 MB log (tests/biglog.py) and holds
each of the three to 60 s and 300 MB: about 3 minutes, so it is a test
case only with PMU_LAB_SCALE=1, which `make lab-scale` sets:

    PMU_LAB_SCALE=1 /usr/bin/python3 -m pytest -q \\
        -o addopts="-p no:cacheprovider" tools/lab/tests/test_scale.py
"""

import json
import os
import random
import re
import subprocess
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path
from unittest import mock

from tools.testing.support import FIXTURES, PY, PMU_HARNESS, harness

from tools.lab import common, pmulog, verdict
from tools.lab import junit as ljunit
from tools.lab import parse as lparse
from tools.lab import report as lreport
from tools.lab.tests import biglog

LAB = FIXTURES / "lab"
HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
SCHEMAS = (Path(ljunit.__file__).resolve().parent / "junit.xsd",
           HOSTILE.parent / "junit-schemas" / "junit-10.xsd",
           HOSTILE.parent / "junit-schemas" / "JUnit.xsd")
LOGS = sorted(LAB.glob("*.log")) + sorted(FIXTURES.glob("*.log")) + \
    sorted(HOSTILE.glob("*.log"))


def xmllint(path, xsd):
    """(status, messages): xmllint without --huge, as CI servers parse."""
    p = subprocess.run(["xmllint", "--noout", "--schema", str(xsd),
                        str(path)], capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stderr[-2000:]


def same(a, b):
    return (a.number, a.name, a.status, a.directive, a.reason, a.yaml,
            a.yaml_text, a.line) == (b.number, b.name, b.status,
                                     b.directive, b.reason, b.yaml,
                                     b.yaml_text, b.line)


class Tmp:
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="pmu-scale-")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()


def variants(tmp):
    """The fixture logs, and some damaged: cut, noise inserted."""
    rng = random.Random(43)
    out = list(LOGS)
    for name in ("skylake-model.serial.log", "watchdog-hangs.log",
                 "p5-inject-fails.log"):
        data = (LAB / name).read_bytes()
        for k in range(3):
            p = tmp / f"cut{k}-{name}"
            p.write_bytes(data[:rng.randrange(1, len(data))])
            out.append(p)
        lines = data.split(b"\n")
        i = rng.randrange(5, len(lines))
        lines[i:i] = [b"\x1b[2JBdsDxe: noise \xff", b"  stray: 1", b"  ---"]
        p = tmp / f"noise-{name}"
        p.write_bytes(b"\n".join(lines))
        out.append(p)
    return out


class Streaming(Tmp, unittest.TestCase):
    """A log read a result at a time says what it says read whole."""

    def test_same_judgement_kept_or_not(self):
        for path in variants(self.tmp):
            with self.subTest(log=path.name):
                whole = lparse.analyse(path)
                got = []
                streamed = lparse.analyse(path, on_result=got.append,
                                          keep_results=False)
                self.assertEqual(streamed.log.results, [])
                self.assertEqual(len(got), len(whole.log.results))
                self.assertTrue(all(same(a, b) for a, b in
                                    zip(got, whole.log.results)))
                self.assertEqual(streamed.damage, whole.damage)
                self.assertEqual(streamed.counted, whole.log.counts())
                self.assertEqual(streamed.time, whole.time)
                self.assertEqual(streamed.in_flight, whole.in_flight)
                self.assertEqual(streamed.missing, whole.missing)
                v1, v2 = verdict.judge(whole), verdict.judge(streamed)
                self.assertEqual(
                    (v1.word, v1.why, v1.failed, v1.timed_out, v1.not_run,
                     v1.untested, v1.status),
                    (v2.word, v2.why, v2.failed, v2.timed_out, v2.not_run,
                     v2.untested, v2.status))

    def test_results_read_again_at_their_offsets(self):
        for path in variants(self.tmp):
            with self.subTest(log=path.name):
                got = []
                lparse.analyse(path, on_result=got.append,
                               keep_results=False)
                again = pmulog.read_results(
                    path, [(r.offset, r.line) for r in got])
                self.assertTrue(all(same(a, b) for a, b in zip(got, again)),
                                path)

    def test_parse_json_is_json_dumps_byte_for_byte(self):
        for path in variants(self.tmp):
            want_doc = {"logs": [lparse.analyse(path).to_dict()]}
            for indent in (0, 1, 2, 4):
                with self.subTest(log=path.name, indent=indent):
                    r = harness("parse", path, "--indent", indent)
                    self.assertEqual(
                        r.stdout, json.dumps(want_doc,
                                             indent=indent or None) + "\n")
        # several logs, an unreadable one among them
        paths = [LAB / "p54c-model.log", self.tmp / "missing.log",
                 LAB / "truncated-kill.log"]
        r = harness("parse", *paths)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, json.dumps(
            {"logs": [lparse.analyse(p).to_dict() for p in paths]},
            indent=2) + "\n")

    def test_encode_is_json_dumps(self):
        from datetime import date
        values = [{}, [], {"a": []}, {"a": {}}, [{}], {"k": [1, [2, {}]]},
                  {"x": float("inf"), "y": float("nan"), "z": -0.0,
                   "d": date(2026, 1, 2), True: None, 3: "\u00e9\x00",
                   "b": b"\x01", "s": {1, 2}, "t": (1,)}, "\ud800",
                  1.5e300, 10 ** 30, [None, True, False, "\n\t\""]]
        for v in values:
            for indent in (None, 1, 2, 3):
                step = " " * indent if indent else None
                with self.subTest(v=repr(v), indent=indent):
                    self.assertEqual(lparse.encode(v, step),
                                     json.dumps(lparse.jsonable(v),
                                                indent=indent))

    def test_junit_xml_is_the_whole_logs(self):
        for path in variants(self.tmp):
            with self.subTest(log=path.name):
                r = harness("junit", path)
                self.assertEqual(r.stdout_bytes,
                                 ljunit.render([lparse.analyse(path)]))

    def test_report_page_is_the_whole_logs(self):
        out = self.tmp / "r.html"
        paths = variants(self.tmp)
        for group in (paths[:6], paths[6:12], paths[12:20], paths[20:]):
            with self.subTest(logs=[p.name for p in group]):
                harness("report", *group, "-o", out)
                self.assertEqual(
                    out.read_text(),
                    lreport.render([lparse.analyse(p) for p in group]))


class FastYaml(unittest.TestCase):
    """pmulog.fast_block reads the harness's YAML as the loader does, or
    leaves the block to it."""

    def check(self, lines):
        body = list(enumerate(lines, 1))
        got = pmulog.fast_block(body)
        if got is None:
            return False
        text = "".join(t + "\n" for t in lines)
        try:
            want = pmulog.load_yaml(text)
        except (Exception, pmulog.LimitError) as e:   # noqa: BLE001
            self.fail(f"fast read {got!r}, the loader {e!r}: {text!r}")
        self.assertEqual(got, want, text)
        self.assertEqual(list(got), list(want), text)
        self.assertEqual([type(v) for v in got.values()],
                         [type(v) for v in want.values()], text)
        return True

    def blocks(self):
        for path in LOGS:
            p = pmulog.Parser(keep_lines=False)
            for line in pmulog._file_lines(open(path, "rb")):
                if p._yaml is not None and line == "  ...":
                    yield [t for _, t in p._yaml[2]]
                p.feed(line)

    def test_real_blocks(self):
        blocks = list(self.blocks())
        fast = sum(self.check(b) for b in blocks)
        self.assertGreater(len(blocks), 500)
        self.assertGreater(fast, 0.95 * len(blocks))

    def test_tricky_scalars(self):
        vals = ["0x10", "010", "0o10", "1_000", "1:20", "1:20.5", "yes",
                "No", "on", "OFF", "~", "null", "Null", ".5", "1e3",
                "1.0e+3", "2026-11-22", "2026-11-22 10:00:00", "-0", "+1",
                "-1", "-0x1f", "0b101", "-.inf", ".NaN", "1.", "<<", "=",
                "a b", "x:y", "a,b", "[x", "x]", "{a}", "-a", "- a", "?a",
                "%a", "@a", "`a", "$x", "(x)", "+", "-", ".", "a#b",
                "a #b", '"q\\x3a r"', '"a\\"b"', '"\\\\"', '"\\x00"',
                '"\\x7f"', '"\\e"', '"\\u00e9"', "true", "tRue", "y", "0",
                "00", "09", "0.0", "1__0", "_1", "6e", "12:60",
                "190:20:30", "' q'", "a: b", "a:", "x ", "&a", "*a", "!t",
                "|", ">", "#c", "0xdf9381f (image+0x681f)", "é", "a\tb",
                "9" * 30, '"' + "x" * 70000 + '"', "y" * 70000]
        keys = ["a", "yes", "null", "on", "No", "x.y", "a-b", "_", "y", "k"]
        rng = random.Random(7)
        fast = 0
        for _ in range(4000):
            lines = []
            for _ in range(rng.randint(1, 5)):
                k = rng.choice(keys)
                if rng.random() < 0.2:
                    lines.append(f"{k}:")
                    lines += ["  - " + rng.choice(vals)
                              for _ in range(rng.randint(0, 3))]
                else:
                    lines.append(f"{k}: {rng.choice(vals)}")
            fast += self.check(lines)
        self.assertGreater(fast, 500)

    def test_mutated_blocks(self):
        rng = random.Random(11)
        blocks = [b for b in self.blocks() if b]
        chars = ":#\"\\ -&*\t\u00e9\x00[]{}!|>%@`,?'~.0x_\x85\u2028\ufeff\r"
        for _ in range(3000):
            lines = list(rng.choice(blocks))
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice(chars) + lines[i][j:]
            self.check(lines)

    def test_limits_go_to_the_loader(self):
        # over MAX_VALUES and MAX_VALUE_CHARS: the loader's check names it
        self.assertIsNone(pmulog.fast_block(
            [(1, "v:")] + [(2, "  - 1")] * pmulog.MAX_VALUES))
        self.assertIsNone(pmulog.fast_block(
            [(1, "v: " + "c" * (pmulog.MAX_VALUE_CHARS + 1))]))


class Progress(Tmp, unittest.TestCase):
    """On a terminal a line redrawn in place; otherwise a line every
    Progress.INTERVAL seconds; nothing for a run shorter than that."""

    def setUp(self):
        super().setUp()
        self.log = self.tmp / "run.log"
        biglog.write(self.log, 0.6)

    def runs(self):
        return {"parse": ("parse", self.log),
                "junit": ("junit", self.log, "-o", self.tmp / "j.xml"),
                "report": ("report", self.log, "-o", self.tmp / "r.html")}

    def test_short_run_writes_nothing_on_stderr(self):
        for name, args in self.runs().items():
            with self.subTest(tool=name):
                # a process of its own: stderr a pipe, not a terminal
                p = subprocess.run([PY, str(PMU_HARNESS), *map(str, args)],
                                   stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, timeout=120)
                self.assertEqual((p.returncode, p.stderr), (0, b""))

    def test_lines_every_interval_when_not_a_terminal(self):
        for name, args in self.runs().items():
            with self.subTest(tool=name), \
                    mock.patch.object(common.Progress, "INTERVAL", 0.0), \
                    mock.patch.object(lparse, "_TICK_LINES", 256):
                r = harness(*args)
                self.assertEqual(r.returncode, 0, r.stderr)
                lines = r.stderr.splitlines()
                self.assertGreater(len(lines), 3, r.stderr)
                self.assertNotIn("\r", r.stderr)
                reading = [l for l in lines if "read" in l]
                self.assertTrue(reading, r.stderr)
                self.assertRegex(reading[-1], (
                    rf"^pmu-harness {name}: {re.escape(str(self.log))}: "
                    r"\d+ results, [\d.]+ of [\d.]+ MB \(\d+%\) read, "
                    r"\d+ s$"))
                counts = [int(l.split(": ")[2].split()[0]) for l in reading]
                self.assertEqual(counts, sorted(counts))

    def test_redrawn_in_place_on_a_terminal(self):
        for name, args in self.runs().items():
            with self.subTest(tool=name), \
                    mock.patch.object(common, "_isatty", lambda s: True), \
                    mock.patch.object(common.Progress, "REDRAW", 0.0), \
                    mock.patch.object(lparse, "_TICK_LINES", 256):
                r = harness(*args)
                self.assertEqual(r.returncode, 0, r.stderr)
                err = r.stderr_bytes.decode()
                self.assertNotIn("\n", err)             # one line, redrawn
                self.assertTrue(err.startswith(f"\rpmu-harness {name}: "),
                                err[:200])
                self.assertIn("results", err)
                self.assertIn("\x1b[K", err)
                self.assertTrue(err.endswith("\r\x1b[K"), err[-100:])

    def test_progress_object(self):
        now = [100.0]
        out = []

        class Stream:
            def write(self, t):
                out.append(t)

            def flush(self):
                pass

        p = common.Progress("parse", Stream(), tty=False,
                            clock=lambda: now[0])
        p.reading("x.log", 10_000_000, 200_000_000, 1234)
        self.assertEqual(out, [])                   # not yet 10 s
        now[0] += 10
        p.reading("x.log", 20_000_000, 200_000_000, 2345)
        p.reading("x.log", 30_000_000, 200_000_000, 3456)
        self.assertEqual(out, ["pmu-harness parse: x.log: 2345 results, "
                               "20.0 of 200.0 MB (10%) read, 10 s\n"])
        now[0] += 10
        p.writing("x.log", 5, 3456)
        self.assertEqual(out[-1], "pmu-harness parse: x.log: writing, 5 of "
                                  "3456 results, 20 s\n")
        p.clear()                                   # nothing to erase
        self.assertEqual(len(out), 2)


class JunitTexts(Tmp, unittest.TestCase):
    """Every text node stays under libxml2's 10 MB (junit.MAX_TEXT), the
    passed tests' values cut with a note; here with small limits."""

    def test_system_out_truncated_with_a_note(self):
        log = self.tmp / "run.log"
        biglog.write(log, 0.3)
        whole = pmulog.parse_file(log)
        with_values = [r for r in whole.results
                       if r.status == "ok" and r.yaml_text]
        out = self.tmp / "j.xml"
        with mock.patch.object(ljunit, "MAX_TEXT", 30_000), \
                mock.patch.object(ljunit, "MAX_CASE_OUTPUT", 400):
            r = harness("junit", log, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        for xsd in SCHEMAS:
            self.assertEqual(xmllint(out, xsd), (0, f"{out} validates\n"))
        text = ET.parse(out).getroot().find("testsuite").find(
            "system-out").text
        self.assertLess(len(text.encode()), 30_000)
        shown = re.findall(r"^ok (\d+) - ", text, re.M)
        m = re.search(r"\[pmu-harness junit: system-out truncated: the "
                      r"values of (\d+) more passed result\(s\), from result "
                      r"(\d+) on, are left out, to keep this text under "
                      r"30000 bytes .*pmu-harness parse has them all\]\n\Z",
                      text)
        self.assertTrue(m, text[-400:])
        self.assertEqual(len(shown) + int(m.group(1)), len(with_values))
        self.assertEqual(m.group(2), str(with_values[len(shown)].number))
        # a block over MAX_CASE_OUTPUT is cut at a line, with a note
        self.assertRegex(text, r"\n  \[pmu-harness junit: this block is cut "
                               r"at 400 bytes, \d+ more left out; "
                               r"pmu-harness parse has it all\]\n  \.\.\.\n")

    def test_every_text_capped(self):
        text = (LAB / "p5-inject-fails.log").read_text()
        # damage on every line of a long log: log/damaged's text
        noisy = "".join(l + "\x01\n" for l in text.splitlines())
        log = self.tmp / "noisy.log"
        log.write_text(noisy)
        out = self.tmp / "n.xml"
        with mock.patch.object(ljunit, "MAX_TEXT", 5_000):
            r = harness("junit", log, "-o", out)
        self.assertEqual(r.returncode, 3)
        for xsd in SCHEMAS:
            self.assertEqual(xmllint(out, xsd)[0], 0)
        root = ET.parse(out).getroot()
        for el in root.iter():
            if el.text and el.text.strip():
                self.assertLess(len(el.text.encode()), 5_000, el.tag)
        (damaged,) = [c for c in root.iter("testcase")
                      if c.get("name") == "log/damaged"]
        self.assertRegex(damaged.find("error").text,
                         r"\[pmu-harness junit: <error> truncated: \d+ more "
                         r"bytes left out, .*pmu-harness parse has it "
                         r"all\]\n\Z")


class ReportCaps(Tmp, unittest.TestCase):
    """A test name repeated thousands of times in a log (a generated log;
    a run that restarts repeats names twice) costs the page its first
    MAX_CELL_RESULTS (tooltip) and MAX_PLOT_RESULTS (plot) results."""

    def test_repeated_names(self):
        log = self.tmp / "rep.log"
        biglog.write(log, 0.5, unique=False)
        out = self.tmp / "r.html"
        with mock.patch.object(lreport, "MAX_CELL_RESULTS", 3), \
                mock.patch.object(lreport, "MAX_PLOT_RESULTS", 2):
            r = harness("report", log, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        page = out.read_text()
        copies = sum(1 for r in pmulog.parse_file(log).results
                     if r.name == "apic/lvtpc-fixed-self-ipi")
        self.assertGreater(copies, 3)
        # a skipped test's cell: its tooltip lists the first 3 results
        self.assertRegex(page, rf"title=\"{copies} results of this name "
                               r"\(the first 3\):\nSKIP \(line \d+\)")
        # every plot: the first 2 results of the log drawn
        self.assertRegex(page, rf"; {copies - 2} more results of this test "
                               r"not drawn \(only the first 2 of a log "
                               r"are\)")


class Indent(unittest.TestCase):
    def test_bounded(self):
        log = LAB / "p54c-model.log"
        for n in ("99999999", "17", "-1"):
            with self.subTest(indent=n):
                r = harness("parse", log, "--indent", n)
                self.assertEqual((r.returncode, r.stdout), (2, ""))
                self.assertEqual(r.stderr, f"pmu-harness parse: --indent "
                                           f"{n}: must be 0 to 16\n")
        r = harness("parse", log, "--indent", "16")
        self.assertEqual(r.returncode, 0)
        self.assertIn('\n' + " " * 48 + '"path"', r.stdout)


# Runs a command and writes its maximum resident set (KB) to a file:
# getrusage(RUSAGE_CHILDREN) of a small process whose one child is the
# command.  (The tests' own process is no such parent: a child counts the
# RSS of the process it was forked from until it execs, here 60 MB.)
MEASURE = ("import resource, subprocess, sys\n"
           "r = subprocess.run(sys.argv[2:])\n"
           "with open(sys.argv[1], 'w') as f:\n"
           "    f.write(str(resource.getrusage("
           "resource.RUSAGE_CHILDREN).ru_maxrss))\n"
           "sys.exit(r.returncode)\n")


# Not a test case at all without PMU_LAB_SCALE=1 (make lab-scale): make
# check allows no skip, and 3 minutes do not fit in its budget.
_SCALE = os.environ.get("PMU_LAB_SCALE") == "1"


class Scale(unittest.TestCase if _SCALE else object):
    """parse, junit and report each on a 200 MB log (about 370,000
    results): at most 60 s and 300 MB (maximum resident set) each."""

    SECONDS = 60
    MAX_RSS_KB = 300 * 1024

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="pmu-scale-")
        cls.tmp = Path(cls._tmp.name)
        cls.log = cls.tmp / "big.log"
        cls.results, cls.size = biglog.write(cls.log, 200)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def measure(self, *args, stdout=subprocess.DEVNULL):
        """Runs pmu-harness ARGS in a process of its own: (status,
        seconds, its maximum resident set in KB, stderr)."""
        rss_file = self.tmp / "rss"
        t = time.monotonic()
        with tempfile.TemporaryFile() as err:
            p = subprocess.run([PY, "-c", MEASURE, str(rss_file), PY,
                                str(PMU_HARNESS), *map(str, args)],
                               stdin=subprocess.DEVNULL, stdout=stdout,
                               stderr=err)
            took = time.monotonic() - t
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        rss = int(rss_file.read_text())
        print(f"\n{args[0]}: {took:.1f} s, max RSS {rss} KB", end="")
        return p.returncode, took, rss, text

    def check(self, name, rc, took, rss, err):
        self.assertEqual(rc, 0, err[-2000:])
        self.assertLessEqual(took, self.SECONDS, f"{name} took {took:.1f} s")
        self.assertLessEqual(rss, self.MAX_RSS_KB,
                             f"{name}: max RSS {rss} KB")
        # a line every 10 s at most, each a progress line
        self.assertLessEqual(len(err.splitlines()), took / 10 + 1, err)
        for line in err.splitlines():
            self.assertRegex(line, rf"^pmu-harness {name}: .*, \d+ s$")

    def test_log(self):
        self.assertGreater(self.size, 199_000_000)
        self.assertGreater(self.results, 350_000)

    def test_parse(self):
        out = self.tmp / "parse.json"
        with open(out, "wb") as f:
            self.check("parse", *self.measure("parse", self.log, stdout=f))
        with open(out, "rb") as f:
            head = f.read(20000).decode()
            f.seek(-200, os.SEEK_END)
            tail = f.read().decode()
        self.assertIn('"verdict": "PASSED"', head)
        self.assertIn(f'"results": {self.results}', head)
        self.assertTrue(tail.endswith('"damage": []\n    }\n  ]\n}\n'), tail)

    def test_junit(self):
        out = self.tmp / "junit.xml"
        self.check("junit", *self.measure("junit", self.log, "-o", out))
        for xsd in SCHEMAS:
            self.assertEqual(xmllint(out, xsd), (0, f"{out} validates\n"))
        with open(out, "rb") as f:
            f.seek(-4000, os.SEEK_END)
            tail = f.read().decode()
        self.assertIn("[pmu-harness junit: system-out truncated: ", tail)

    def test_report(self):
        out = self.tmp / "report.html"
        self.check("report", *self.measure("report", self.log, "-o", out))
        page = out.read_text()
        self.assertIn('data-verdict="PASSED"', page)
        self.assertLess(len(page), 2_000_000)


if __name__ == "__main__":
    unittest.main()
