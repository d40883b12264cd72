"""pmu-harness compare (tools/lab/compare.py): two runs' logs compared per
test and per value, on the lab fixtures and on logs edited from them.

No hardware log exists in the fixtures (no PMU here): hw() below makes
one from a model log the way the harness writes it on hardware
(harness/pmu_run.c pmu_check_counter): "# backend: hw ...", the run lines'
"backend=hw", and oracles "increment LO..HI (WHY)" where a range is
allowed.
"""

import json
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import (FIXTURES, PY, PMU_HARNESS, fixture_text,
                                   harness)

from tools.lab import pmulog
from tools.lab import compare
from tools.lab.compare_tolerances import ToleranceError, from_text, load

LAB = FIXTURES / "lab"
SKYLAKE = "lab/skylake-model.serial.log"
P54C = "lab/p54c-model.log"
DAMAGED = {"lab/truncated-kill.log", "truncated.log", "no-summary.log"}
ALL_FIXTURES = sorted(str(p.relative_to(FIXTURES))
                      for p in list(FIXTURES.glob("*.log")) +
                      list(LAB.glob("*.log")))
SLACK = "+512 for the driver's CPL 0 code"
CLOCKS = "instructions/8 <= core clocks <= 4 TSC spans"


def edit(text, changes):
    """text with values of tests changed: changes maps (test, key) to the
    new value text (None: the line removed).  Line ends are kept."""
    out, test, done = [], None, set()
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        m = re.match(r"^(?:not )?ok \d+ - (\S+)", body)
        if m:
            test = m.group(1)
        m = re.match(r"^  ([A-Za-z0-9_^-]+): (.*)$", body)
        if m and (test, m.group(1)) in changes:
            new = changes[(test, m.group(1))]
            done.add((test, m.group(1)))
            if new is None:
                continue
            line = f"  {m.group(1)}: {new}" + line[len(body):]
        out.append(line)
    missing = set(changes) - done
    assert not missing, f"no such values: {missing}"
    return "".join(out)


def set_result(text, test, new):
    """text with the result line of test replaced by new ("not ok",
    "ok ... # SKIP why": the number is kept)."""
    pat = re.compile(r"^(?:not )?ok (\d+) - " + re.escape(test) +
                     r"(?: # SKIP.*)?(\r?)$", re.M)
    assert pat.search(text), test
    return pat.sub(lambda m: new.format(n=m.group(1)) + m.group(2), text,
                   count=1)


def hw(text, ranges=(), values=None):
    """A hardware log made from a model log: the backend line and the run
    lines say hw; ranges maps (test, key) to (lo, hi, why) written as the
    key's oracle "increment LO..HI (WHY)"; values maps (test, key) to the
    value read."""
    text = re.sub(r"^# backend: model reason=\"[^\"]*\"",
                  '# backend: hw reason="write/read-back probe found '
                  'counters (synthesized for the tests)"', text,
                  count=1, flags=re.M)
    text = text.replace("backend=model", "backend=hw")
    changes = {(t, f"{k}_oracle"): f"increment {lo}..{hi} ({why})"
               for (t, k), (lo, hi, why) in dict(ranges).items()}
    changes.update(values or {})
    return edit(text, changes)


class Tmp:
    """A temporary directory of logs and tolerance files."""

    def __init__(self):
        self.path = Path(tempfile.mkdtemp(prefix="pmu-compare-"))

    def write(self, name, text):
        p = self.path / name
        p.write_text(text, newline="")
        return str(p)

    def cleanup(self):
        shutil.rmtree(self.path, ignore_errors=True)


def cli(*args):
    """pmu-harness compare, in this process (support.harness); (status,
    stdout+stderr).  ArgumentsAreData runs the command itself."""
    r = harness("compare", *args)
    return r.returncode, r.output


def lines(out, word):
    return [l for l in out.splitlines() if l.endswith(" " + word)]


_parsed = {}


def parsed(text, name):
    """pmulog.parse(text, name), parsed once per text for the module (the
    same fixture is side A of most comparisons; compare_logs only reads
    the logs)."""
    if (text, name) not in _parsed:
        _parsed[(text, name)] = pmulog.parse(text, name)
    return _parsed[(text, name)]


def compared(text_a, text_b, tol=None):
    """compare_logs on two texts, with the default or the given (text)
    tolerances."""
    t = load(compare.DEFAULT_TOLERANCES) if tol is None else \
        from_text(tol, "tol.yaml")
    return compare.compare_logs(parsed(text_a, "a.log"),
                                parsed(text_b, "b.log"), t)


def summaries(out):
    """The "compare: N regression(s), ..." lines: one per pair compared."""
    return [l for l in out.splitlines() if l.startswith("compare: ")]


