"""tools/lab/junit.py and `pmu-harness junit`: JUnit XML from real logs
and damaged ones, checked with xmllint against tools/lab/junit.xsd and the
schemas CI servers validate with: Jenkins xUnit's junit-10.xsd and Ant's
JUnit.xsd (tools/lab/tests/data/junit-schemas/, sources in its README)."""

import os
import random
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

from tools.testing.support import (FIXTURES, PY, PMU_HARNESS, TOOLS,
                                   harness)

from tools.lab import pmulog
from tools.lab import junit as ljunit
from tools.lab import parse as lparse

LAB = FIXTURES / "lab"
HARNESS = [PY, str(PMU_HARNESS)]
XSD = TOOLS / "lab" / "junit.xsd"
CI_SCHEMAS = TOOLS / "lab" / "tests" / "data" / "junit-schemas"
JENKINS_XSD = CI_SCHEMAS / "junit-10.xsd"
ANT_XSD = CI_SCHEMAS / "JUnit.xsd"

INTACT = [LAB / n for n in (
    "p54c-model.log", "skylake-model.serial.log", "p5-inject-fails.log",
    "watchdog-hangs.log", "refused-hw.log")] + \
    [FIXTURES / n for n in ("p54c.log", "selftest.log", "p54c-p5-fail.log",
                            "options-errors.log", "logfile-full.log")]
DAMAGED = [LAB / "truncated-kill.log", FIXTURES / "no-summary.log",
           FIXTURES / "truncated.log"]


def cli(*args):
    """pmu-harness ARGS... in this process (support.harness): (status,
    stdout as bytes, stderr).  Cli.test_stdout_equals_output_file runs
    the command itself."""
    r = harness(*args)
    return (r.returncode, r.stdout_bytes,
            r.stderr_bytes.decode("utf-8", "replace"))


def command(*args):
    """The same through `pmu-harness` in a process of its own."""
    p = subprocess.run(HARNESS + [str(a) for a in args],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def xmllint(path, xsd=XSD):
    """(status, messages) of validating path against the schema."""
    p = subprocess.run(["xmllint", "--noout", "--schema", str(xsd),
                        str(path)], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stderr


def attrs(el, *keys):
    return tuple(int(el.get(k)) for k in keys)


class Tmp:
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="pmu-junit-")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, data):
        p = self.tmp / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode())
        return p

    def junit(self, *logs, want=None):
        """Runs `pmu-harness junit LOG... -o FILE`, checks the status and
        the schema; returns the root element."""
        out = self.tmp / "out.xml"
        rc, _, err = cli("junit", *logs, "-o", out)
        self.assertNotIn("Traceback", err)
        if want is not None:
            self.assertEqual(rc, want, err)
        for xsd in (XSD, JENKINS_XSD, ANT_XSD):
            st, msg = xmllint(out, xsd)
            self.assertEqual(st, 0, f"{xsd.name}: {msg}")
        return ET.parse(out).getroot()

    def assert_consistent(self, root):
        """Each suite's counts are its testcases'; the root has no
        attributes (Ant's JUnit.xsd allows none)."""
        self.assertEqual(root.attrib, {})
        for s in root.findall("testsuite"):
            cases = s.findall("testcase")
            got = (len(cases),
                   sum(c.find("failure") is not None for c in cases),
                   sum(c.find("error") is not None for c in cases),
                   sum(c.find("skipped") is not None for c in cases))
            self.assertEqual(attrs(s, "tests", "failures", "errors",
                                   "skipped"), got, s.get("name"))


