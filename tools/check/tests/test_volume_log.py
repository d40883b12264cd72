"""tools/check/matrix.py and tools/check/logcheck.py: the keys of issue 11.
volume_log (same, prefix, absent) on synthetic volume logs, verdict bail,
the qemu-boot.sh arguments of memory/cfg_file/volume_* entries, and
check_matrix.volume_log() reading a real FAT image made with mtools."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import (esp, FIXTURES, IMAGE, ROOT, LogDir,
                                   check_matrix, fixture_text, need_image,
                                   not_ok_lines, ok_lines, tap_part)

from tools.check import boottable
from tools.check import matrix as cm


def matrix_with(dirpath, boot, *lines):
    """The fixture table with lines added to the entry boot (after its
    verdict line); returns the new table's path."""
    text = (FIXTURES / "matrix.yaml").read_text()
    head, sep, rest = text.partition(f"  - name: {boot}\n")
    assert sep, boot
    at = rest.index("    verdict: ")
    end = rest.index("\n", at) + 1
    rest = rest[:end] + "".join(f"    {l}\n" for l in lines) + rest[end:]
    path = Path(dirpath) / "m.yaml"
    path.write_text(head + sep + rest)
    return path


class VolumeLogModes(unittest.TestCase):
    def setUp(self):
        self.dir = LogDir()
        self.addCleanup(self.dir.cleanup)
        self.serial = fixture_text("p54c.log")
        self.tap = tap_part(self.serial)

    def run_mode(self, mode, volume=None, none=None, err=None):
        """Checks p54c under volume_log: mode with the given volume log
        (str, or bytes written as they are), or a .volume.none / .volume.err
        file.  Returns (status, output, the volume lines)."""
        self.dir.add("p54c", self.serial, 0, volume=None)
        base = self.dir.path / "p54c"
        for suffix in (".volume.log", ".volume.none", ".volume.err"):
            Path(f"{base}{suffix}").unlink(missing_ok=True)
        if isinstance(volume, bytes):
            Path(f"{base}.volume.log").write_bytes(volume)
        elif volume is not None:
            Path(f"{base}.volume.log").write_text(volume, newline="")
        if none is not None:
            Path(f"{base}.volume.none").write_text(none + "\n")
        if err is not None:
            Path(f"{base}.volume.err").write_text(err + "\n")
        lines = [] if mode is None else [f"volume_log: {mode}"]
        m = matrix_with(self.dir.path, "p54c", *lines)
        rc, out = check_matrix("--logs", str(self.dir.path), "p54c",
                               matrix=m)
        vol = [l for l in out.splitlines() if "volume" in l]
        return rc, out, vol

    def assertOnly(self, rc, out, vol, ok, fragment):
        self.assertEqual(len(vol), 1, out)
        self.assertTrue(vol[0].startswith("ok - " if ok else "not ok - "),
                        vol[0])
        self.assertIn(fragment, vol[0])
        # every other check of the boot passes
        self.assertEqual(rc == 0, ok, out)
        self.assertEqual(len(not_ok_lines(out)), 0 if ok else 1, out)

    def test_same_is_the_default(self):
        for mode in (None, "same"):
            rc, out, vol = self.run_mode(mode, self.tap)
            self.assertOnly(rc, out, vol, True,
                            "volume log equals the serial log")
            rc, out, vol = self.run_mode(mode, self.tap[:200])
            self.assertOnly(rc, out, vol, False, "differs from the serial")

    def test_prefix_accepts_whole_lines(self):
        cut = self.tap[:self.tap.index("ok 5 - ")]
        for volume in (self.tap, cut, ""):
            rc, out, vol = self.run_mode("prefix", volume)
            self.assertOnly(rc, out, vol, True,
                            f"volume log is a prefix of the serial log: "
                            f"{len(volume)} of {len(self.tap)} bytes")

    def test_prefix_rejects_nul_padding(self):
        cut = self.tap[:self.tap.index("ok 5 - ")].encode()
        rc, out, vol = self.run_mode("prefix", cut + b"\0" * 77)
        self.assertOnly(rc, out, vol, False,
                        "not a sound prefix of the serial log: ends in 77 "
                        "NUL bytes")
        rc, out, vol = self.run_mode("prefix", cut[:10] + b"\0" + cut[11:])
        self.assertOnly(rc, out, vol, False,
                        "has 1 NUL byte, the first at byte 10")

    def test_prefix_rejects_a_cut_line(self):
        cut = self.tap[:self.tap.index("ok 5 - ") + 4]
        rc, out, vol = self.run_mode("prefix", cut)
        self.assertOnly(rc, out, vol, False,
                        "does not end in a newline: its last line is "
                        "'ok 5'")

    def test_prefix_rejects_other_text(self):
        cut = self.tap[:self.tap.index("ok 5 - ")]
        rc, out, vol = self.run_mode("prefix", cut.replace("ok 4 -",
                                                           "ok 9 -"))
        self.assertOnly(rc, out, vol, False, "differs from the serial TAP "
                                             "text at byte")
        rc, out, vol = self.run_mode("prefix", self.tap + "ok 99 - x\n")
        self.assertOnly(rc, out, vol, False, "is longer than the serial TAP "
                                             "text")
        # CR LF is the serial port's; the file has LF only
        rc, out, vol = self.run_mode("prefix", cut.replace("\n", "\r\n"))
        self.assertOnly(rc, out, vol, False, "differs from the serial TAP")

    def test_prefix_compares_raw_bytes(self):
        # A byte that is not UTF-8 is not the same as U+FFFD.
        serial = self.serial.replace("# harness: pmu-harness 0.1.0",
                                     "# harness: pmu-harness 0.1.0")
        self.serial = serial
        base = self.dir.path / "p54c"
        raw = self.serial.encode().replace(b"pmu-harness 0.1.0",
                                           b"pmu-harness 0.1.0\xff")
        cut = raw[raw.index(b"TAP version 13"):].replace(b"\r", b"")
        cut = cut[:cut.index(b"ok 2 - ")]
        self.dir.add("p54c", self.serial, 0, volume=None)
        Path(f"{base}.log").write_bytes(raw)
        Path(f"{base}.volume.log").write_bytes(cut)
        m = matrix_with(self.dir.path, "p54c", "volume_log: prefix")
        rc, out = check_matrix("--logs", str(self.dir.path), "p54c",
                               matrix=m)
        self.assertIn("ok - p54c: volume log is a prefix", out)
        Path(f"{base}.volume.log").write_bytes(
            cut.replace(b"\xff", "\ufffd".encode()))
        rc, out = check_matrix("--logs", str(self.dir.path), "p54c",
                               matrix=m)
        self.assertIn("not ok - p54c: volume log is not a sound prefix", out)

    def test_prefix_needs_a_file(self):
        rc, out, vol = self.run_mode("prefix", none="no \\pmu-harness")
        self.assertOnly(rc, out, vol, False, "no log file on the boot "
                                             "volume: no \\pmu-harness")

    def test_absent(self):
        rc, out, vol = self.run_mode("absent", none="\\pmu-harness on the "
                                     "boot volume is a file")
        self.assertOnly(rc, out, vol, True, "no log file on the boot volume, "
                        "as expected: \\pmu-harness on the boot volume is a "
                        "file")
        rc, out, vol = self.run_mode("absent", self.tap)
        self.assertOnly(rc, out, vol, False, "a log file is on the boot "
                        f"volume ({len(self.tap)} bytes), expected none")
        rc, out, vol = self.run_mode("absent", "")
        self.assertOnly(rc, out, vol, False, "(0 bytes), expected none")
        # a volume that could not be read proves nothing
        rc, out, vol = self.run_mode("absent", err="the boot left no disk "
                                     "image")
        self.assertOnly(rc, out, vol, False, "cannot tell whether the boot "
                        "volume has a log file: the boot left no disk image")
        rc, out, vol = self.run_mode("absent")
        self.assertOnly(rc, out, vol, False, "cannot tell whether")

    def test_none_fails_the_other_modes(self):
        for mode in ("same", "prefix"):
            rc, out, vol = self.run_mode(mode, none="no *.log file")
            self.assertOnly(rc, out, vol, False, "no log file on the boot "
                                                 "volume: no *.log file")