def shown(cmp):
    return [e.text() for e in cmp.sorted_entries()]


def tests(cmp):
    """shown(cmp) without the header lines."""
    return [e.text() for e in cmp.sorted_entries() if e.test]


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = Tmp()

    def tearDown(self):
        self.tmp.cleanup()

    def run_pair(self, text_a, text_b, *extra):
        a = self.tmp.write("a.log", text_a)
        b = self.tmp.write("b.log", text_b)
        return cli(a, b, *extra)


class SelfCompare(Base):
    def test_every_fixture_against_itself_is_clean(self):
        for name in ALL_FIXTURES:
            with self.subTest(fixture=name):
                path = str(FIXTURES / name)
                status, out = cli(path, path)
                want = 3 if name in DAMAGED else 0
                self.assertEqual(status, want, out)
                self.assertIn("compare: 0 regression(s), 0 improvement(s),"
                              " 0 changed, 0 info;", out)
                body = [l for l in out.splitlines()
                        if not l.startswith(("A: ", "B: ", "tolerances: ",
                                             "compare: ", "pmu-harness "))]
                self.assertEqual(body, [])
                if name in DAMAGED:     # FILE:LINE (or FILE:) on stderr
                    self.assertIn(f"pmu-harness compare: {path}:", out)
                    # an untrusted verdict heads each side (a log cut
                    # while a test ran is HUNG, one cut between them CUT)
                    self.assertRegex(out, r"\nB: .*\), (HUNG|CUT|DAMAGED): ")

    def test_self_compare_json_has_no_entries(self):
        path = str(FIXTURES / SKYLAKE)
        status, out = cli(path, path, "--json")
        self.assertEqual(status, 0, out)
        doc = json.loads(out)
        self.assertEqual(doc["entries"], [])
        self.assertEqual(doc["exit_status"], 0)
        self.assertEqual(doc["tests"]["both"], 134)
        self.assertEqual(doc["a"]["backend"], "model")
        self.assertFalse(doc["a"]["hardware"])
        self.assertEqual(doc["a"]["label"],
                         "Core 6th gen (Skylake) 0x506e3 "
                         "[skylake-model.serial]")

    def test_all_lists_the_same_values(self):
        path = str(FIXTURES / P54C)
        status, out = cli(path, path, "--all")
        self.assertEqual(status, 0, out)
        self.assertIn("p5/cc-001 cpl0_ctr0: 806 -> 806 same", out)
        self.assertIn("p5/cc-001 cpl0_ctr0_config: ES=0x16 CC=001 PC=0 -> "
                      "ES=0x16 CC=001 PC=0 same", out)


class Counters(Base):
    def setUp(self):
        super().setUp()
        self.a = fixture_text(SKYLAKE)
        self.b = edit(self.a, {("perfmon/event-branches", "cpl3_ctr0"):
                               "330"})

    def test_beyond_tolerance_is_a_regression(self):
        status, out = self.run_pair(self.a, self.b)
        self.assertEqual(status, 1, out)
        self.assertEqual(lines(out, "REGRESSION"), [
            "perfmon/event-branches cpl3_ctr0: 323 -> 330 (+7, tolerance 0)"
            " REGRESSION"])
        self.assertIn("compare: 1 regression(s), 0 improvement(s), "
                      "0 changed, 0 info;", out)

    def test_lower_is_a_regression_too(self):
        b = edit(self.a, {("perfmon/event-branches", "cpl3_ctr0"): "320"})
        self.assertEqual(shown(compared(self.a, b)), [
            "perfmon/event-branches cpl3_ctr0: 323 -> 320 (-3, tolerance 0)"
            " REGRESSION"])

    def test_within_an_event_rule_is_clean(self):
        tol = self.tmp.write("tol.yaml", 'values:\n'
                             '  - event: "*Branch Instruction Retired*"\n'
                             '    abs: 10\n')
        status, out = self.run_pair(self.a, self.b, "--tolerance", tol)
        self.assertEqual(status, 0, out)
        self.assertIn("perfmon/event-branches cpl3_ctr0: 323 -> 330 "
                      "(+7, tolerance 10) changed", out)

    def test_rel_rule_and_first_match_wins(self):
        tol = ('values:\n'
               '  - test: "perfmon/event-branches"\n    key: "cpl3_*"\n'
               '    rel: 0.01\n'                 # 3.23: +7 is too much
               '  - key: "cpl3_ctr0"\n    abs: 100\n')
        cmp = compared(self.a, self.b, tol)
        self.assertEqual(shown(cmp), [
            "perfmon/event-branches cpl3_ctr0: 323 -> 330 (+7, tolerance "
            "3.23 (rel 0.01)) REGRESSION"])
        tol = tol.replace("rel: 0.01", "rel: 0.05")      # 16.15
        self.assertEqual(compared(self.a, self.b, tol).regressions, 0)

    def test_rule_for_another_test_does_not_apply(self):
        tol = 'values:\n  - test: "perfmon/event-core-*"\n    abs: 100\n'
        self.assertEqual(compared(self.a, self.b, tol).regressions, 1)

    def test_ignore_rule(self):
        tol = 'values:\n  - key: "cpl3_ctr0"\n    ignore: true\n'
        cmp = compared(self.a, self.b, tol)
        self.assertEqual((cmp.regressions, shown(cmp)), (0, []))
        self.assertIn("perfmon/event-branches cpl3_ctr0: 323 -> 330 "
                      "(values rule 1) ignored",
                      [e.text() for e in cmp.sorted_entries(compare.ORDER)])

    def test_changed_oracle_is_listed(self):
        b = edit(self.a, {("perfmon/event-branches", "cpl3_ctr0"): "324",
                          ("perfmon/event-branches", "cpl3_ctr0_oracle"):
                          "324"})
        self.assertEqual(shown(compared(self.a, b)), [
            "perfmon/event-branches cpl3_ctr0: 323 -> 324 (+1, tolerance 0;"
            " oracle 323 -> 324) REGRESSION"])


