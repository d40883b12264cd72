"""tools/check/volumelog.py and tools/check/kill.py: the checker of the log
file a killed run leaves behind, on synthetic inputs (no boot), the serial
watcher's kill points on a synthetic capture, and the stage's refusals."""

import os
import signal
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from tools.testing.support import PY, TOOLS, call_main, run_tool

from tools.check import kill as kc
from tools.check import logcheck
from tools.check import volumelog

SERIAL = (b"BdsDxe: starting Boot0002\r\nTAP version 13\r\n"
          b"# harness: pmu-harness 0.1.0\r\n"
          b"# running a/one: first\r\nok 1 - a/one\r\n  ---\r\n"
          b"  vector: 6\r\n  ...\r\n"
          b"# running a/two: second\r\nnot ok 2 - a/two\r\n  ---\r\n"
          b"  why: x\r\n  ...\r\n")
TAP = SERIAL[SERIAL.index(b"TAP"):].replace(b"\r", b"")


class SerialTap(unittest.TestCase):
    def test_from_the_version_line_without_cr(self):
        self.assertEqual(volumelog.serial_tap(SERIAL), TAP)
        self.assertTrue(TAP.startswith(b"TAP version 13\n# harness:"))
        self.assertNotIn(b"\r", TAP)
        self.assertIsNone(volumelog.serial_tap(b"BdsDxe: no TAP\r\n"))


class CheckPrefix(unittest.TestCase):
    def ok(self, volume):
        ok, what = volumelog.check_prefix(volume, TAP)
        self.assertTrue(ok, what)
        return what

    def bad(self, volume, tap=TAP):
        ok, what = volumelog.check_prefix(volume, tap)
        self.assertFalse(ok, what)
        return what

    def test_sound_files(self):
        self.assertIn("0 of", self.ok(b""))
        cut = TAP[:TAP.index(b"# running a/two")]
        self.assertEqual(self.ok(cut), f"{len(cut)} of {len(TAP)} bytes of "
                         "the serial TAP text, 7 whole lines, no NUL byte")
        self.assertIn("(all of it)", self.ok(TAP))

    def test_nul_tail(self):
        cut = TAP[:TAP.index(b"# running a/two")]
        self.assertEqual(self.bad(cut + b"\0" * 77), "ends in 77 NUL bytes")
        self.assertEqual(self.bad(cut + b"\0"), "ends in 1 NUL byte")
        # a file that is nothing but padding
        self.assertEqual(self.bad(b"\0" * 512), "ends in 512 NUL bytes")

    def test_nul_inside(self):
        what = self.bad(TAP[:20] + b"\0\0" + TAP[22:40] + b"\n")
        self.assertIn("has 2 NUL bytes, the first at byte 20", what)
        self.assertIn("differs from the serial TAP text at byte 20", what)
        what = self.bad(TAP[:20] + b"\0" + TAP[21:40] + b"\0\0")
        self.assertIn("has 3 NUL bytes, the first at byte 20, and ends in 2",
                      what)

    def test_nul_tail_after_a_cut_line(self):
        what = self.bad(TAP[:30] + b"\0" * 9)
        self.assertIn("ends in 9 NUL bytes", what)
        self.assertIn("does not end in a newline", what)

    def test_missing_final_newline(self):
        cut = TAP[:TAP.index(b"not ok 2") + 6]
        self.assertEqual(self.bad(cut), "does not end in a newline: its "
                         "last line is 'not ok'")

    def test_not_a_prefix(self):
        other = TAP.replace(b"vector: 6", b"vector: 7")
        self.assertIn("differs from the serial TAP text at byte "
                      f"{TAP.index(b'vector: 6') + 8} (line 6): file "
                      "'  vector: 7', serial '  vector: 6'", self.bad(other))
        self.assertIn("is longer than the serial TAP text",
                      self.bad(TAP + b"ok 3 - a/three\n"))
        # the serial port's CR LF is not the file's
        self.assertIn("differs", self.bad(SERIAL[SERIAL.index(b"TAP"):]))
        self.assertEqual(self.bad(b"x\n", None),
                         "the serial capture has no 'TAP version 13' line")