class VerdictBail(unittest.TestCase):
    # the selftest entry of the fixture table, verdict bail, checking
    # only what a run that bails out before its first test still has
    BARE = """boots:
  - name: selftest
    cpu: Skylake-Client
    verdict: bail
    expect_cpu: {vendor: GenuineIntel, family: 6, model: 94, stepping: 3}
    expect_pmu: {kind: arch-perfmon}
    expect_backend: {name: none}
"""

    def setUp(self):
        self.dir = LogDir()
        self.addCleanup(self.dir.cleanup)
        self.m = self.dir.path / "bail.yaml"
        self.m.write_text((FIXTURES / "matrix.yaml").read_text().replace(
            "verdict: fail", "verdict: bail"))

    def check(self, log, status):
        self.dir.add("selftest", log, status)
        return check_matrix("--logs", str(self.dir.path), "selftest",
                            matrix=self.m)

    def bail_log(self, results=True):
        log = fixture_text("selftest.log").replace(
            "1..4\r\n", "Bail out! unexpected #GP (vector 13) outside a "
                        "test\r\n1..4\r\n")
        if not results:
            log = log[:log.index("not ok 1")] + log[log.index("Bail out!"):]
            log = log.replace("1..4", "1..0").replace(
                "passed=1 failed=3", "passed=0 failed=0")
        return log

    def test_bail_passes(self):
        for results in (True, False):
            if not results:
                self.m.write_text(self.BARE)
            rc, out = self.check(self.bail_log(results), 2)
            self.assertEqual(rc, 0, out)
            self.assertIn("ok - selftest: harness bailed out as expected: "
                          "Bail out! unexpected #GP", out)
            self.assertIn("ok - selftest: exit status 2 (Bail out!) as "
                          "expected", out)

    def test_bail_wants_status_2(self):
        for status in (0, 1, 3, 124):
            rc, out = self.check(self.bail_log(), status)
            self.assertNotEqual(rc, 0, out)
            self.assertEqual(not_ok_lines(out), [
                f"not ok - selftest: exit status {status}, expected 2 (the "
                "harness bails out)"])

    def test_bail_wants_a_bail_out_line(self):
        rc, out = self.check(fixture_text("selftest.log"), 2)
        self.assertNotEqual(rc, 0, out)
        self.assertEqual(not_ok_lines(out), [
            "not ok - selftest: no Bail out! line (verdict bail)"])

    def test_other_verdicts_still_refuse_a_bail(self):
        self.m.write_text((FIXTURES / "matrix.yaml").read_text())
        rc, out = self.check(self.bail_log(), 2)
        self.assertIn("not ok - selftest: harness bailed out: Bail out!",
                      out)
        self.assertIn("not ok - selftest: exit status 2, the results say "
                      "verdict 1", out)