class OtherValues(Base):
    def setUp(self):
        super().setUp()
        self.a = fixture_text(P54C)

    def test_changed_value_is_listed_not_a_regression(self):
        b = edit(self.a, {("p5/cc-001", "cpl0_cesr"): "0x00400057"})
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 0, out)
        self.assertIn("p5/cc-001 cpl0_cesr: 0x00400056 -> 0x00400057 "
                      "changed", out)

    def test_a_rule_can_make_it_a_regression(self):
        b = edit(self.a, {("p5/cc-001", "cpl0_cesr"): "0x00400057"})
        tol = 'values:\n  - key: "*_cesr"\n    regression: true\n'
        self.assertEqual(shown(compared(self.a, b, tol)), [
            "p5/cc-001 cpl0_cesr: 0x00400056 -> 0x00400057 (values rule 1)"
            " REGRESSION"])

    def test_addresses_and_timing_are_noise(self):
        b = edit(self.a, {
            ("apic/lvtpc-fixed-self-ipi", "pmi_rip"):
            "0x5f9381f (image+0x681f)",
            ("apic/lvtpc-fixed-self-ipi", "pmi_frame_rip"):
            "0x5f9381f (image+0x681f) cpl=0 rflags=0x202"})
        b = b.replace('logfile="\\pmu-harness\\20261122-064953.log"',
                      'logfile="\\pmu-harness\\20270101-000000.log"')
        b = b.replace("# memory: free_mib=212", "# memory: free_mib=100")
        cmp = compared(self.a, b)
        self.assertEqual(shown(cmp), [])
        ignored = [e.key for e in cmp.entries if e.verdict == "ignored"]
        self.assertEqual(ignored, ["pmi_rip", "pmi_frame_rip"])

    def test_header_changes_are_info(self):
        b = self.a.replace("# harness: pmu-harness 0.1.0",
                           "# harness: pmu-harness 0.2.0")
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 0, out)
        self.assertIn("header harness: pmu-harness 0.1.0 -> pmu-harness "
                      "0.2.0 info", out)


class Statuses(Base):
    def setUp(self):
        super().setUp()
        self.a = fixture_text(P54C)

    def test_ok_to_not_ok(self):
        b = set_result(self.a, "p5/cc-001", "not ok {n} - p5/cc-001")
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 1, out)
        self.assertEqual(lines(out, "REGRESSION"),
                         ["p5/cc-001: ok -> not ok REGRESSION"])

    def test_not_ok_to_ok_is_an_improvement(self):
        b = set_result(self.a, "p5/cc-001", "not ok {n} - p5/cc-001")
        # a summary that agrees with the failure: A is a failed run, not
        # a damaged log (docs/log-format.md, "End")
        b = b.replace("# summary: passed=136 failed=0 ",
                      "# summary: passed=135 failed=1 ")
        status, out = self.run_pair(b, self.a)
        self.assertEqual(status, 0, out)
        self.assertIn("p5/cc-001: not ok -> ok improvement", out)

    def test_ok_to_skip(self):
        b = set_result(self.a, "p5/cc-001",
                       "ok {n} - p5/cc-001 # SKIP no counters")
        self.assertEqual(shown(compared(self.a, b)), [
            "p5/cc-001: ok -> skip (no counters) REGRESSION"])
        tol = 'tests:\n  - test: "p5/*"\n    skipped: info\n'
        self.assertEqual(shown(compared(self.a, b, tol)), [
            "p5/cc-001: ok -> skip (no counters) info"])

    def test_missing_and_new_tests(self):
        b = re.sub(r"^ok (\d+) - p5/cc-001$", r"ok \1 - p5/cc-001-renamed",
                   self.a, flags=re.M)
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 1, out)
        self.assertEqual(lines(out, "REGRESSION"), [
            "p5/cc-001: only in A (ok), missing in B REGRESSION"])
        self.assertIn("p5/cc-001-renamed: new in B (ok) info", out)
        self.assertIn("tests: 206 in both, 1 only in A, 1 only in B", out)
        tol = 'tests:\n  - test: "p5/cc-*"\n    missing: info\n'
        self.assertEqual(compared(self.a, b, tol).regressions, 0)