class RealLogs(Tmp, unittest.TestCase):
    def test_counts_equal_summary_and_schema(self):
        for path in INTACT:
            with self.subTest(log=path.name):
                log = pmulog.parse_file(path)
                s = log.summary
                # "# error:" lines make a run no pass: one log/errors
                # testcase in error (docs/lab.md, junit), exit 4
                # (ERRORS) when nothing failed
                errors = 1 if log.error_lines else 0
                root = self.junit(path, want=1 if s.failed else
                                  4 if errors else 0)
                self.assert_consistent(root)
                (suite,) = root.findall("testsuite")
                self.assertEqual(
                    attrs(suite, "tests", "failures", "errors", "skipped"),
                    (s.passed + s.failed + s.skipped + errors, s.failed,
                     errors, s.skipped))

    def test_all_logs_in_one_document(self):
        root = self.junit(*INTACT, *DAMAGED, want=3)
        self.assert_consistent(root)
        suites = root.findall("testsuite")
        self.assertEqual(len(suites), len(INTACT) + len(DAMAGED))
        self.assertEqual([s.get("id") for s in suites],
                         [str(i) for i in range(len(suites))])
        names = [s.get("name") for s in suites]
        self.assertEqual(len(set(names)), len(names))

    def test_model_run_is_labelled(self):
        root = self.junit(LAB / "skylake-model.serial.log", want=0)
        suite = root.find("testsuite")
        self.assertEqual(suite.get("name"),
                         "Core 6th gen (Skylake) 0x506e3 "
                         "[skylake-model.serial] (model counts, not "
                         "hardware counts)")
        props = {p.get("name"): p.get("value")
                 for p in suite.find("properties")}
        self.assertEqual(props["backend"], "model")
        self.assertEqual(props["counts"], "model counts, not hardware counts")
        self.assertTrue(props["cpu"].startswith("vendor=GenuineIntel"))
        self.assertTrue(props["backend-line"].startswith("model reason="))
        # a hardware run is not labelled as the model's (its inject=
        # refused: an "# error:" line, no pass)
        suite = self.junit(LAB / "refused-hw.log", want=4).find("testsuite")
        self.assertNotIn("model", suite.get("name"))
        props = {p.get("name"): p.get("value")
                 for p in suite.find("properties")}
        self.assertEqual((props["backend"], props["counts"]),
                         ("hw", "hardware counts"))
        self.assertIn("option inject=", suite.find("system-err").text)

    def test_testcases_failures_skips_output(self):
        path = LAB / "p5-inject-fails.log"
        log = pmulog.parse_file(path)
        suite = self.junit(path, want=1).find("testsuite")
        cases = suite.findall("testcase")
        self.assertEqual(len(cases), len(log.results))
        out = suite.find("system-out").text or ""
        for c, r in zip(cases, log.results):
            self.assertEqual(c.get("name"), r.name)
            self.assertEqual(c.get("classname"), r.name.split("/")[0])
            self.assertIsNone(c.find("system-out"))     # Ant has none
            f, sk = c.find("failure"), c.find("skipped")
            if r.status == "not ok":
                self.assertEqual(f.get("message"), r.yaml["failures"][0])
                self.assertEqual(f.text, r.yaml_text)
            elif r.status == "skip":
                self.assertEqual(sk.get("message"), r.reason)
            else:
                self.assertIsNone(f)
            # a passed test's YAML block is in the suite's system-out
            head = f"ok {r.number} - {r.name}\n  ---\n"
            self.assertEqual(head in out,
                             r.status == "ok" and bool(r.yaml_text))

    def test_time_and_timestamp(self):
        suite = self.junit(LAB / "skylake-model.serial.log").find(
            "testsuite")
        self.assertEqual(suite.get("timestamp"), "2026-11-22T06:50:31")
        t = lparse.analyse(LAB / "skylake-model.serial.log").time
        self.assertEqual(float(suite.get("time")), t["run_ms"] / 1000)
        # every testcase has a time (Ant requires one): the slowest test's
        # from the "# time:" line, 0 where the log does not say
        slow = [c for c in suite.findall("testcase")
                if c.get("time") != "0.000"]
        self.assertEqual([(c.get("name"), float(c.get("time")))
                          for c in slow],
                         [(t["slowest"], t["slowest_ms"] / 1000)])
        # tests stopped at their limit take elapsed_s
        suite = self.junit(LAB / "watchdog-hangs.log").find("testsuite")
        log = pmulog.parse_file(LAB / "watchdog-hangs.log")
        t2 = lparse.analyse(LAB / "watchdog-hangs.log").time
        for c, r in zip(suite.findall("testcase"), log.results):
            want = r.yaml.get("elapsed_s") if r.yaml else None
            if want is None and r.name == t2["slowest"]:
                want = t2["slowest_ms"] / 1000
            self.assertEqual(c.get("time"),
                             "0.000" if want is None else f"{want:.3f}")
            if want is not None:
                self.assertEqual(c.find("failure").get("type"), "timeout")
        # no stamp in the log nor in its name: the file's time (both CI
        # schemas require a timestamp); one in the file's name: that one
        text = (LAB / "bail-out.log").read_text()
        text = "".join(l for l in text.splitlines(True)
                       if not l.startswith("# console:"))
        for name, want in (("plain.log", "2024-02-03T04:05:06"),
                           ("20250102-030405.log", "2025-01-02T03:04:05"),
                           ("20251399-999999.log", "2024-02-03T04:05:06")):
            p = self.write(name, text)
            when = datetime(2024, 2, 3, 4, 5, 6).timestamp()
            os.utime(p, (when, when))
            suite = self.junit(p).find("testsuite")
            self.assertEqual(suite.get("timestamp"), want, name)

    def test_bail_out_is_an_error(self):
        suite = self.junit(LAB / "bail-out.log", want=1).find("testsuite")
        case = [c for c in suite.findall("testcase")
                if c.get("name") == "log/bail-out"]
        self.assertEqual(len(case), 1)
        self.assertTrue(case[0].find("error").get("message").startswith(
            "Bail out! unexpected #UD"))
        self.assertEqual(suite.get("errors"), "1")


