"""tools/check.py: every stage's exit status counts in the tally."""

import contextlib
import io
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from support import PY

import check


def stage(name, code, kind="lines", limit=60):
    return (name, [PY, "-c", code], kind, limit, f"stage {name}")


class Driver(unittest.TestCase):
    def run_stages(self, *stages):
        out = Path(tempfile.mkdtemp(prefix="pmu-check-"))
        self.addCleanup(shutil.rmtree, out, True)
        buf = io.StringIO()
        with mock.patch.object(check, "STAGES", stages), \
                mock.patch.object(check, "OUT", out), \
                contextlib.redirect_stdout(buf):
            rc = check.main(["check.py"] + [s[0] for s in stages])
        text = buf.getvalue()
        return rc, text, text.rstrip("\n").splitlines()[-1]

    def test_all_good(self):
        rc, out, last = self.run_stages(
            stage("a", "print('ok - a: one'); print('ok - a: two')"),
            stage("b", "print('fine')", kind="summary"))
        self.assertEqual(last, "3 passed, 0 failed")
        self.assertEqual(rc, 0, out)

    def test_failing_check_line(self):
        rc, out, last = self.run_stages(
            stage("a", "print('ok - a: one'); print('not ok - a: two'); "
                       "raise SystemExit(1)"))
        self.assertEqual(last, "1 passed, 1 failed")
        self.assertEqual(rc, 1)

    def test_exit_status_without_failed_line_counts(self):
        # The old check.sh lost exactly this: check-log.sh stopped on a bad
        # argument with status 2 and no "not ok" line.
        rc, out, last = self.run_stages(
            stage("a", "print('ok - a: one'); raise SystemExit(2)"))
        self.assertEqual(last, "1 passed, 1 failed")
        self.assertIn("not ok - a: exit status 2 but no check failed", out)
        self.assertEqual(rc, 1)

    def test_failed_line_with_status_0_counts_twice(self):
        rc, out, last = self.run_stages(stage("a", "print('not ok - a: x')"))
        self.assertEqual(last, "0 passed, 2 failed")
        self.assertEqual(rc, 1)

    def test_silent_stage_fails(self):
        rc, out, last = self.run_stages(stage("a", "print('# nothing')"))
        self.assertIn("not ok - a: reported no checks", out)
        self.assertEqual(rc, 1)

    def test_summary_stage_status(self):
        rc, out, last = self.run_stages(
            stage("a", "print('host-tests: passed=1 failed=1'); "
                       "raise SystemExit(1)", kind="summary"))
        self.assertIn("not ok - a: host-tests: passed=1 failed=1 (exit "
                      "status 1)", out)
        self.assertEqual(last, "0 passed, 1 failed")
        self.assertEqual(rc, 1)

    def test_stage_that_cannot_run(self):
        rc, out, last = self.run_stages(
            ("a", ["/nonexistent/tool"], "summary", 60, "stage a"))
        self.assertIn("not ok - a: could not run /nonexistent/tool", out)
        self.assertEqual(rc, 1)

    def test_stage_past_its_limit(self):
        rc, out, last = self.run_stages(
            stage("a", "import time; print('ok - a: x', flush=True); "
                       "time.sleep(30)", limit=1))
        self.assertIn("not ok - a: killed after its 1 s limit", out)
        self.assertEqual(rc, 1)

    def test_nothing_passed_fails(self):
        rc, out, last = self.run_stages()
        self.assertEqual(last, "0 passed, 0 failed")
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