class NotSelected(Base):
    """A test A ran that B's tests= (its '# options:' line) did not
    choose is no regression: it goes apart, as "not selected" (issue
    43); one B's selection chose and lost still is.  The harness's glob
    (lib/string.c str_glob): '*' any run, '?' one character."""

    def setUp(self):
        super().setUp()
        self.a = fixture_text(P54C)

    def narrowed(self, tests):
        b = re.sub(r"^ok (\d+) - p5/cc-001$", r"ok \1 - p5/cc-001-renamed",
                   self.a, flags=re.M)
        return re.sub(r"^# options: tests=\S*", f"# options: tests={tests}",
                      b, flags=re.M)

    def test_not_selected_is_apart(self):
        cmp = compared(self.a, self.narrowed("p5/cc-001-*,p5/rdpmc*,x?"))
        self.assertEqual(cmp.regressions, 0)
        self.assertEqual([e.text() for e in cmp.not_selected], [
            "p5/cc-001: only in A (ok), not selected by B's tests= info"])

    def test_selected_and_missing_is_a_regression(self):
        cmp = compared(self.a, self.narrowed("p5/cc-00?,p5/*"))
        self.assertEqual(cmp.not_selected, [])
        self.assertEqual(cmp.regressions, 1)

    def test_status_regressions_come_first(self):
        b = self.narrowed("*")
        b = set_result(b, "p5/rdpmc-cpl3-pce-set",
                       "not ok {n} - p5/rdpmc-cpl3-pce-set")
        got = [e.text() for e in compared(self.a, b).sorted_entries(
            ("regression",))]
        self.assertEqual(got[0], "p5/rdpmc-cpl3-pce-set: ok -> not ok "
                         "REGRESSION")
        self.assertIn("p5/cc-001: only in A (ok), missing in B REGRESSION",
                      got[1:])


# Another machine: the P55C's "# cpu:" line (Pentium with MMX technology,
# CPUID signature 0x543; SDM Vol. 2A, CPUID, family 5 model 4) in place of
# the P54C's.
P54C_CPU = 'signature=0x525 name="Pentium (P54C)"'
P55C_CPU = 'signature=0x543 name="Pentium with MMX technology (P55C)"'


