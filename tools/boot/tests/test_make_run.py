"""`make run` / `make bench`: QEMU's failures fail them, and CPU, SMP, ARGS
are data that no shell (nor make) runs.

Two tests start the real QEMU: test_real_boot_gets_args_as_data boots the
image for real (a few seconds) with shell quoting in ARGS, which reaches
the harness as its options; test_bad_cpu_fails_with_qemus_message has
QEMU refuse a -cpu at once.  The injection tests run make with a fake
QEMU first on PATH (support.fake_qemu) that keeps its arguments and the
boot disk it was given: each value must arrive there byte for byte (CPU
as -cpu, SMP as -smp, ARGS as the disk's \\pmu-harness.cfg) and no shell
may have run it (no marker file).  test_failing_run_fails has the fake
QEMU play a failed run."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import ROOT, esp, fake_qemu, make_env


def make(log, *args, env_extra=None, targets=("run",)):
    """make TARGETS RUN_LOG=log ARGS...: (status, stdout, stderr)."""
    env = make_env()
    env.update(env_extra or {})
    argv = ["make", "--no-print-directory", "-C", str(ROOT), *targets,
            f"RUN_LOG={log}", *args]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


class Injection(unittest.TestCase):
    """Shell and make injections through CPU, SMP and ARGS, each value
    checked where it must arrive.  Three runs of `make -k run bench`
    (setUpClass; -k: bench still runs when run has failed) with the fake
    QEMU carry them all: A, B and C below, a value of each variable per
    run, ARGS of C from the environment.  A shell that ran a value would
    create the file its `touch` names in the directory M."""

    RUNS = {
        "A": ({"CPU": "NoSuchCpu;touch {M}/cpu-a",
               "SMP": "2;touch {M}/smp-a",
               "ARGS": "x'; touch {M}/args-a; '"}, {}),
        "B": ({"CPU": "Nehalem'; touch {M}/cpu-b; '",
               "SMP": "2' ; touch {M}/smp-b; '",
               "ARGS": "$(shell touch {M}/args-b)"}, {}),
        "C": ({"CPU": "Nehalem", "SMP": "$(shell touch {M}/smp-c)"},
              {"ARGS": "x\"; touch {M}/args-c; \"'; touch {M}/args-c; '"}),
    }

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="pmu-make-inject-"))
        cls.marks = cls.tmp / "M"
        cls.marks.mkdir()
        env = fake_qemu(cls.tmp, 1, "")     # exits 1, writes no log
        cls.made = {}
        for run, (cmdline, environ) in cls.RUNS.items():
            keep = cls.tmp / run
            keep.mkdir()
            fake = {k: v for k, v in env.items() if k.startswith("FAKE_")}
            fake["FAKE_QEMU_KEEP"] = str(keep)
            cls.made[run] = make(
                keep / "serial.log",
                *[f"{k}={v.format(M=cls.marks)}" for k, v in cmdline.items()],
                targets=("-k", "run", "bench"),
                env_extra={**{k: v.format(M=cls.marks)
                              for k, v in environ.items()},
                           "PATH": env["PATH"], **fake})

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def value(self, run, var):
        cmdline, environ = self.RUNS[run]
        return {**cmdline, **environ}[var].format(M=self.marks)

    def qemu(self, run, target):
        r"""What the fake QEMU got in run's target (run or bench): (its
        arguments, the boot disk's \pmu-harness.cfg as bytes).  Both
        targets failed, as QEMU failing must make them."""
        rc, out, err = self.made[run]
        self.assertNotEqual(rc, 0, out + err)
        self.assertEqual(err.count("has no '# summary:' line"), 2, err)
        name = self.tmp / run / ("serial.log" if target == "run"
                                 else "bench.log")
        argv = json.loads(Path(f"{name}.argv.json").read_text())
        cfg = subprocess.run(["mtype", "-i", esp(f"{name}.disk"),
                              "::/pmu-harness.cfg"], check=True,
                             capture_output=True,
                             env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        return argv, cfg.stdout

    def assertArg(self, argv, flag, value):
        """QEMU got flag followed by value, as one argument."""
        self.assertIn(flag, argv)
        self.assertEqual(argv[argv.index(flag) + 1], value)

    def assertNotInjected(self, mark):
        self.assertFalse((self.marks / mark).exists(),
                         f"{self.marks / mark} was created: a shell ran "
                         "the value")

    def assertArgs(self, run, mark):
        """run's ARGS reached the boot volume's cfg as written."""
        _, cfg = self.qemu(run, "run")
        self.assertEqual(cfg, f"{self.value(run, 'ARGS')}\n".encode())
        self.assertNotInjected(mark)

    def test_args_quote_injection(self):
        self.assertArgs("A", "args-a")

    def test_args_make_function_injection(self):
        self.assertArgs("B", "args-b")

    def test_args_injection_from_the_environment(self):
        self.assertArgs("C", "args-c")

    def test_cpu_injection(self):
        for run in ("A", "B"):
            with self.subTest(cpu=self.value(run, "CPU")):
                argv, _ = self.qemu(run, "run")
                self.assertArg(argv, "-cpu", self.value(run, "CPU"))
                self.assertNotInjected(f"cpu-{run.lower()}")

    def test_smp_injection(self):
        for run in ("A", "B", "C"):
            with self.subTest(smp=self.value(run, "SMP")):
                argv, _ = self.qemu(run, "run")
                self.assertArg(argv, "-smp", self.value(run, "SMP"))
                self.assertNotInjected(f"smp-{run.lower()}")

    def test_bench_cpu_injection(self):
        for run in ("A", "B"):
            with self.subTest(cpu=self.value(run, "CPU")):
                argv, cfg = self.qemu(run, "bench")
                self.assertArg(argv, "-cpu", self.value(run, "CPU"))
                self.assertEqual(cfg, b"tests=bench/*\n")
                self.assertNotInjected(f"cpu-{run.lower()}")


class MakeRun(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-make-run-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.marker = self.tmp / "injected"
        self.log = self.tmp / "serial.log"

    def make(self, *args, env_extra=None):
        return make(self.log, *args, env_extra=env_extra)

    def assertNotInjected(self):
        self.assertFalse(self.marker.exists(),
                         f"{self.marker} was created: a shell ran the value")

    def test_bad_cpu_fails_with_qemus_message(self):
        # the real QEMU: its message reaches make run's caller
        rc, out, err = self.make("CPU=NoSuchCpu")
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn("unable to find CPU model 'NoSuchCpu'", err)
        self.assertIn("has no '# summary:' line", err)

    def test_real_boot_gets_args_as_data(self):
        # A short real boot: the words reach the harness as options (which
        # it rejects one by one); every test passes, but a run with
        # "# error:" lines is no pass: qemu-boot.sh exits 4 (ERRORS,
        # docs/lab.md), and so does make run.
        rc, out, err = self.make("CPU=Nehalem",
                                 f"ARGS=tests=detect/* x'; touch "
                                 f"{self.marker}; '")
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn("qemu-boot: errors (exit 4): ", err)
        self.assertIn("Error 4", err)
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


class BootChoice(unittest.TestCase):
    """Which boot `make run` takes (tools/boot/boot_kind.py): the UEFI
    image needs long mode (an x86-64 UEFI application), so a CPU model
    without it boots the 32-bit Multiboot kernel through the BIOS path.
    Which of QEMU's models have long mode is QEMU's own answer (QMP);
    restated here from the processors' manuals: the Pentium, Pentium II
    and III, Core Duo (Yonah), Atom N270 and the 486 are 32-bit only
    (Intel 64 came with the Pentium 4 6xx and Core 2), and QEMU's kvm32
    is its 32-bit model; Skylake is Intel 64."""

    def test_qemus_models(self):
        from tools.boot.boot_kind import boot_kind
        for cpu in ("pentium", "pentium2", "pentium3", "coreduo", "n270",
                    "486", "kvm32"):
            with self.subTest(cpu=cpu):
                self.assertEqual(boot_kind(cpu)[0], "bios")
        for cpu in ("Skylake-Client", "Nehalem",
                    "qemu64,vendor=GenuineIntel,family=15,model=4"):
            with self.subTest(cpu=cpu):
                self.assertEqual(boot_kind(cpu)[0], "uefi")

    def test_the_value_switches_lm(self):
        from tools.boot.boot_kind import boot_kind
        self.assertEqual(boot_kind("qemu64,-lm")[0], "bios")
        self.assertEqual(boot_kind("qemu64,lm=off")[0], "bios")
        self.assertEqual(boot_kind("pentium3,+lm")[0], "uefi")

    def test_models_qemu_lacks_boot_as_their_signature(self):
        # QEMU 7.2 has no Sapphire Rapids: the w9-3475X's signature
        # 806F8H (family 6, model 8FH, stepping 8) on qemu64, the value's
        # own properties kept; a model QEMU has is left alone
        from tools.boot.boot_kind import cpu_arg
        sig = "qemu64,vendor=GenuineIntel,family=6,model=143,stepping=8"
        self.assertEqual(cpu_arg("SapphireRapids")[0], sig)
        self.assertEqual(cpu_arg("SapphireRapids,-pdcm")[0],
                         sig + ",-pdcm")
        self.assertEqual(cpu_arg("Skylake-Client"), ("Skylake-Client", ""))
        self.assertEqual(cpu_arg("NoSuchCpu';x")[0], "NoSuchCpu';x")

    def test_unknown_model_takes_the_uefi_path(self):
        from tools.boot.boot_kind import boot_kind
        kind, why = boot_kind("NoSuchCpu';touch /tmp/x")
        self.assertEqual(kind, "uefi")
        self.assertIn("cannot say", why)

    def test_pentium3_boots_the_bios_path(self):
        # a real boot, a few seconds: the CPU without long mode picks the
        # 32-bit kernel, and make run says so on stderr
        tmp = Path(tempfile.mkdtemp(prefix="pmu-make-bios-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        rc, out, err = make(tmp / "serial.log", "CPU=pentium3",
                            "ARGS=tests=detect/*")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("QEMU's pentium3 has no long mode: the 32-bit "
                      "Multiboot kernel, BIOS path", err)
        self.assertRegex(out, r"# platform: .*firmware=bios")
        self.assertRegex(out, r"# summary: passed=[1-9]\d* failed=0 ")

    def test_bad_boot_value(self):
        tmp = Path(tempfile.mkdtemp(prefix="pmu-make-boot-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        rc, out, err = make(tmp / "serial.log", "BOOT=floppy';touch x'")
        self.assertEqual(rc, 2, out + err)
        self.assertIn("want uefi or bios", err)
