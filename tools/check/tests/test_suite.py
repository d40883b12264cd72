"""make check's pytest machinery: once.py (one value per run, whichever
worker asks first), runner.py (the verdict drawn from a command's exit
status and ok / not ok lines), plugin.py (no SKIP, the stage times, the
stages' order) and queue.py (a worker holds two tests at most)."""

import multiprocessing
import os
import shutil
import subprocess
import tempfile
import textwrap
import time
import unittest
from pathlib import Path
from unittest import mock

from tools.check import plugin
from tools.check.suite import once, runner
from tools.testing.support import PY, ROOT


def _produce_in(args):
    """A worker process of Once.test_one_producer: asks for key, its
    produce() appends a line to count and sleeps so the others wait."""
    run_dir, key, count = args
    with mock.patch.object(once, "RUN_DIR", Path(run_dir)):
        def produce():
            with open(count, "a") as f:
                f.write(f"{os.getpid()}\n")
            time.sleep(0.3)
            return {"by": os.getpid()}
        return once.run(key, produce)["by"]


def _ends(pid, seconds=5):
    """Whether process pid is gone (or a zombie nobody reaps: this
    container's init may not) within seconds."""
    for _ in range(int(seconds * 10)):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    os.kill(pid, 9)
    return False


class Once(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-once-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        env = mock.patch.dict(os.environ, {once.RUN_ENV: "run-a"})
        env.start()
        self.addCleanup(env.stop)

    def test_one_producer(self):
        count = self.tmp / "count"
        with multiprocessing.Pool(4) as pool:
            got = pool.map(_produce_in,
                           [(str(self.tmp), "build", str(count))] * 4)
        self.assertEqual(len(count.read_text().splitlines()), 1)
        self.assertEqual(len(set(got)), 1)

    def test_a_failed_produce_is_not_kept(self):
        with mock.patch.object(once, "RUN_DIR", self.tmp):
            with self.assertRaises(RuntimeError):
                once.run("boot-x", lambda: (_ for _ in ()).throw(
                    RuntimeError("boom")))
            self.assertEqual(once.run("boot-x", lambda: 7), 7)
            self.assertEqual(once.run("boot-x", lambda: 8), 7)

    def test_runs_do_not_share(self):
        with mock.patch.object(once, "RUN_DIR", self.tmp):
            self.assertEqual(once.run("k", lambda: 1), 1)
            with mock.patch.dict(os.environ, {once.RUN_ENV: "run-b"}):
                self.assertEqual(once.run("k", lambda: 2), 2)

    def test_slot_one_at_a_time_until_done(self):
        with mock.patch.object(once, "RUN_DIR", self.tmp):
            d = once.run_dir()
            held = []

            def hold():
                with once.slot("s", "build", poll=0.01):
                    held.append(1)
                    time.sleep(0.3)
                    held.append(-1)
            import threading
            # Threads share no flock (one open file each): two holders
            # at once would interleave their marks.
            ts = [threading.Thread(target=hold) for _ in range(3)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            self.assertEqual(held, [1, -1] * 3)
            (d / "build.json").write_text("{}")
            start = time.monotonic()
            with once.slot("s", "build"):
                with once.slot("s", "build"):      # no wait once done
                    pass
            self.assertLess(time.monotonic() - start, 1)

    def test_bad_key(self):
        with mock.patch.object(once, "RUN_DIR", self.tmp):
            for k in ("", "../x", "a b", "a/b"):
                with self.subTest(k), self.assertRaises(ValueError):
                    once.run(k, lambda: 1)


class Runner(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-runner-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        p = mock.patch.object(runner, "OUT", self.tmp)
        p.start()
        self.addCleanup(p.stop)

    def py(self, code, limit=30):
        return runner.run([PY, "-c", code], "t", limit)

    def test_lines(self):
        ok = self.py("print('ok - a'); print('ok - b')")
        self.assertIsNone(runner.judge_lines(ok))
        self.assertEqual(len(ok.oks), 2)
        self.assertEqual((self.tmp / "t.txt").read_text(),
                         "ok - a\nok - b\n")
        bad = self.py("print('ok - a'); print('not ok - b'); "
                      "print('# why b'); print('ok - c'); "
                      "raise SystemExit(1)")
        why = runner.judge_lines(bad)
        self.assertIn("1 of 3 checks failed", why)
        self.assertIn("not ok - b\n# why b", why)
        self.assertNotIn("ok - c", why.replace("not ok", ""))

    def test_exit_status_must_agree(self):
        self.assertIn("exit status 3 but no check failed",
                      runner.judge_lines(self.py(
                          "print('ok - a'); raise SystemExit(3)")))
        self.assertIn("reported no checks",
                      runner.judge_lines(self.py("print('hello')")))

    def test_status(self):
        self.assertIsNone(runner.judge_status(self.py("print('x')")))
        why = runner.judge_status(self.py(
            "print('made'); print('Error 2'); raise SystemExit(2)"))
        self.assertIn("exit status 2", why)
        self.assertIn("Error 2", why)

    def test_time_limit_kills_the_group(self):
        # A child of the command outlives nothing: the group is killed.
        start = time.monotonic()
        ran = self.py("import subprocess, time; "
                      "subprocess.Popen(['sleep', '60']); time.sleep(60)",
                      limit=0.5)
        self.assertLess(time.monotonic() - start, 20)
        self.assertIn("killed at its time limit", runner.judge_lines(ran))
        self.assertIn("killed at its time limit", runner.judge_status(ran))

    def test_nice(self):
        ran = runner.run([PY, "-c", "import os; print(os.nice(0))"], "t",
                         30, beside_build=True)
        base = os.nice(0)
        self.assertEqual(ran.lines,
                         [str(min(19, base + runner.BESIDE_THE_BUILD))])

    def test_interrupted_kills_the_group(self):
        # An exception while the command runs (^C in a worker) ends its
        # process group, which no terminal signal reaches.
        pidfile = self.tmp / "child.pid"
        code = ("import subprocess, time; "
                "p = subprocess.Popen(['sleep', '60']); "
                f"open({str(pidfile)!r}, 'w').write(str(p.pid)); "
                "print('started', flush=True); time.sleep(60)")

        class Stop(Exception):
            pass

        class Raising(list):
            def append(self_, line):
                raise Stop()
        init = runner.Ran.__init__

        def ran_that_stops(self_, *a, **k):
            init(self_, *a, **k)
            self_.lines = Raising()
        with mock.patch.object(runner.Ran, "__init__", ran_that_stops):
            with self.assertRaises(Stop):
                runner.run([PY, "-c", code], "t", 30)
        pid = int(pidfile.read_text())
        self.assertTrue(_ends(pid), "the command's child outlived it")

    def test_cannot_start(self):
        ran = runner.run([str(self.tmp / "absent")], "t", 5)
        self.assertIn("could not run", runner.judge_status(ran))


class Plugin(unittest.TestCase):
    def test_stage_of(self):
        self.assertEqual(plugin.stage_of(
            "tools/check/suite/test_boots.py::test_boot[p54c]"), "boots")
        self.assertEqual(plugin.stage_of(
            "tools/lab/tests/test_parse.py::Parse::test_x"), "py")
        self.assertEqual(plugin.stage_of("test_x.py::test_y"), "other")
        self.assertTrue(plugin.needs_build("tools/pt/tests/test_a.py::A"))
        self.assertFalse(plugin.needs_build("test_x.py::test_y"))
        self.assertFalse(plugin.needs_build(
            "tools/check/suite/test_pfm.py::test_pfm"))

    def test_order_build_first_boots_before_lab(self):
        order = [plugin.ORDER.index(s) for s in
                 ("build", "host", "boots-bochs", "boots", "kill", "lab",
                  "py")]
        self.assertEqual(order, sorted(order))


class Units(unittest.TestCase):
    def test_a_host_tools_module_is_one_unit(self):
        from tools.check.queue import unit_size
        coll = ["tools/check/suite/test_boots.py::test_boot[a]",
                "tools/lab/tests/test_a.py::A::test_1",
                "tools/lab/tests/test_a.py::A::test_2",
                "tools/lab/tests/test_a.py::B::test_3",
                "tools/lab/tests/test_b.py::B::test_1"]
        self.assertEqual(unit_size(coll, [0, 1, 2, 3, 4]), 1)
        self.assertEqual(unit_size(coll, [1, 2, 3, 4]), 3)
        self.assertEqual(unit_size(coll, [4]), 1)
        self.assertEqual(unit_size(coll, []), 0)


class FakeNode:
    """What the scheduler asks of a pytest-xdist worker."""

    def __init__(self, name):
        self.name, self.shutting_down, self.got = name, False, []
        self.gateway = mock.Mock(id=name)

    def send_runtest_some(self, indices):
        self.got.extend(indices)

    def shutdown(self):
        self.shutting_down = True


class QueueScheduling(unittest.TestCase):
    """queue.Queue driven as xdist's DSession drives it, with fake
    workers: each holds two units at most and gets one more per test it
    ends; xdist's own LoadScheduling hands out a quarter of the share at
    once."""

    def queue(self, collection, cls=None):
        from tools.check.queue import Queue
        config = mock.Mock()
        config.getvalue.return_value = ["2*popen"]     # --tx of -n 2
        config.option.maxworkerrestart = None
        q = (cls or Queue)(config, log=mock.Mock())
        nodes = [FakeNode("gw0"), FakeNode("gw1")]
        for n in nodes:
            q.add_node(n)
        for n in nodes:
            q.add_node_collection(n, collection)
        q.schedule()
        return q, nodes

    def test_two_held_one_more_per_test(self):
        coll = [f"tools/check/suite/test_boots.py::test_boot[b{i}]"
                for i in range(40)]
        q, (a, b) = self.queue(coll)
        self.assertEqual((a.got, b.got), ([0, 1], [2, 3]))
        # gw0 is stuck in test 0; gw1 ends its tests one by one and
        # gets every other one.
        for i in (2, 3):
            q.mark_test_complete(b, i)
        for _ in range(30):
            q.mark_test_complete(b, q.node2pending[b][0])
        self.assertEqual(a.got, [0, 1])
        self.assertEqual(len(b.got), 2 + 2 + 30)

    def test_xdists_own_holds_more(self):
        # The same start under xdist's LoadScheduling: gw0 holds a
        # quarter of its share behind its first test (why Queue exists).
        from xdist.scheduler.load import LoadScheduling
        coll = [f"tools/check/suite/test_boots.py::test_boot[b{i}]"
                for i in range(40)]
        q, (a, b) = self.queue(coll, LoadScheduling)
        self.assertGreater(len(a.got), 2)

    def test_a_host_tools_module_goes_whole(self):
        coll = ["tools/check/suite/test_boots.py::test_boot[a]",
                "tools/lab/tests/test_a.py::A::test_1",
                "tools/lab/tests/test_a.py::A::test_2",
                "tools/lab/tests/test_b.py::B::test_1",
                "tools/lab/tests/test_b.py::B::test_2",
                "tools/check/suite/test_lab.py::test_lab"]
        q, (a, b) = self.queue(coll)
        self.assertEqual(a.got, [0, 1, 2])      # one test, one module
        self.assertEqual(b.got, [3, 4])         # one module: two held
        q.mark_test_complete(a, 0)              # still holds two
        self.assertEqual(a.got, [0, 1, 2])
        q.mark_test_complete(b, 3)
        self.assertEqual(b.got, [3, 4, 5])
        q.mark_test_complete(b, 4)
        self.assertTrue(b.shutting_down)        # nothing left to send


class Pytest(unittest.TestCase):
    """The plugin and the queue in a pytest run of their own."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-plugin-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def pytest(self, source, *args):
        (self.tmp / "test_x.py").write_text(textwrap.dedent(source))
        env = dict(os.environ, **{once.RUN_ENV: f"plugin-test-{os.getpid()}",
                                  "SEEN": str(self.tmp / "seen")})
        self.addCleanup(shutil.rmtree,
                        once.RUN_DIR / env[once.RUN_ENV], True)
        return subprocess.run([PY, "-m", "pytest", "-c", os.devnull,
                               "--rootdir", str(self.tmp), "-p",
                               "tools.check.plugin", *args,
                               str(self.tmp / "test_x.py")],
                              cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)

    def test_a_skip_fails(self):
        r = self.pytest("""
            import pytest
            def test_fine():
                pass
            def test_skipped():
                pytest.skip("not here")
            """, "-p", "no:xdist")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("1 failed, 1 passed", r.stdout)
        self.assertIn("make check allows no skip: Skipped: not here",
                      r.stdout)
        self.assertIn("make check: stage times", r.stdout)
        # The stage's row: wall, summed, CPU, its two tests, no checks.
        self.assertRegex(r.stdout, r"\n  other +\d+\.\d s  sum +\d+\.\d s  "
                                   r"cpu +\d+\.\d s +2 tests +0 checks\n")


if __name__ == "__main__":
    unittest.main()