class AcrossMachines(Base):
    """What differs because B is another machine (or backend) is not a
    regression; a failure is one wherever it is."""

    def setUp(self):
        super().setUp()
        self.a = fixture_text(P54C)
        self.assertIn(P54C_CPU, self.a)

    def other_machine(self, text):
        return text.replace(P54C_CPU, P55C_CPU)

    def test_new_failing_test_in_b_is_a_regression(self):
        b = set_result(self.a, "p5/cc-001", "not ok {n} - p5/cc-new")
        tol = self.tmp.write("tol.yaml", 'tests:\n  - test: "p5/*"\n'
                             "    missing: info\n")
        status, out = self.run_pair(self.a, b, "--tolerance", tol)
        self.assertEqual(status, 1, out)
        self.assertEqual(lines(out, "REGRESSION"), [
            "p5/cc-new: new in B (not ok) REGRESSION"])
        # on another machine too; a new test that passes is info
        status, out = self.run_pair(self.a, self.other_machine(b))
        self.assertEqual(status, 1, out)
        self.assertIn("p5/cc-new: new in B (not ok) REGRESSION", out)
        b = set_result(self.a, "p5/cc-001", "ok {n} - p5/cc-new")
        self.assertIn("p5/cc-new: new in B (ok) info",
                      shown(compared(self.a, b, 'tests:\n  - test: "p5/*"'
                                     '\n    missing: info\n')))

    def test_skip_on_another_machine_is_not_a_regression(self):
        b = set_result(self.a, "p5/cc-001",
                       "ok {n} - p5/cc-001 # SKIP no counters")
        # its summary counts the skip: B is a whole log, not a damaged one
        b = b.replace("# summary: passed=136 failed=0 skipped=71",
                      "# summary: passed=135 failed=0 skipped=72")
        self.assertEqual(tests(compared(self.a, self.other_machine(b))), [
            "p5/cc-001: ok -> skip (no counters) (not applicable on B's "
            "machine) info"])
        status, _ = self.run_pair(self.a, self.other_machine(b))
        self.assertEqual(status, 0)
        # the same machine: the tolerance file's policy (a regression)
        self.assertEqual(compared(self.a, b).regressions, 1)
        # the same CPU on another backend is another machine too
        hw_b = b.replace("# backend: model", "# backend: hw")
        self.assertEqual(compared(self.a, hw_b).regressions, 0)

    def test_test_not_run_on_another_machine(self):
        b = self.other_machine(re.sub(
            r"^ok (\d+) - p5/cc-001$", r"ok \1 - p5/cc-001-renamed",
            self.a, flags=re.M))
        self.assertIn("p5/cc-001: only in A (ok), missing in B, not run "
                      "on B's machine info", tests(compared(self.a, b)))
        # a cut run lost it: still a regression
        cut = b[:b.index("\n1..207")] + "\n"
        self.assertIn("p5/cc-001: only in A (ok), missing in B REGRESSION",
                      shown(compared(self.a, cut)))

    def test_oracle_moved_with_the_machine(self):
        # a counter that read its own oracle on each side (a wider
        # counter wraps later): changed, not a regression
        b = edit(self.a, {("p5/cc-001", "cpl0_ctr0"): "807",
                          ("p5/cc-001", "cpl0_ctr0_oracle"): "807"})
        self.assertEqual(tests(compared(self.a, self.other_machine(b))), [
            "p5/cc-001 cpl0_ctr0: 806 -> 807 (+1, tolerance 0; oracle 806 "
            "-> 807, each side its own oracle's value) changed"])
        # on the same machine a moved oracle is a regression
        # (Counters.test_changed_oracle_is_listed); so is a value off
        # its own oracle on another machine
        b = edit(self.a, {("p5/cc-001", "cpl0_ctr0"): "808",
                          ("p5/cc-001", "cpl0_ctr0_oracle"): "807"})
        self.assertEqual(compared(self.a, self.other_machine(b))
                         .regressions, 1)

    def test_addresses_in_text_are_noise(self):
        # the example: pt/msr-output-offset's after_run on two
        # machines whose firmware put the output buffer elsewhere
        key = ("p5/cc-001", "cpl0_cesr")
        a = edit(self.a, {key: "OUTPUT_BASE 0xfe20000 MASK_PTRS "
                               "0x500000ffff"})
        b = edit(self.a, {key: "OUTPUT_BASE 0x7e20000 MASK_PTRS "
                               "0x500000ffff"})
        cmp = compared(a, b)
        self.assertEqual(shown(cmp), [])
        self.assertEqual([(e.key, e.verdict) for e in cmp.entries
                          if e.verdict != "same"],
                         [("cpl0_cesr", "ignored")])
        # the value beside it still counts; so does a number after a
        # word that is not an address's
        c = edit(self.a, {key: "OUTPUT_BASE 0x7e20000 MASK_PTRS "
                               "0x500000fffe"})
        self.assertEqual(len(shown(compared(a, c))), 1)
        d = edit(self.a, {key: "refused, base 0xe294404 flags 0x40"})
        e = edit(self.a, {key: "refused, base 0xe284404 flags 0x80"})
        self.assertEqual(len(shown(compared(d, e))), 1)
        d2 = edit(self.a, {key: "refused, base 0xe284404 flags 0x40"})
        self.assertEqual(shown(compared(d, d2)), [])