class Damaged(Tmp, unittest.TestCase):
    def damage_case(self, suite):
        (case,) = [c for c in suite.findall("testcase")
                   if c.get("name") == "log/damaged"]
        return case.find("error")

    def test_truncated_log_is_broken_not_green(self):
        path = LAB / "truncated-kill.log"
        a = lparse.analyse(path)
        root = self.junit(path, want=3)
        self.assert_consistent(root)
        suite = root.find("testsuite")
        err = self.damage_case(suite)
        self.assertEqual(err.text.splitlines(), [
            f"{path}:{d.line}: {d.kind}: {d.message}" for d in a.damage])
        self.assertGreater(int(suite.get("errors")), 0)
        # + log/damaged, + the test in flight at the cut (the log's last
        # line, 98, "# running apic/pmi-during-trace-cpl0: ...")
        self.assertEqual(len(suite.findall("testcase")),
                         len(a.log.results) + 2)
        (hung,) = [c for c in suite.findall("testcase")
                   if c.get("name") == "apic/pmi-during-trace-cpl0"]
        self.assertEqual(hung.get("classname"), "apic")
        err = hung.find("error")
        self.assertEqual(err.get("type"), "hung")
        self.assertEqual(err.get("message"),
                         "in flight when the log stops: no result after "
                         "line 98 (# running apic/pmi-during-trace-cpl0)")
        # a finished log names no test in flight
        suite = self.junit(LAB / "watchdog-hangs.log").find("testsuite")
        self.assertEqual([c for c in suite.iter("error")
                          if c.get("type") == "hung"], [])

    def test_cut_inside_running_line(self):
        """A kill inside '# running ' (the name not yet written, as the
        kill stage's point 1 can land) is still one hung testcase, named
        so that both CI schemas take it (a name of at least 1 character)."""
        lines = (LAB / "watchdog-hangs.log").read_text().splitlines(True)
        cut = next(i for i, l in enumerate(lines)
                   if l.startswith("# running trace/access-addresses"))
        p = self.write("cut-running.log", "".join(lines[:cut]) + "# running ")
        root = self.junit(p, want=3)
        self.assert_consistent(root)
        suite = root.find("testsuite")
        (hung,) = [c for c in suite.iter("error") if c.get("type") == "hung"]
        (case,) = [c for c in suite.findall("testcase")
                   if c.find("error") is hung]
        self.assertEqual(case.get("name"), "log/in-flight-unnamed")

    def test_ci_schemas_reject_what_they_should(self):
        """The two CI schemas as kept are the strict ones: what the old
        output had (attributes on <testsuites>, system-out inside a
        testcase, no hostname) fails them, so a pass means something."""
        good = self.tmp / "good.xml"
        rc, _, err = cli("junit", LAB / "p54c-model.log", "-o", good)
        self.assertEqual(rc, 0, err)
        doc = good.read_text()
        for xsd, old, new in (
                (JENKINS_XSD, "<testsuites>",
                 '<testsuites name="n" skipped="0">'),
                (ANT_XSD, "<testsuites>", '<testsuites name="n">'),
                (ANT_XSD, '<testcase name="p5/cc-000" classname="p5" '
                 'time="0.000" />', '<testcase name="p5/cc-000" '
                 'classname="p5"><system-out>x</system-out></testcase>'),
                (ANT_XSD, ' hostname="', ' x-hostname="')):
            with self.subTest(xsd=xsd.name, new=new):
                self.assertIn(old, doc)
                bad = self.write("bad.xml", doc.replace(old, new, 1))
                rc, msg = xmllint(bad, xsd)
                self.assertNotEqual(rc, 0, msg)
                self.assertIn("fails to validate", msg)

    def test_missing_results_counted_as_errors(self):
        text = (LAB / "watchdog-hangs.log").read_text()
        lines = text.splitlines(True)
        cut = next(i for i, l in enumerate(lines)
                   if l.startswith("# running trace/access-addresses"))
        tail = next(i for i, l in enumerate(lines) if l.startswith("# time:"))
        p = self.write("gap.log", "".join(lines[:cut] + lines[tail:]))
        root = self.junit(p, want=3)
        self.assert_consistent(root)
        suite = root.find("testsuite")
        (case,) = [c for c in suite.findall("testcase")
                   if c.get("name") == "log/missing-results"]
        self.assertIn("4 of 9 results", case.find("error").get("message"))
        self.assertEqual(suite.get("errors"), "2")   # + log/damaged
        self.assertIn("plan-mismatch", self.damage_case(suite).text)

    def test_damaged_variants_are_schema_valid(self):
        rng = random.Random(21)
        junk = [b"\x1b[2J\x1b[01;01HBdsDxe: loading Boot0002", b"\x00\x01",
                b"\xff\xfe\xfd", b"\x7f\x1b]0;title\x07"]
        # (printable junk inside a YAML value or a comment is no damage:
        # test_names_and_yaml_escaped has it)
        variants = []
        for name in ("skylake-model.serial.log", "p5-inject-fails.log"):
            data = (LAB / name).read_bytes()
            for _ in range(4):
                variants.append(data[:rng.randrange(1, len(data))])
            lines = data.split(b"\n")
            for _ in range(4):
                i = rng.randrange(5, len(lines))
                at = rng.randrange(0, len(lines[i]) + 1)
                lines2 = list(lines)
                lines2[i] = lines[i][:at] + rng.choice(junk) + lines[i][at:]
                variants.append(b"\n".join(lines2))
        variants += [b"", b"\x00" * 100, bytes(range(256))]
        for i, v in enumerate(variants):
            with self.subTest(variant=i):
                p = self.write(f"v{i}.log", v)
                a = lparse.analyse(p)
                root = self.junit(p, want=3)
                self.assert_consistent(root)
                err = self.damage_case(root.find("testsuite"))
                self.assertEqual(
                    [l.split(": ", 1)[0] for l in err.text.splitlines()],
                    [f"{p}:{d.line}" for d in a.damage])

    def test_names_and_yaml_escaped(self):
        head = "".join((LAB / "bail-out.log").read_text()
                       .splitlines(True)[:12])
        body = ('ok 1 - g/lt<amp&gt>"quote\'\n'
                "not ok 2 - g/cdata]]>end\n"
                "  ---\n"
                '  failures:\n    - "a <b> & ]]> \\x01 \\e"\n'
                "  ...\n"
                "ok 3 - g/ctl\x01\x1b[0mname # SKIP why <&>\n"
                "1..3\n# summary: passed=1 failed=1 skipped=1\n")
        p = self.write("esc.log", head + body)
        root = self.junit(p, want=3)        # the control bytes are damage
        cases = root.find("testsuite").findall("testcase")
        self.assertEqual(cases[0].get("name"), 'g/lt<amp&gt>"quote\'')
        self.assertEqual(cases[1].get("name"), "g/cdata]]>end")
        self.assertEqual(cases[1].find("failure").get("message"),
                         "a <b> & ]]> \\x01 \\x1b")
        self.assertEqual(cases[2].get("name"), "g/ctl\\x01\\x1b[0mname")
        self.assertEqual(cases[2].find("skipped").get("message"), "why <&>")
        self.assertIn("control character 0x01",
                      self.damage_case(root.find("testsuite")).text)

    def test_clean(self):
        self.assertEqual(ljunit.clean("a\x00b\x1bc\td\ne\rf\ufffeg\x85"),
                         "a\\x00b\\x1bc\td\ne\\x0df\\ufffeg\x85")


