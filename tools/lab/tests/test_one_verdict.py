"""One judgement of a log in every lab tool (issue 43, "One judgement of a
log, shared by every tool"): parse, junit, report, compare and capture
give each log of the hostile corpus (tools/lab/tests/data/hostile/, its
README says what each breaks) the same verdict word and the exit status
that follows from it, and the verdict passes exactly when prove does
wherever TAP has a rule for the case.

The expected values restate the rules (TAP 13, docs/log-format.md, the
table of docs/lab.md "Verdicts and exit statuses"); none is taken from
tools/lab/verdict.py.
"""

import json
import re
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

from tools.testing.support import harness

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"

# file -> (verdict, prove's verdict where TAP has a rule for the case:
# True it passes, False it fails, None TAP has no rule on it).
EXPECTED = {
    # TAP: the plan is the number of results
    "plan-huge.log": ("DAMAGED", False),
    # the harness's summary counts its results (log-format.md, "End")
    "summary-contradicts.log": ("DAMAGED", None),
    # TAP: SKIP only on an ok line, so the result failed; the summary,
    # which counts it skipped, then contradicts the results
    "not-ok-skip.log": ("DAMAGED", False),
    # a run that skipped everything tested nothing (issue 43)
    "all-skipped-unmarked.log": ("UNTESTED", None),
    # the harness writes UTF-8 lines
    "bad-utf8.log": ("DAMAGED", None),
    # TAP: a TODO result never fails the run
    "todo.log": ("PASSED", True),
    "todo-erratum.log": ("PASSED", True),
    # TAP: results numbered in order
    "numbering.log": ("DAMAGED", False),
    # TAP: each number once, in order (one error, not one per result
    # after it, issue 43)
    "duplicate-number.log": ("DAMAGED", False),
    # a YAML block nested 1,000 deep (issue 43: a traceback in parse and
    # compare, PASSED in junit and report): over the nesting limit, damage
    # in every tool; prove reads no YAML
    "nesting.log": ("DAMAGED", None),
    # a log re-encoded as UTF-16 (issue 43): no TAP version line a
    # reader of bytes can find; prove finds no plan either
    "utf16.log": ("DAMAGED", False),
    # TAP: Bail out! fails the run
    "bail-out.log": ("BAIL OUT", False),
    # a run with "# error:" lines is no pass
    "error-lines.log": ("ERRORS", None),
    "passed.log": ("PASSED", True),
    "failed.log": ("FAILED", False),
}

# docs/lab.md, "Verdicts and exit statuses": the run's status of each
# word, and the words of a log whose content cannot be trusted (the
# log's status is then the run's, else 0).
RUN_STATUS = {"HUNG": 3, "CUT": 3, "DAMAGED": 3, "BAIL OUT": 1,
              "FAILED": 1, "ERRORS": 4, "UNTESTED": 77, "NO TESTS": 1,
              "PASSED": 0}
UNTRUSTED = {"HUNG", "CUT", "DAMAGED"}


def log_status(word):
    return RUN_STATUS[word] if word in UNTRUSTED else 0


def run(*args):
    r = harness(*args)
    return (r.returncode, r.stdout_bytes.decode("utf-8", "replace"),
            r.stderr_bytes.decode("utf-8", "replace"))


class Corpus(unittest.TestCase):
    def test_the_corpus_is_the_table(self):
        self.assertEqual(sorted(p.name for p in HOSTILE.glob("*.log")),
                         sorted(EXPECTED))


class EveryTool(unittest.TestCase):
    """Per log: what each tool says, and its exit status."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-verdict-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def parse(self, path):
        rc, out, err = run("parse", path)
        return json.loads(out)["logs"][0]["verdict"], rc, err

    def junit(self, path):
        xml = self.tmp / "j.xml"
        rc, _, err = run("junit", path, "-o", xml)
        props = {p.get("name"): p.get("value") for p in
                 ET.parse(xml).getroot().find("testsuite/properties")}
        return props.get("verdict"), rc, err

    def report(self, path):
        html = self.tmp / "r.html"
        rc, _, err = run("report", path, "-o", html)
        words = re.findall(r'<li class="v" data-log="1" '
                           r'data-verdict="([A-Z ]+)"', html.read_text())
        return (words[0] if len(words) == 1 else words), rc, err

    def compare(self, path):
        rc, out, err = run("compare", path, path)
        words = re.findall(r"^[AB]: .*?\), ([A-Z ]+): ", out, re.M)
        return (words[0] if len(set(words)) == 1 and len(words) == 2
                else words), rc, out + err

    def capture(self, path):
        out_dir = self.tmp / "cap"
        rc, out, err = run("capture", "--port", path, "--out", out_dir,
                           "--progress", "never")
        # a finished capture's counts, or an incomplete one's reason
        m = re.search(r"\.log: (?:passed=\d+ failed=\d+ skipped=\d+|"
                      r"incomplete: .*?): ([A-Z]+(?: [A-Z]+)?)(?::|$)",
                      out + err, re.M)
        return (m[1] if m else None), rc, out + err

    def test_every_tool_gives_the_same_verdict_and_status(self):
        for name, (word, _) in EXPECTED.items():
            path = HOSTILE / name
            said = {tool: getattr(self, tool)(path) for tool in
                    ("parse", "junit", "report", "compare", "capture")}
            with self.subTest(log=name):
                for tool, (got, _, detail) in said.items():
                    self.assertEqual(got, word, f"{tool}: {detail}")
                    self.assertNotIn("Traceback", detail, tool)
                # the tools that judge runs exit with the run's status
                for tool in ("junit", "report", "capture"):
                    self.assertEqual(said[tool][1], RUN_STATUS[word], tool)
                # parse reads logs, compare judges changes (a log against
                # itself changed nothing): the log's status
                for tool in ("parse", "compare"):
                    self.assertEqual(said[tool][1], log_status(word), tool)

    def test_none_of_the_issue_43_logs_is_green(self):
        for name in ("plan-huge.log", "summary-contradicts.log",
                     "not-ok-skip.log", "all-skipped-unmarked.log",
                     "bad-utf8.log"):
            with self.subTest(log=name):
                word, rc, err = self.report(HOSTILE / name)
                self.assertNotEqual((word, rc), ("PASSED", 0), err)
                word, rc, err = self.capture(HOSTILE / name)
                self.assertNotEqual((word, rc), ("PASSED", 0), err)


class AgreesWithProve(unittest.TestCase):
    """The verdict passes exactly when prove (TAP::Harness) does, for
    every case TAP has a rule for; prove reads the log as
    tools/check/lab.py and docs/lab.md ("TAP consumers") run it."""

    def test_pass_fail_as_prove(self):
        tmp = Path(tempfile.mkdtemp(prefix="pmu-verdict-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        if shutil.which("prove") is None:
            self.skipTest("prove (Perl's TAP::Harness) is not installed")
        for name, (word, prove_passes) in EXPECTED.items():
            if prove_passes is None:
                continue
            path = HOSTILE / name
            with self.subTest(log=name):
                p = subprocess.run(["prove", "--merge", "--exec", "cat",
                                    str(path)], capture_output=True,
                                   text=True, errors="replace",
                                   stdin=subprocess.DEVNULL, timeout=60)
                self.assertEqual(p.returncode == 0, prove_passes,
                                 p.stdout + p.stderr)
                rc, _, err = run("junit", path, "-o", tmp / "j.xml")
                self.assertEqual(rc == 0, prove_passes, err)


if __name__ == "__main__":
    unittest.main()