class Hardware(Base):
    """A model run compared with a hardware run: the hardware log's
    stated range is the tolerance."""

    CC = ("p5/cc-001", "cpl0_ctr0")          # model: 806, CPL 0 counted

    def setUp(self):
        super().setUp()
        self.model = fixture_text(P54C)

    def hw_log(self, value, lo=806, hi=806 + 512, why=SLACK, at=None):
        at = at or self.CC
        return hw(self.model, {at: (lo, hi, why)}, {at: str(value)})

    def test_within_the_stated_range_is_clean(self):
        status, out = self.run_pair(self.model, self.hw_log(900))
        self.assertEqual(status, 0, out)
        self.assertIn("p5/cc-001 cpl0_ctr0: 806 -> 900 (+94, B's hardware "
                      f"range 806..1318: {SLACK}) changed", out)
        self.assertIn("B: Pentium (P54C) 0x525 [b] (hardware)", out)
        self.assertIn("A: Pentium (P54C) 0x525 [a] (model)", out)
        self.assertIn("header backend: model reason=", out)
        # backend=hw in the run lines is not a change of its own
        self.assertNotIn("cpl0_run", out)

    def test_both_ends_of_the_range(self):
        for v, want in ((806, 0), (1318, 0), (1319, 1), (805, 1)):
            with self.subTest(value=v):
                self.assertEqual(compared(self.model, self.hw_log(v))
                                 .regressions, want)

    def test_outside_the_stated_range_is_a_regression(self):
        status, out = self.run_pair(self.model, self.hw_log(1400))
        self.assertEqual(status, 1, out)
        self.assertEqual(lines(out, "REGRESSION"), [
            "p5/cc-001 cpl0_ctr0: 806 -> 1400 (+594, B's hardware range "
            f"806..1318: {SLACK}) REGRESSION"])

    def test_hardware_as_a_and_json(self):
        status, out = self.run_pair(self.hw_log(900), self.model, "--json")
        self.assertEqual(status, 0, out)
        doc = json.loads(out)
        self.assertTrue(doc["a"]["hardware"])
        e = [e for e in doc["entries"] if e["key"] == "cpl0_ctr0"]
        self.assertEqual(len(e), 1)
        self.assertEqual((e[0]["test"], e[0]["verdict"], e[0]["delta"],
                          e[0]["why"]),
                         ("p5/cc-001", "changed", -94, SLACK))

    def test_exact_on_hardware_stays_exact(self):
        # CPL 3 only: the harness states no range on hardware either
        b = hw(self.model, values={("p5/cc-010", "cpl3_ctr0"): "807"})
        self.assertEqual(shown(compared(self.model, b))[-1],
                         "p5/cc-010 cpl3_ctr0: 806 -> 807 (+1, tolerance 0)"
                         " REGRESSION")

    def test_preset_counter_range_is_shifted_onto_the_oracle(self):
        # A counter preset P counts 1000 events at CPL 0: the model's
        # oracle reads P + 1000 = 99 (it wrapped); the hardware logs the
        # increment's range 1000..1512, so it may read 99..611.  Read as
        # if P were 0, 1000..1512 agrees too (the log has no P).
        at = ("p5/ctr-wraps-at-2^40", "cpl3_ctr0")
        for v, want in ((300, 0), (611, 0), (612, 1), (98, 1), (1200, 0),
                        (1513, 1)):
            with self.subTest(value=v):
                b = self.hw_log(v, 1000, 1512, at=at)
                self.assertEqual(compared(self.model, b).regressions, want)

    def test_clock_range_is_the_read_value(self):
        # "4 TSC spans": the range's ends are not the model's count
        at = ("p5/clocks-vs-events", "cpl3_ctr0")       # model: 65
        for v, want in ((3000, 0), (8, 0), (7, 1), (5000, 1)):
            with self.subTest(value=v):
                b = self.hw_log(v, 8, 4001, CLOCKS, at)
                cmp = compared(self.model, b)
                self.assertEqual(cmp.regressions, want, shown(cmp))

    def test_two_hardware_runs_differ_within_the_range_width(self):
        a = self.hw_log(900)
        self.assertEqual(compared(a, self.hw_log(1318)).regressions, 0)
        self.assertEqual(compared(a, self.hw_log(1600, 806, 1318))
                         .regressions, 1)

    def test_a_tolerance_rule_still_widens(self):
        tol = 'values:\n  - event: "ES=0x16*"\n    abs: 1000\n'
        self.assertEqual(compared(self.model, self.hw_log(1400), tol)
                         .regressions, 0)