class Judge(unittest.TestCase):
    def test_outcomes(self):
        cut = TAP[:TAP.index(b"# running a/two")]
        o = kc.judge(SERIAL, cut, None)
        self.assertTrue(o.ok, o.what)
        self.assertIn("killed after 2 results on serial", o.what)
        o = kc.judge(SERIAL, cut + b"\0" * 76, None)
        self.assertFalse(o.ok)
        self.assertTrue(o.what.endswith("log file: ends in 76 NUL bytes"),
                        o.what)
        o = kc.judge(SERIAL, logcheck.Missing("no \\pmu-harness", True),
                     None)
        self.assertFalse(o.ok)
        self.assertIn("no log file after 2 results on serial", o.what)
        # a point that needs a line on the volume: the '# running' line
        # of the test in flight
        o = kc.judge(SERIAL, cut, None, b"# running a/one: ")
        self.assertTrue(o.ok, o.what)
        o = kc.judge(SERIAL, cut, None, b"# running a/two: ")
        self.assertFalse(o.ok)
        self.assertIn("but without '# running a/two: '", o.what)
        # the loss bound: result 1 kept, result 2 lost alone (the last
        # one may always be lost: its flush is the one cut)
        o = kc.judge(SERIAL, cut, None, b"", [10.0, 10.4])
        self.assertTrue(o.ok, o.what)
        self.assertTrue(o.what.endswith("; lost 1 results"), o.what)
        o = kc.judge(SERIAL, cut, "the run ended before the kill point")
        self.assertFalse(o.ok)
        self.assertEqual(o.what, "not killed: the run ended before the kill "
                                 "point")


class LossBound(unittest.TestCase):
    """The results a cut lost, but for the last, span at most
    LOSS_BOUND_S: the file is flushed every 250 ms of run time
    (boot/logflush.h), so only what came since the last flush, and the
    test whose flush was cut, are lost.  Times are hand-picked."""

    def test_span(self):
        self.assertEqual(kc.LOSS_BOUND_S, 1.0)
        # kept 1 of 5: lost at 0.1, 0.2, 0.3 and the last at 1.5 (a long
        # test before the kill): the span is 0.3 - 0.1
        self.assertAlmostEqual(kc.loss_span([0.0, 0.1, 0.2, 0.3, 1.5], 1),
                               0.2)
        self.assertEqual(kc.loss_span([0.0, 0.1], 2), 0.0)   # none lost
        self.assertEqual(kc.loss_span([0.0, 0.1], 1), 0.0)   # the last one
        self.assertAlmostEqual(kc.loss_span([0.0, 1.2, 1.3], 0), 1.2)

    def test_judge_fails_a_file_flushed_too_rarely(self):
        serial = b"TAP version 13\r\n" + b"".join(
            b"ok %d - a/t%d\r\n" % (i, i) for i in range(1, 5))
        tap = volumelog.serial_tap(serial)
        kept = tap[:tap.index(b"ok 2 ")]              # only result 1
        o = kc.judge(serial, kept, None, b"", [0.0, 0.1, 1.3, 1.4])
        self.assertFalse(o.ok)
        self.assertIn("lost 3 results, the first 1200 ms before the last "
                      "but one: more than 1000 ms of results", o.what)
        o = kc.judge(serial, kept, None, b"", [0.0, 0.1, 0.3, 1.4])
        self.assertTrue(o.ok, o.what)