class BootArgv(unittest.TestCase):
    def boot(self, extra):
        boots, errors = boottable.loads(
            "boots:\n - name: x\n   cpu: Nehalem\n   verdict: pass\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n"
            + extra, self.root)
        self.assertEqual([str(e) for e in errors], [])
        return cm.boot_argv(boots[0], Path("img"), Path("out"))

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="pmu-argv-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        (self.root / "tests/fixtures/cfg").mkdir(parents=True)
        (self.root / "tests/fixtures/cfg/a b;$(x).cfg").write_text("x")

    def test_new_keys(self):
        argv = self.boot("   memory: 64\n   volume_free_kib: 8\n"
                         "   volume_logdir_file: true\n"
                         "   volume_readonly: true\n")
        self.assertEqual(argv[1:], [
            "--image", "img", "--cpu", "Nehalem", "--args", "",
            "--log", "out/x.log", "--timeout", "180", "--keep", "out/x.disk",
            "--mem", "64", "--volume-free", "8", "--logdir-file",
            "--readonly", "--vars", str(cm.WARM_VARS)])
        argv = self.boot("   volume_free_kib: 0\n"
                         "   volume_logdir_file: false\n")
        self.assertEqual(argv[-4:-2], ["--volume-free", "0"])

    def test_cfg_file_replaces_args(self):
        argv = self.boot("   cfg_file: 'tests/fixtures/cfg/a b;$(x).cfg'\n")
        self.assertNotIn("--args", argv)
        # the repository's own path: check_matrix runs from anywhere
        self.assertEqual(argv[argv.index("--cfg-file") + 1],
                         str(cm.ROOT / "tests/fixtures/cfg/a b;$(x).cfg"))


