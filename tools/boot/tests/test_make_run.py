"""`make run` / `make bench`: QEMU's failures fail them, and CPU, SMP, ARGS
are data that no shell (nor make) runs.  A bad -cpu makes QEMU stop at once, so
most of these take about a second; one boots for real (a few seconds), and
one has a fake QEMU play a failed run."""

import json
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import ROOT, fake_qemu, make_env


class MakeRun(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-make-run-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.marker = self.tmp / "injected"
        self.log = self.tmp / "serial.log"

    def make(self, *args, env_extra=None, target="run"):
        env = make_env()
        env.update(env_extra or {})
        argv = ["make", "--no-print-directory", "-C", str(ROOT), target,
                f"RUN_LOG={self.log}", *args]
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def assertNotInjected(self):
        self.assertFalse(self.marker.exists(),
                         f"{self.marker} was created: a shell ran the value")

    def test_bad_cpu_fails_with_qemus_message(self):
        rc, out, err = self.make("CPU=NoSuchCpu")
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn("unable to find CPU model 'NoSuchCpu'", err)
        self.assertIn("has no '# summary:' line", err)

    def test_args_quote_injection(self):
        rc, out, err = self.make("CPU=NoSuchCpu",
                                 f"ARGS=x'; touch {self.marker}; '")
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn("unable to find CPU model", err)
        self.assertNotInjected()

    def test_args_injection_from_the_environment(self):
        rc, out, err = self.make(
            "CPU=NoSuchCpu", env_extra={
                "ARGS": f"x\"; touch {self.marker}; \"'; touch "
                        f"{self.marker}; '"})
        self.assertNotEqual(rc, 0, out + err)
        self.assertNotInjected()

    def test_args_make_function_injection(self):
        rc, out, err = self.make("CPU=NoSuchCpu",
                                 f"ARGS=$(shell touch {self.marker})")
        self.assertNotEqual(rc, 0, out + err)
        self.assertNotInjected()

    def test_cpu_injection(self):
        rc, out, err = self.make(f"CPU=Nehalem;touch {self.marker}")
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn(f"unable to find CPU model 'Nehalem;touch {self.marker}'",
                      err)
        self.assertNotInjected()
        rc, out, err = self.make(f"CPU=Nehalem'; touch {self.marker}; '")
        self.assertNotEqual(rc, 0, out + err)
        self.assertNotInjected()

    def test_smp_injection(self):
        for smp in (f"2;touch {self.marker}", f"2' ; touch {self.marker}; '",
                    f"$(shell touch {self.marker})"):
            rc, out, err = self.make("CPU=Nehalem", f"SMP={smp}")
            self.assertNotEqual(rc, 0, out + err)
            self.assertIn("Parameter 'smp.cpus' expects integer", err)
            self.assertNotInjected()

    def test_bench_cpu_injection(self):
        for cpu in (f"NoSuchCpu;touch {self.marker}",
                    f"NoSuchCpu'; touch {self.marker}; '"):
            rc, out, err = self.make(f"CPU={cpu}", target="bench")
            self.assertNotEqual(rc, 0, out + err)
            self.assertIn(f"unable to find CPU model '{cpu}'", err)
            self.assertNotInjected()

    def test_real_boot_gets_args_as_data(self):
        # A short real boot: the words reach the harness as options (which
        # it rejects one by one) and the run still passes.
        rc, out, err = self.make("CPU=Nehalem",
                                 f"ARGS=tests=detect/* x'; touch "
                                 f"{self.marker}; '")
        self.assertEqual(rc, 0, out + err)
        self.assertNotInjected()
        self.assertIn('# error: option \\pmu-harness.cfg: "touch": expected '
                      "key=value", out)
        self.assertRegex(out, r"# summary: passed=[1-9]\d* failed=0 ")
        self.assertTrue(self.log.is_file())

    def test_failing_run_fails(self):
        # QEMU exits as isa-debug-exit makes it for verdict 1 (status 3),
        # with a log whose only test failed: make run must fail.  A fake
        # QEMU (support.fake_qemu) plays the boot; the real boot above
        # shows the harness's side, tools/boot/tests/test_qemu_boot.py every
        # status.
        log = ("BdsDxe: starting Boot0002\r\nTAP version 13\r\n"
               "not ok 1 - selftest/fails-by-design\r\n1..1\r\n"
               "# summary: passed=0 failed=1 skipped=0\r\n")
        env = fake_qemu(self.tmp, 3, log)
        rc, out, err = self.make("CPU=Nehalem", "ARGS=tests=selftest/fails-*",
                                 env_extra={"PATH": env["PATH"],
                                            **{k: v for k, v in env.items()
                                               if k.startswith("FAKE_")}})
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn("not ok 1 - selftest/fails-by-design", out)
        argv = json.loads((self.tmp / "fake.argv.json").read_text())
        self.assertIn("Nehalem", argv)


if __name__ == "__main__":
    unittest.main()
