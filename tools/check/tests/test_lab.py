"""tools/check/lab.py's batches: one prove, parse, compare or capture over
many logs must judge each log as the tool run on that log alone would
(docs/check.md, "The lab stage"), and a batch whose output cannot be read
per log falls back to one run per log.

The logs are the fixtures (tools/testing/fixtures/), copied into a
temporary directory; a volume log for a serial capture is support.tap_part
of it (computed without the code under test).
"""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools.testing.support import (FIXTURES, Ran, fixture_text, harness,
                                   tap_part)

from tools.check import lab as lab_check
from tools.lab import pmulog

SERIAL = ("lab/skylake-model.serial.log", "lab/nehalem-verbose.serial.log")
DAMAGED = {"truncated.log", "no-summary.log", "truncated-kill.log"}
BAIL = "bail-out.log"


class Record(lab_check.Checks):
    """The checks said, as (ok, text), instead of printed."""

    def __init__(self):
        super().__init__()
        self.said = []

    def _say(self, ok, text, detail):
        self.said.append((ok, text))

    def about(self, name, what):
        return [(ok, t) for ok, t in self.said
                if t.startswith(f"{name}: {what}")]


class COPY:
    """The fixtures copied into one temporary directory and parsed, once
    for the module (setUpModule): dir, paths, logs (path -> pmulog.Log).
    No test changes a copy; a test's own files get other names."""


def setUpModule():
    COPY.dir = Path(tempfile.mkdtemp(prefix="pmu-labcheck-"))
    COPY.paths = []
    for f in sorted(FIXTURES.glob("*.log")) + \
            sorted((FIXTURES / "lab").glob("*.log")):
        dst = COPY.dir / f.name
        shutil.copyfile(f, dst)
        COPY.paths.append(dst)
    COPY.logs = {p: pmulog.parse_file(p) for p in COPY.paths}


def tearDownModule():
    shutil.rmtree(COPY.dir, True)


_run = lab_check.run


def run_in_process(argv, **kw):
    """lab_check.run, with `pmu-harness ...` (lab_check.TOOL) run in this
    process (support.harness), decoded as run decodes a pipe; other
    commands (prove, xmllint) as lab_check runs them."""
    n = len(lab_check.TOOL)
    if argv[:n] != lab_check.TOOL:
        return _run(argv, **kw)
    r = harness(*argv[n:], **kw)
    return (r.returncode, Ran.text(r.stdout_bytes, "replace"),
            Ran.text(r.stderr_bytes, "replace"))


def process(test):
    """A test whose lab_check runs pmu-harness as lab_check does, in a
    process of its own (the others: run_in_process)."""
    test.process = True
    return test


class Base(unittest.TestCase):
    # lab_check runs pmu-harness in this process (run_in_process), but for
    # the tests marked @process: what a batch is judged on is the tool's
    # status and output, the same either way.
    def setUp(self):
        if not getattr(getattr(self, self._testMethodName), "process",
                       False):
            p = mock.patch.object(lab_check, "run", run_in_process)
            p.start()
            self.addCleanup(p.stop)
        self.dir, self.paths, self.logs = COPY.dir, COPY.paths, COPY.logs

    def named(self, *names):
        return [p for p in self.paths if p.name in names]

    def without(self, *names):
        return [p for p in self.paths if p.name not in names]

    def batch_only(self, alone):
        """Fails the test when lab_check runs a log alone (the function
        named alone): the batch itself must have judged every log."""
        return mock.patch.object(lab_check, alone, side_effect=AssertionError(
            f"{alone}: a log was run alone"))


_alone = {}


class Prove(Base):
    def alone(self, paths):
        """The prove checks said when each log runs alone (prove runs once
        per log for the module)."""
        for p in paths:
            if p not in _alone:
                c = Record()
                lab_check.check_prove(c, p, self.logs[p])
                _alone[p] = c.said
        return sorted(x for p in paths for x in _alone[p])

    def test_the_batch_says_what_running_alone_says(self):
        paths = self.without(BAIL)
        c = Record()
        with self.batch_only("check_prove"):
            lab_check.batch_prove(c, paths, self.logs)
        self.assertEqual(sorted(c.said), self.alone(paths))
        # prove passes a log without a summary, the log does not pass:
        # the check fails in the batch as alone
        self.assertIn((False, "no-summary.log: prove PASS, the log does "
                       "not pass"), c.said)

    def test_a_bail_out_in_the_batch_runs_every_log_alone(self):
        # prove stops at a Bail out!: the logs after it get no line, and
        # the bailing log's own line may say "ok"
        paths = self.named("p54c.log", BAIL, "selftest.log",
                           "no-summary.log")
        c = Record()
        lab_check.batch_prove(c, paths, self.logs)
        self.assertEqual(sorted(c.said), self.alone(paths))
        self.assertIn((True, "bail-out.log: prove FAIL, the log does not "
                       "pass"), c.said)

    def test_skip_all_tells_nothing(self):
        skip = self.dir / "skip-all.log"
        skip.write_text("TAP version 13\n1..0 # SKIP no PMU\n")
        _, out, _ = lab_check.run(lab_check.PROVE + [str(skip)])
        self.assertIn(f"{skip} .. skipped: no PMU", out)
        self.assertEqual(lab_check.prove_lines(out, [skip]), {})

    def test_failure_lines_follow_the_name(self):
        a, b = Path("/x/a.log"), Path("/x/b.log")
        out = ("/x/a.log .. \nFailed 1/2 subtests \n/x/b.log .. ok\n\n"
               "Test Summary Report\n")
        v = lab_check.prove_lines(out, [a, b])
        self.assertEqual(v[a], (False, ["/x/a.log .. ",
                                        "Failed 1/2 subtests "]))
        self.assertTrue(v[b][0])