class ReadVolume(unittest.TestCase):
    """check_matrix.volume_log() on a copy of the real image, changed with
    mtools the way a boot would leave it."""

    @classmethod
    def setUpClass(cls):
        need_image()

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-volume-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.disk = self.tmp / "disk.img"
        shutil.copyfile(IMAGE, self.disk)
        self.env = dict(os.environ, MTOOLS_SKIP_CHECK="1")

    def mtools(self, *argv):
        subprocess.run([argv[0], "-i", esp(self.disk), *argv[1:]],
                       check=True, env=self.env, capture_output=True)

    def put(self, name, data):
        src = self.tmp / "src"
        src.write_bytes(data)
        self.mtools("mcopy", "-o", str(src), f"::/{name}")

    def read(self):
        dest = self.tmp / "out.log"
        dest.unlink(missing_ok=True)
        why = cm.volume_log(self.disk, dest)
        return why, (dest.read_bytes() if dest.exists() else None)

    def test_empty_directory_is_absent(self):
        why, data = self.read()
        self.assertTrue(why.absent, why)
        self.assertIn("no *.log file in \\pmu-harness (it is empty)",
                      why.why)

    def test_one_log_is_copied_byte_for_byte(self):
        body = b"TAP version 13\nok 1 - a\n" + b"\0" * 77
        self.put("pmu-harness/20260101-000000.log", body)
        why, data = self.read()
        self.assertIsNone(why)
        self.assertEqual(data, body)

    def test_two_logs_are_an_error(self):
        self.put("pmu-harness/a.log", b"x\n")
        self.put("pmu-harness/b.log", b"y\n")
        why, data = self.read()
        self.assertFalse(why.absent)
        self.assertIn("2 log files in \\pmu-harness", why.why)

    def test_other_files_only_is_absent(self):
        self.put("pmu-harness/notes.txt", b"x\n")
        why, data = self.read()
        self.assertTrue(why.absent)
        self.assertIn("only ::/pmu-harness/notes.txt", why.why)

    def test_no_directory_is_absent(self):
        self.mtools("mrd", "::/pmu-harness")
        why, data = self.read()
        self.assertTrue(why.absent, why)
        self.assertIn("no \\pmu-harness on the boot volume", why.why)

    def test_a_file_named_pmu_harness_is_absent(self):
        self.mtools("mrd", "::/pmu-harness")
        self.put("pmu-harness", b"a file\n")
        why, data = self.read()
        self.assertTrue(why.absent, why)
        self.assertIn("is a file, not a directory", why.why)

    def test_a_broken_image_is_no_proof(self):
        self.disk.write_bytes(b"\0" * 4096)
        why, data = self.read()
        self.assertFalse(why.absent, why)


if __name__ == "__main__":
    unittest.main()
