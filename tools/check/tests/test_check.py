"""tools/check/check.py: every stage's exit status counts in the tally."""

import contextlib
import io
import re
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools.testing.support import PY

from tools.check import check


def stage(name, code, kind="lines", limit=60, needs=(), weight=1):
    return check.Stage(name, [PY, "-c", code], kind, limit, f"stage {name}",
                       needs, weight)


class Driver(unittest.TestCase):
    def run_stages(self, *stages):
        out = Path(tempfile.mkdtemp(prefix="pmu-check-"))
        self.addCleanup(shutil.rmtree, out, True)
        buf = io.StringIO()
        with mock.patch.object(check, "STAGES", stages), \
                mock.patch.object(check, "OUT", out), \
                contextlib.redirect_stdout(buf):
            rc = check.main(["check.py"] + [s.name for s in stages])
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
            check.Stage("a", ["/nonexistent/tool"], "summary", 60,
                        "stage a"))
        self.assertIn("not ok - a: could not run /nonexistent/tool", out)
        self.assertEqual(rc, 1)

    def test_stage_past_its_limit(self):
        rc, out, last = self.run_stages(
            stage("a", "import time; print('ok - a: x', flush=True); "
                       "time.sleep(30)", limit=1))
        self.assertIn("not ok - a: killed after its 1 s limit", out)
        self.assertEqual(rc, 1)

    def test_stage_times_before_the_last_line(self):
        rc, out, last = self.run_stages(
            stage("a", "print('ok - a: one')"),
            stage("b", "print('ok - b: one')"))
        lines = out.splitlines()
        i = lines.index("# stage times (wall, and CPU: user + system):")
        self.assertRegex(lines[i + 1], r"^#   a +\d+\.\d s  cpu +\d+\.\d s$")
        self.assertRegex(lines[i + 2], r"^#   b +\d+\.\d s  cpu +\d+\.\d s$")
        self.assertRegex(lines[i + 3],
                         r"^#   total +\d+\.\d s  cpu +\d+\.\d s$")
        self.assertEqual(lines[i + 4], last)
        self.assertRegex(out, r"== stage a \(\d+ s, cpu \d+ s\)")

    def test_cpu_time_of_a_stage_and_its_children(self):
        # A child that spins 0.3 s of CPU: the stage's CPU counts it.
        rc, out, last = self.run_stages(stage(
            "a", "import subprocess, sys; subprocess.run([sys.executable, "
                 "'-c', 'import time\\nt = time.process_time()\\n"
                 "while time.process_time() - t < 0.3: pass']); "
                 "print('ok - a: spun')"))
        cpu = float(re.search(r"^#   a .* cpu +(\d+\.\d) s$", out,
                              re.M).group(1))
        self.assertGreaterEqual(cpu, 0.3, out)

    def run_two(self, code, weight):
        """Stages a and b, each code.format(d=a scratch folder, me=its
        name, other=the other's), under a weight limit of 2."""
        d = tempfile.mkdtemp(prefix="pmu-check-two-")
        self.addCleanup(shutil.rmtree, d, True)
        with mock.patch.dict("os.environ", {"CHECK_WEIGHT": "2"}):
            return self.run_stages(*(
                stage(me, code.format(d=d, me=me, other=other),
                      weight=weight)
                for me, other in (("a", "b"), ("b", "a"))))

    def test_independent_stages_run_side_by_side(self):
        # Each waits until the other has started (a file each): run one
        # after the other, the first would wait forever.
        rc, out, last = self.run_two(
            "import os, time\n"
            "open(os.path.join({d!r}, {me!r}), 'w').close()\n"
            "end = time.time() + 10\n"
            "while not os.path.exists(os.path.join({d!r}, {other!r})):\n"
            "    assert time.time() < end, 'alone'\n"
            "    time.sleep(0.01)\n"
            "print('ok - {me}: saw {other}')\n", weight=1)
        self.assertEqual(last, "2 passed, 0 failed", out)

    def test_weight_limit_keeps_stages_apart(self):
        # Weight 2 each under a limit of 2: never both at once.
        rc, out, last = self.run_two(
            "import os, time\n"
            "p = os.path.join({d!r}, 'running')\n"
            "fd = os.open(p, os.O_CREAT | os.O_EXCL)\n"
            "time.sleep(0.3)\n"
            "os.close(fd); os.unlink(p)\n"
            "print('ok - {me}: alone')\n", weight=2)
        self.assertEqual(last, "2 passed, 0 failed", out)

    def test_needed_stage_ends_first(self):
        d = tempfile.mkdtemp(prefix="pmu-check-needs-")
        self.addCleanup(shutil.rmtree, d, True)
        mark = str(Path(d) / "built")
        rc, out, last = self.run_stages(
            stage("user", f"import os; assert os.path.exists({mark!r}); "
                          "print('ok - user: after build')",
                  needs=("build",)),
            stage("build", f"import time; time.sleep(0.3); "
                           f"open({mark!r}, 'w').close(); print('built')",
                  kind="summary"))
        self.assertEqual(last, "2 passed, 0 failed", out)

    def test_failed_build_stops_what_needs_it(self):
        rc, out, last = self.run_stages(
            stage("build", "raise SystemExit(2)", kind="summary"),
            stage("user", "print('ok - user: ran')", needs=("build",)))
        self.assertIn("not ok - user: not run: stage build failed", out)
        self.assertNotIn("ok - user: ran", out)
        self.assertEqual(last, "0 passed, 2 failed")
        self.assertEqual(rc, 1)

    def test_failed_lines_stage_still_feeds_the_next(self):
        # The lab reads the logs of a matrix that had a failed boot.
        rc, out, last = self.run_stages(
            stage("matrix", "print('not ok - m: boot'); raise SystemExit(1)"),
            stage("lab", "print('ok - lab: read')", needs=("matrix",)))
        self.assertIn("ok - lab: read", out)
        self.assertEqual(last, "1 passed, 1 failed")

    def test_nothing_passed_fails(self):
        rc, out, last = self.run_stages()
        self.assertEqual(last, "0 passed, 0 failed")
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