class WatchAndPoints(unittest.TestCase):
    def setUp(self):
        fd, name = tempfile.mkstemp(prefix="pmu-watch-")
        os.close(fd)
        self.path = Path(name)
        self.addCleanup(self.path.unlink, True)

    def test_counts_whole_lines_after_tap(self):
        w = kc.Watch(str(self.path) + ".absent")
        w.poll()                        # no file yet: nothing happens
        self.assertFalse(w.due(kc.Point("tap")))
        w = kc.Watch(str(self.path))
        self.addCleanup(w.close)
        # a result-like line before TAP does not count
        self.path.write_bytes(b"ok 1 - firmware\r\n")
        w.poll()
        self.assertFalse(w.due(kc.Point("result", 1)))
        self.assertFalse(w.due(kc.Point("tap")))
        cut = SERIAL.index(b"ok 1 - a/one") + 4   # "ok 1" without its end
        with open(self.path, "ab") as f:
            f.write(SERIAL[:cut])
        w.poll()
        self.assertTrue(w.due(kc.Point("tap")))
        self.assertFalse(w.due(kc.Point("result", 1)))  # not a whole line
        with open(self.path, "ab") as f:
            f.write(SERIAL[cut:])
        w.poll()
        self.assertTrue(w.due(kc.Point("result", 2)))
        self.assertFalse(w.due(kc.Point("result", 3)))
        self.assertTrue(w.due(kc.Point("yaml", 2)))
        self.assertFalse(w.due(kc.Point("yaml", 3)))
        self.assertTrue(w.due(kc.Point("running", 2)))
        # result 1 behind a/one's is a/two's; none behind a/two's yet
        self.assertTrue(w.due(kc.Point("result", 1, after=b"a/one")))
        self.assertFalse(w.due(kc.Point("result", 2, after=b"a/one")))
        self.assertFalse(w.due(kc.Point("result", 1, after=b"a/two")))
        self.assertFalse(w.due(kc.Point("result", 1, after=b"a/none")))
        # the failed test a/two's block closed: one "fail" event
        self.assertTrue(w.due(kc.Point("fail", 1)))
        self.assertFalse(w.due(kc.Point("fail", 2)))
        self.assertFalse(w.due(kc.Point("running", 3)))
        self.assertFalse(w.due(kc.Point("yaml", 2, delay=30)))
        self.assertFalse(w.due(kc.Point("tap", delay=30)))

    def test_delay(self):
        self.path.write_bytes(SERIAL)
        w = kc.Watch(str(self.path))
        self.addCleanup(w.close)
        w.poll()
        p = kc.Point("yaml", 1, delay=0.05)
        self.assertFalse(w.due(p))
        time.sleep(0.06)
        self.assertTrue(w.due(p))

    def test_points(self):
        self.assertEqual(len(kc.POINTS), 8)
        self.assertEqual(kc.POINTS[7].options, kc.HANG_OPTIONS)
        self.assertEqual(kc.POINTS[6].options, kc.SLOW_OPTIONS)
        self.assertEqual(str(kc.POINTS[6]), "right after result 2 behind "
                         "selftest-slow/spin-1500ms's")
        self.assertEqual([p.event for p in kc.POINTS[1:4]], ["fail"] * 3)
        self.assertIn("selftest/*", kc.OPTIONS)     # the failures
        self.assertEqual(str(kc.POINTS[1]),
                         "65 ms after failed test 1's YAML block closed")
        self.assertEqual(str(kc.POINTS[7]),
                         "1500 ms after '# running' line 1")
        self.assertEqual(str(kc.Point("result", 1)), "right after result 1")
        self.assertEqual(str(kc.Point("yaml", 3, 0.065)),
                         "65 ms after YAML block 3 closed")
        self.assertEqual(str(kc.Point("tap", delay=0.35)),
                         "350 ms after TAP version 13")


def wait_exec(pid, comm):
    """Waits until the process pid runs the program comm (Popen returns
    before the child's exec)."""
    for _ in range(500):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == comm:
                return
        except OSError:
            pass
        time.sleep(0.01)
    raise AssertionError(f"pid {pid} never ran {comm}")


class KillQemu(unittest.TestCase):
    def test_only_qemu_is_killed(self):
        with tempfile.TemporaryDirectory() as d:
            pidfile = Path(d) / "pid"
            self.assertIn("no QEMU process id", kc.kill_qemu(pidfile))
            # a process that is not QEMU is left alone
            p = subprocess.Popen(["sleep", "30"])
            self.addCleanup(p.wait)
            self.addCleanup(p.kill)
            pidfile.write_text(f"{p.pid}\n")
            wait_exec(p.pid, "sleep")
            self.assertIn("'sleep', not QEMU", kc.kill_qemu(pidfile))
            self.assertIsNone(p.poll())
            # one named like QEMU is killed with SIGKILL
            fake = Path(d) / "qemu-system-x86_64"
            fake.symlink_to("/bin/sleep")
            q = subprocess.Popen([str(fake), "30"])
            pidfile.write_text(f"{q.pid}\n")
            wait_exec(q.pid, "qemu-system-x86")     # comm: 15 characters
            self.assertIsNone(kc.kill_qemu(pidfile))
            self.assertEqual(q.wait(timeout=10), -signal.SIGKILL)
            self.assertIn("is gone", kc.kill_qemu(pidfile))


class Refusals(unittest.TestCase):
    def test_bad_points_and_image(self):
        rc, out = run_tool([PY, "-m", "tools.check.kill", "10"])
        self.assertEqual(rc, 1)
        self.assertIn("not ok - kill: no such kill point [10] (1..8)", out)
        # the first in a process of its own, this one in this process
        r = call_main(kc.main, ["--image", "/nonexistent.img"],
                      prog=str(TOOLS / "check" / "kill.py"))
        rc, out = r.returncode, r.output
        self.assertEqual(rc, 1)
        self.assertIn("not ok - kill: no image /nonexistent.img", out)


if __name__ == "__main__":
    unittest.main()