class Cli(Tmp, unittest.TestCase):
    def test_stdout_equals_output_file(self):
        out = self.tmp / "o.xml"
        # the command itself: what it writes to its stdout pipe
        rc1, stdout, _ = command("junit", LAB / "p54c-model.log")
        rc2, nothing, _ = command("junit", LAB / "p54c-model.log", "-o", out)
        self.assertEqual((rc1, rc2, nothing), (0, 0, b""))
        self.assertEqual(stdout, out.read_bytes())
        self.assertTrue(stdout.startswith(b"<?xml"))

    def test_unreadable(self):
        missing = self.tmp / "missing.log"
        rc, out, err = cli("junit", missing)
        self.assertEqual((rc, out), (2, b""))
        self.assertIn(f"pmu-harness junit: {missing}: cannot read", err)
        root = self.junit(missing, LAB / "p54c-model.log", want=2)
        self.assert_consistent(root)
        names = [c.get("name") for c in root.iter("testcase")]
        self.assertIn("log/unreadable", names)
        rc, _, err = cli("junit", LAB / "p54c-model.log", "-o", self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("cannot write", err)
        rc, _, err = cli("junit")
        self.assertEqual(rc, 2)
        self.assertNotIn("Traceback", err)


class Schema(Tmp, unittest.TestCase):
    GOOD = ('<testsuites><testsuite name="s" tests="1" failures="0" '
            'errors="0" skipped="0" time="1.5" timestamp="2026-01-02T03:04:05"'
            '><properties><property name="backend" value="model"/>'
            '</properties><testcase classname="g" name="g/t" time="0.1">'
            '<system-out>x</system-out></testcase></testsuite></testsuites>')

    def test_accepts_a_good_document(self):
        self.assertEqual(xmllint(self.write("good.xml", self.GOOD))[0], 0)

    def test_rejects_broken_documents(self):
        broken = {
            "testcase without name": ('name="g/t" time', 'time'),
            "testsuite without tests": ('tests="1" ', ''),
            "negative count": ('failures="0"', 'failures="-1"'),
            "time not a number": ('time="0.1"', 'time="fast"'),
            "timestamp not ISO 8601": ('2026-01-02T03:04:05', '2026/01/02'),
            "failure and skipped": ('<system-out>x</system-out>',
                                    '<failure/><skipped/>'),
            "unknown element": ('<system-out>', '<stdout/><system-out>'),
            "property without value": (' value="model"', ''),
        }
        for what, (old, new) in broken.items():
            with self.subTest(what):
                self.assertIn(old, self.GOOD)
                doc = self.GOOD.replace(old, new, 1)
                rc, msg = xmllint(self.write("bad.xml", doc))
                self.assertNotEqual(rc, 0, what)
                self.assertIn("fails to validate", msg)
        rc, _ = xmllint(self.write("root.xml",
                                   '<testcase name="t" classname="g"/>'))
        self.assertNotEqual(rc, 0)


if __name__ == "__main__":
    unittest.main()