class Parse(Base):
    @process
    def test_intact_logs_in_one_call(self):
        intact = [p for p in self.paths if not self.logs[p].parse_errors]
        self.assertFalse(DAMAGED & {p.name for p in intact})
        c = Record()
        with self.batch_only("check_parse"):
            lab_check.batch_parse(c, intact, self.logs)
        self.assertEqual(len(c.said), len(intact), c.said)
        self.assertTrue(all(ok for ok, _ in c.said), c.said)
        self.assertTrue(all("parse exit 0 (want 0)" in t for _, t in c.said))

    def test_a_batch_exiting_3_is_checked_log_by_log(self):
        paths = self.named("p54c.log", *DAMAGED)
        c = Record()
        lab_check.batch_parse(c, paths, self.logs)
        self.assertEqual(len(c.said), len(paths), c.said)
        self.assertTrue(all(ok for ok, _ in c.said), c.said)
        for name in DAMAGED:
            self.assertTrue(c.about(name, "parse exit 3 (want 3)"), c.said)


class Compare(Base):
    def test_pairs_in_one_call(self):
        intact = [p for p in self.paths if not self.logs[p].parse_errors]
        c = Record()
        with self.batch_only("check_compare_self"):
            lab_check.batch_compare(c, intact, self.logs)
        self.assertEqual(len(c.said), len(intact), c.said)
        self.assertTrue(all(ok for ok, _ in c.said), c.said)

    def test_damage_in_the_batch_is_checked_log_by_log(self):
        paths = self.named("p54c.log", "selftest.log", "truncated.log")
        c = Record()
        lab_check.batch_compare(c, paths, self.logs)
        self.assertEqual(len(c.said), len(paths), c.said)
        self.assertTrue(all(ok for ok, _ in c.said), c.said)
        self.assertTrue(c.about("truncated.log", "compared with itself, "
                                "exit 3 (want 3)"), c.said)


class Capture(Base):
    def setUp(self):
        super().setUp()
        self.serial = []
        for name in SERIAL:
            p = self.dir / Path(name).name
            p.with_name(p.name[:-len(".log")] + ".volume.log").write_text(
                tap_part(fixture_text(name)),
                newline="")
            self.serial.append(p)
        self.out = Path(tempfile.mkdtemp(prefix="pmu-labcheck-out-"))
        self.addCleanup(shutil.rmtree, self.out, True)

    def test_ports_in_one_capture(self):
        c = Record()
        with self.batch_only("check_capture"):
            lab_check.batch_capture(c, self.serial, self.out)
        self.assertEqual(len(c.said), 2, c.said)
        self.assertTrue(all(ok for ok, _ in c.said), c.said)
        self.assertTrue(all("for all 2 ports" in t for _, t in c.said))

    def test_a_wrong_volume_log_fails_its_log_only(self):
        v = self.serial[1].with_name("nehalem-verbose.serial.volume.log")
        v.write_text(v.read_text() + "# one line more\n")
        c = Record()
        with self.batch_only("check_capture"):
            lab_check.batch_capture(c, self.serial, self.out)
        self.assertEqual([ok for ok, _ in c.said], [True, False], c.said)

    def test_the_last_lines_name_each_ports_log(self):
        d = Path("/o")
        a, b = Path("/l/a.log"), Path("/l/b.log")
        out = ("/l/a.log: /o/m-1.log: passed=1 failed=0 skipped=0\n"
               "/l/b.log: /o/m-1-2.log: passed=1 failed=0 skipped=0\n")
        self.assertEqual(lab_check.captured_logs(out, [a, b], d),
                         {a: d / "m-1.log", b: d / "m-1-2.log"})



class JUnitKinds(Base):
    def test_pass_fail_hung_damaged_against_every_schema(self):
        """The fixtures hold a passing, a failing, a hung (truncated-kill:
        cut while apic/pmi-during-trace-cpl0 ran, its line 98) and a
        damaged log; their JUnit is valid against the project's schema,
        Jenkins xUnit's and Ant's, and names the hung test."""
        c = Record()
        with tempfile.TemporaryDirectory(prefix="pmu-labkinds-") as d:
            lab_check.check_junit_kinds(c, self.paths, self.logs, Path(d))
        kinds = [t for ok, t in c.said if t.startswith("junit: a ")]
        self.assertEqual(len(kinds), 4, c.said)
        self.assertEqual(
            sorted(t for ok, t in c.said if ok and "valid against" in t),
            ["junit: junit-kinds.xml valid against JUnit.xsd",
             "junit: junit-kinds.xml valid against junit-10.xsd",
             "junit: junit-kinds.xml valid against junit.xsd"])
        self.assertIn((True, "junit: truncated-kill.log: the test in "
                       "flight, apic/pmi-during-trace-cpl0, is an error of "
                       "its own"), c.said)
        self.assertTrue(all(ok for ok, _ in c.said), c.said)


if __name__ == "__main__":
    unittest.main()