class ToleranceFiles(Base):
    def bad(self, text):
        """Runs compare with the tolerance text; returns its one line."""
        tol = self.tmp.write("my tol.yaml", text)
        path = str(FIXTURES / P54C)
        status, out = cli(path, path, "--tolerance", tol)
        self.assertEqual(status, 2, out)
        self.assertNotIn("Traceback", out)
        self.assertEqual(len(out.splitlines()), 1, out)
        self.assertTrue(out.startswith(f"pmu-harness compare: {tol}:"), out)
        return out.strip()

    def test_unknown_key_names_file_line_and_rule(self):
        out = self.bad('values:\n  - key: "a"\n    abs: 1\n'
                       '  - key: "b"\n    abss: 2\n')
        self.assertIn(":5: values rule 2: unknown key 'abss' (known: "
                      "test, key, event, abs, rel, ignore, regression)", out)

    def test_malformed_yaml(self):
        out = self.bad('values:\n  - key: "a\n    abs: 1\n')
        self.assertIn("not valid YAML", out)

    def test_wrong_types_and_values(self):
        for text, want in (
                ('values:\n  - key: "a"\n    abs: -1\n',
                 ":3: values rule 1: abs must be a number >= 0, not -1"),
                ('values:\n  - key: "a"\n    ignore: yes please\n',
                 "values rule 1: ignore must be true or false"),
                ('values:\n  - key: 5\n    abs: 1\n',
                 "values rule 1: key must be a glob string, not int"),
                ('values:\n  - key: "a"\n',
                 ":2: values rule 1: says nothing"),
                ('values: {key: a}\n', ":1: values: a list is needed"),
                ('tests:\n  - test: "a"\n    skipped: maybe\n',
                 "tests rule 1: skipped must be one of regression, info"),
                ('addresses:\n  - base\n  - 7\n',
                 ":2: addresses: 7 is not a word"),
                ('addresses: base\n', ":1: addresses: a list is needed"),
                ('default:\n  abs: 1\n',
                 ":1: the file: unknown key 'default'"),
                ('- 1\n', "the file: a mapping is needed, not a list")):
            with self.subTest(text=text):
                self.assertIn(want, self.bad(text))

    def test_missing_file(self):
        path = str(FIXTURES / P54C)
        status, out = cli(path, path, "--tolerance",
                          str(self.tmp.path / "none.yaml"))
        self.assertEqual(status, 2, out)
        self.assertIn("none.yaml: cannot read: No such file", out)

    def test_shipped_file_is_valid(self):
        t = load(compare.DEFAULT_TOLERANCES)
        self.assertEqual(t.default.allowed(1000), 0)
        self.assertTrue(t.value_rule("any/test", "rip_in_image", None)
                        .ignore)
        self.assertIsNone(t.value_rule("p5/cc-001", "cpl0_ctr0",
                                       "ES=0x16 CC=001 PC=0"))

    def test_from_text_raises_tolerance_error(self):
        with self.assertRaises(ToleranceError):
            from_text("values: [1]\n")


class DamagedLogs(Base):
    def setUp(self):
        super().setUp()
        self.a = fixture_text(P54C)

    def test_garbage_lines_exit_3_with_file_and_line(self):
        b = self.a.replace("ok 3 - apic/lvtpc-masked-fixed\n",
                           "ok 3 - apic/lvtpc-masked-fixed\n"
                           "\x1b[2JBdsDxe: firmware noise\n")
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 3, out)
        bpath = str(self.tmp.path / "b.log")
        self.assertIn(f"pmu-harness compare: {bpath}:", out)
        self.assertIn("B: Pentium (P54C) 0x525 [b] (model), DAMAGED", out)
        self.assertIn("B is DAMAGED", out)
        self.assertIn("0 regression(s)", out)
        # the count line says what the exit status says (issue 43)
        self.assertRegex(out, r"compare: 0 regression\(s\), .*; DAMAGED: "
                              r"exit 3\n")

    def test_a_regression_is_not_hidden_by_damage(self):
        b = self.a.replace("ok 3 - apic/lvtpc-masked-fixed\n",
                           "ok 3 - apic/lvtpc-masked-fixed\ngarbage\n")
        b = edit(b, {("p5/cc-001", "cpl0_ctr0"): "807"})
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 1, out)
        self.assertIn("p5/cc-001 cpl0_ctr0: 806 -> 807", out)
        self.assertIn("B is DAMAGED", out)

    def test_truncated_log_loses_tests(self):
        cut = self.a.index("ok 60 - p5/event-0x00-ctr0")
        b = self.a[:cut + 40]               # inside its YAML block
        status, out = self.run_pair(self.a, b)
        self.assertEqual(status, 1, out)        # the lost tests
        self.assertIn("p5/event-0x01-ctr0: only in A (ok), missing in B "
                      "REGRESSION", out)
        self.assertIn("no plan '1..N'", out)
        tol = self.tmp.write("t.yaml", "tests:\n  - missing: info\n")
        status, out = self.run_pair(self.a, b, "--tolerance", tol)
        self.assertEqual(status, 3, out)
        # what was read is still compared
        self.assertIn("tests: 60 in both, 147 only in A", out)

    def test_unreadable_log(self):
        path = str(FIXTURES / P54C)
        status, out = cli(path, str(self.tmp.path / "gone.log"))
        self.assertEqual(status, 2, out)
        self.assertIn("gone.log: cannot read", out)


