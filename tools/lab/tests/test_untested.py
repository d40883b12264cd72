"""An untested run (the summary's verdict=untested reason="...": nothing
failed, but no PMU test ran; docs/log-format.md "Verdicts") is no pass in
any lab tool, and each says "untested".  The fixture is the serial log of
the matrix boot bios-tremont-untested (tools/testing/fixtures/README.md);
its twin with the verdict field removed is the same run read as a pass."""

import json
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

from tools.testing.support import FIXTURES, harness

UNTESTED = FIXTURES / "lab" / "untested.log"
REASON = ("all 2 selected PMU tests skipped (first "
          "perfmon/event-instructions: no backend for the arch-perfmon PMU)")


def run(*args):
    r = harness(*args)
    return r.returncode, r.stdout_bytes.decode(), r.stderr_bytes.decode()


class Untested(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-untested-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        text = UNTESTED.read_text()
        field = f' verdict=untested reason="{REASON}"'
        self.assertIn(field + "\n", text)     # the fixture is what we say
        self.passing = self.tmp / "passing.log"
        self.passing.write_text(text.replace(field, ""))

    def test_parse_verdict(self):
        rc, out, err = run("parse", UNTESTED, self.passing)
        self.assertEqual(rc, 0, err)          # parse: the logs' status
        logs = json.loads(out)["logs"]
        self.assertEqual([l["verdict"] for l in logs], ["UNTESTED", "PASSED"])
        self.assertEqual(logs[0]["summary"]["fields"]["reason"], REASON)

    def test_junit_untested_is_an_error(self):
        xml = self.tmp / "out.xml"
        rc, _, err = run("junit", UNTESTED, "-o", xml)
        self.assertEqual(rc, 77, err)         # automake's SKIP, as capture
        suite = ET.parse(xml).getroot().find("testsuite")
        case = [c for c in suite.findall("testcase")
                if c.get("name") == "log/untested"]
        self.assertEqual(len(case), 1)
        error = case[0].find("error")
        self.assertEqual(error.get("type"), "untested")
        self.assertEqual(error.get("message"), f"untested: {REASON}")
        self.assertEqual(suite.get("errors"), "1")
        rc, _, err = run("junit", self.passing, "-o", xml)
        self.assertEqual(rc, 0, err)

    def test_capture_exits_77(self):
        out = self.tmp / "cap"
        rc, o, err = run("capture", "--out", out, "--progress", "never",
                         "--port", UNTESTED)
        self.assertEqual(rc, 77, err)
        self.assertIn(f"passed=4 failed=0 skipped=2: UNTESTED: no test of "
                      f"this machine's PMU ran: {REASON}", o)
        rc, o, err = run("capture", "--out", out, "--progress", "never",
                         "--port", self.passing)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("UNTESTED", o)
        self.assertIn("passed=4 failed=0 skipped=2: PASSED", o)

    def test_compare_newly_untested_is_a_regression(self):
        rc, o, err = run("compare", self.passing, UNTESTED)
        self.assertEqual(rc, 1, o + err)
        self.assertIn(f", UNTESTED: no test of this machine's PMU ran: "
                      f"{REASON}", o)
        # the count line says why the status is 1 (issue 43)
        self.assertRegex(o, r"compare: 0 regression\(s\), .*; B untested "
                            r"where A was not: a regression \(exit 1\)\n")
        rc, o, err = run("compare", UNTESTED, UNTESTED)
        self.assertEqual(rc, 0, o + err)     # no change: both untested
        self.assertIn("), UNTESTED: ", o)
        rc, o, err = run("compare", UNTESTED, self.passing)
        self.assertEqual(rc, 0, o + err)

    def test_report_says_untested(self):
        html = self.tmp / "r.html"
        rc, _, err = run("report", UNTESTED, self.passing, "-o", html)
        self.assertEqual(rc, 77, err)         # the worst verdict's status
        page = html.read_text()
        self.assertEqual(page.count("untested (no pass): "), 1)
        self.assertIn(REASON, page)

    def test_report_verdict_untested_not_green(self):
        from tools.lab import pmulog, verdict
        untested = verdict.of(pmulog.parse_file(UNTESTED))
        passing = verdict.of(pmulog.parse_file(self.passing))
        self.assertEqual((untested.word, untested.green),
                         ("UNTESTED", False))
        self.assertIn(REASON, untested.why)
        self.assertEqual(passing.word, "PASSED")
        self.assertLess(untested.rank, passing.rank)


if __name__ == "__main__":
    unittest.main()
