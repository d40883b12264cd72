"""tools/boot/qemu-boot.sh: its exit status is the harness's verdict only when
QEMU's status and the log's summary agree.  A fake qemu-system-x86_64 on
PATH writes a chosen log and exits with a chosen status, so every case
takes a fraction of a second."""

import json
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import BOOT, IMAGE, fake_qemu, need_image

OVMF_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.fd")

HEAD = ("BdsDxe: starting Boot0002\r\nTAP version 13\r\n"
        "# harness: pmu-harness 0.1.0\r\n")


class QemuBoot(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        need_image()

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-qemu-boot-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def boot(self, status, log_text, stderr="", extra=(), log=None):
        env = fake_qemu(self.tmp, status, log_text, stderr)
        p = subprocess.run([str(BOOT / "qemu-boot.sh"), "--image",
                            str(IMAGE), "--cpu", "Nehalem", "--log",
                            log or str(self.tmp / "serial.log"), *extra],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, env=env, timeout=60, cwd=self.tmp)
        return p.returncode, p.stderr

    def qemu_argv(self):
        """The arguments the fake QEMU was started with."""
        return json.loads((self.tmp / "fake.argv.json").read_text())

    @staticmethod
    def after(argv, flag):
        """The argument after flag (which must occur once)."""
        assert argv.count(flag) == 1, argv
        return argv[argv.index(flag) + 1]

    @staticmethod
    def log(passed, failed, skipped=0):
        n = passed + failed + skipped
        body = "".join(f"ok {i} - a/t{i}\r\n" for i in range(1, passed + 1))
        body += "".join(f"not ok {i} - a/t{i}\r\n"
                        for i in range(passed + 1, passed + failed + 1))
        body += "".join(f"ok {i} - a/t{i} # SKIP x\r\n"
                        for i in range(passed + failed + 1, n + 1))
        return (HEAD + body + f"1..{n}\r\n# summary: passed={passed} "
                f"failed={failed} skipped={skipped}\r\n")

    def test_vars_start_the_store_and_save_vars_writes_it_back(self):
        # The fake QEMU leaves the store as it found it: what --save-vars
        # writes is then the --vars file, byte for byte.
        warm = self.tmp / "warm.fd"
        warm.write_bytes(bytes(range(256)) * (OVMF_VARS.stat().st_size
                                              // 256))
        saved = self.tmp / "saved.fd"
        rc, err = self.boot(1, self.log(1, 0), extra=(
            "--vars", str(warm), "--save-vars", str(saved)))
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(saved.read_bytes(), warm.read_bytes())

    def test_vars_of_another_size_refused(self):
        bad = self.tmp / "bad.fd"
        bad.write_bytes(b"x" * 4096)
        rc, err = self.boot(1, self.log(1, 0), extra=("--vars", str(bad)))
        self.assertEqual(rc, 3)
        self.assertIn("is not the size of", err)
        self.assertFalse((self.tmp / "fake.argv.json").exists())

    def test_pass(self):
        self.assertEqual(self.boot(1, self.log(2, 0, 1)), (0, ""))

    def test_log_named_like_an_option(self):
        # A relative --log starting with '-' is a file name, not an option
        # of dirname or rm: the stale log is replaced by the new one.
        (self.tmp / "-serial.log").write_text("stale\n")
        self.assertEqual(self.boot(1, self.log(1, 0), log="-serial.log"),
                         (0, ""))
        self.assertIn("# summary: passed=1",
                      (self.tmp / "-serial.log").read_text())

    def test_fail(self):
        rc, err = self.boot(3, self.log(2, 1))
        self.assertEqual(rc, 1, err)

    def test_qemu_error_is_no_pass(self):
        rc, err = self.boot(1, "", "qemu-system-x86_64: -cpu Nehalem: no\n")
        self.assertEqual(rc, 3)
        self.assertIn("has no '# summary:' line", err)
        self.assertIn("qemu: qemu-system-x86_64: -cpu Nehalem: no", err)

    def test_harness_died_before_summary(self):
        rc, err = self.boot(1, HEAD + "ok 1 - a/t1\r\n")
        self.assertEqual(rc, 3)
        self.assertIn("has no '# summary:' line", err)

    def test_status_disagrees_with_summary(self):
        rc, err = self.boot(1, self.log(2, 1))
        self.assertEqual(rc, 3)
        self.assertIn("status 1 (verdict 0) but the log's summary is "
                      "passed=2 failed=1 skipped=0 (verdict 1)", err)
        rc, err = self.boot(3, self.log(2, 0))
        self.assertEqual(rc, 3)
        self.assertIn("(verdict 1) but the log's summary", err)

    def test_summary_with_logfile_error(self):
        """A log-file failure adds a field to the summary; the verdict is
        still read from the counts."""
        extra = (' logfile_error="write of 15 bytes failed '
                 '(EFI_VOLUME_FULL), 0 bytes kept in \\pmu-harness\\a.log"')
        self.assertEqual(self.boot(1, self.log(2, 0).replace(
            "skipped=0\r\n", "skipped=0" + extra + "\r\n")), (0, ""))
        rc, err = self.boot(3, self.log(1, 1).replace(
            "skipped=0\r\n", "skipped=0" + extra + "\r\n"))
        self.assertEqual(rc, 1, err)
        rc, err = self.boot(1, self.log(1, 0).replace(
            "skipped=0\r\n", "skipped=0x\r\n"))
        self.assertEqual(rc, 3)
        self.assertIn("has no '# summary:' line", err)

    def test_untested(self):
        """verdict=untested in the summary and isa-debug-exit's verdict 3
        (QEMU status 7): exit 77 with the reason on stderr; either without
        the other is no verdict (3)."""
        untested = self.log(2, 0, 3).replace(
            "skipped=3\r\n", 'skipped=3 verdict=untested reason="all 3 '
            'selected PMU tests skipped" logfile_error="x"\r\n')
        self.assertIn("verdict=untested", untested)
        rc, err = self.boot(7, untested)
        self.assertEqual(rc, 77, err)
        self.assertIn('untested (exit 77): reason="all 3 selected PMU tests '
                      'skipped"', err)
        rc, err = self.boot(1, untested)
        self.assertEqual(rc, 3)
        self.assertIn("status 1 (verdict 0) but the log's summary is "
                      "passed=2 failed=0 skipped=3 verdict=untested "
                      "(verdict 3)", err)
        rc, err = self.boot(7, self.log(2, 0, 3))
        self.assertEqual(rc, 3)
        self.assertIn("status 7 (verdict 3) but the log's summary is "
                      "passed=2 failed=0 skipped=3 (verdict 0)", err)

    def test_nothing_ran_is_no_pass(self):
        rc, err = self.boot(1, self.log(0, 0))
        self.assertEqual(rc, 3)
        rc, err = self.boot(3, self.log(0, 0))
        self.assertEqual(rc, 1, err)

    def test_bail_out(self):
        rc, err = self.boot(5, HEAD + "Bail out! no memory\r\n")
        self.assertEqual(rc, 2)
        self.assertIn("Bail out! no memory", err)

    def test_smp_default_is_one(self):
        self.assertEqual(self.boot(1, self.log(1, 0))[0], 0)
        self.assertEqual(self.after(self.qemu_argv(), "-smp"), "1")

    def test_smp_is_one_argument_of_data(self):
        marker = self.tmp / "injected"
        spec = f"2,sockets=1,cores=1,threads=2 $(touch {marker}); " \
               f"touch {marker}"
        rc, err = self.boot(1, self.log(1, 0), extra=("--smp", spec))
        self.assertEqual(rc, 0, err)
        argv = self.qemu_argv()
        self.assertEqual(self.after(argv, "-smp"), spec)
        self.assertEqual(self.after(argv, "-cpu"), "Nehalem")
        self.assertFalse(marker.exists(), "a shell ran the --smp value")

    def test_no_verdict(self):
        rc, err = self.boot(0, self.log(1, 0), "bye\n")
        self.assertEqual(rc, 3)
        self.assertIn("without a verdict", err)
        self.assertIn("qemu: bye", err)


if __name__ == "__main__":
    unittest.main()