class SeveralPairs(Base):
    """compare A B A2 B2 ...: each pair on its own, as by one command per
    pair; the exit status is the worst (2, then 1, then 3)."""

    def setUp(self):
        super().setUp()
        self.p54c = fixture_text(P54C)
        self.clean = self.tmp.write("clean.log", self.p54c)
        self.worse = self.tmp.write("worse.log", edit(
            self.p54c, {("p5/cc-001", "cpl0_ctr0"): "807"}))
        self.damaged = self.tmp.write("damaged.log", self.p54c.replace(
            "ok 3 - apic/lvtpc-masked-fixed\n",
            "ok 3 - apic/lvtpc-masked-fixed\ngarbage\n"))

    def test_each_pair_is_one_block(self):
        sky = str(FIXTURES / SKYLAKE)
        status, out = cli(self.clean, self.clean, sky, sky)
        self.assertEqual(status, 0, out)
        blocks = out.split("\n\n")
        self.assertEqual(len(blocks), 2, out)
        self.assertTrue(blocks[0].startswith(
            "A: Pentium (P54C) 0x525 [clean] (model), PASSED: "), out)
        self.assertTrue(blocks[1].startswith(
            "A: Core 6th gen (Skylake) 0x506e3 [skylake-model.serial] "
            "(model), PASSED: "), out)
        for block in blocks:
            self.assertEqual(len(summaries(block)), 1, block)
            self.assertIn("compare: 0 regression(s), 0 improvement(s), "
                          "0 changed, 0 info;", block)

    def test_a_block_is_what_one_pair_prints(self):
        _, one = cli(self.clean, self.worse)
        status, out = cli(self.clean, self.clean, self.clean, self.worse)
        self.assertEqual(status, 1, out)
        self.assertEqual(out.split("\n\n")[1], one)

    def test_worst_status_wins(self):
        c, w, d = self.clean, self.worse, self.damaged
        self.assertEqual(cli(c, c, w, c)[0], 1)       # a regression
        self.assertEqual(cli(w, c, c, c)[0], 1)       # in the first pair
        self.assertEqual(cli(c, c, d, d)[0], 3)       # damaged, no regression
        self.assertEqual(cli(d, d, c, w)[0], 1)       # 1 outranks 3
        status, out = cli(c, w, c, str(self.tmp.path / "gone.log"))
        self.assertEqual(status, 2, out)              # unreadable: 2 ...
        self.assertIn("gone.log: cannot read", out)
        self.assertFalse(summaries(out), out)         # ... nothing compared

    def test_damage_is_told_per_pair(self):
        status, out = cli(self.clean, self.clean, self.clean, self.damaged)
        self.assertEqual(status, 3, out)
        self.assertIn(f"pmu-harness compare: {self.damaged}:", out)
        self.assertIn(f"pmu-harness compare: {self.damaged}: B is DAMAGED",
                      out)
        self.assertNotIn(f"{self.clean}: A is", out)

    def test_json_lists_the_pairs(self):
        status, out = cli(self.clean, self.clean, self.clean, self.worse,
                          "--json")
        self.assertEqual(status, 1, out)
        doc = json.loads(out)
        self.assertEqual(doc["exit_status"], 1)
        self.assertEqual([c["exit_status"] for c in doc["comparisons"]],
                         [0, 1])
        self.assertEqual(doc["comparisons"][0]["entries"], [])
        self.assertEqual(doc["comparisons"][1]["b"]["path"], self.worse)
        self.assertEqual(doc["comparisons"][1]["counts"]["regression"], 1)

    def test_an_odd_number_of_logs_is_a_usage_error(self):
        status, out = cli(self.clean, self.clean, self.worse)
        self.assertEqual(status, 2, out)
        self.assertIn(f"{self.worse}: no B.log to compare it with", out)
        self.assertFalse(summaries(out), out)


class ArgumentsAreData(Base):
    def test_names_with_dash_and_spaces(self):
        text = fixture_text(P54C)
        self.tmp.write("-x", text)
        self.tmp.write("with space; $(false).log", edit(
            text, {("p5/cc-001", "cpl0_ctr0"): "807"}))
        p = subprocess.run(
            [PY, str(PMU_HARNESS), "compare", "--", "-x",
             "with space; $(false).log"], cwd=self.tmp.path,
            capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("B: Pentium (P54C) 0x525 [with space; $(false)] "
                      "(model)", p.stdout)
        self.assertIn("A: Pentium (P54C) 0x525 [-x] (model)", p.stdout)
        self.assertIn("p5/cc-001 cpl0_ctr0: 806 -> 807", p.stdout)

    def test_usage_errors_exit_2(self):
        status, out = cli(str(FIXTURES / P54C))
        self.assertEqual(status, 2, out)
        self.assertIn("the following arguments are required: B.log", out)
        status, out = cli("-x", "y")
        self.assertEqual(status, 2, out)


if __name__ == "__main__":
    unittest.main()
