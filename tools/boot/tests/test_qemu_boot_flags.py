"""tools/boot/qemu-boot.sh: the flags of issue 11 (--mem, --cfg-file,
--volume-free, --logdir-file, --readonly, --pidfile, --write-iops).  A
fake qemu-system-x86_64 records its arguments; --keep keeps the disk it
was given, which mtools then reads.  No real boot."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import BOOT, IMAGE, esp, fake_qemu, need_image

LOG = ("TAP version 13\r\n# harness: pmu-harness 0.1.0\r\nok 1 - a/t1\r\n"
       "1..1\r\n# summary: passed=1 failed=0 skipped=0\r\n")


class Flags(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        need_image()

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-qemu-flags-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.keep = self.tmp / "keep"
        self.mt_env = dict(os.environ, MTOOLS_SKIP_CHECK="1")

    def boot(self, *extra, args=("--args", "tests=a/*")):
        """Runs qemu-boot.sh with the fake QEMU; returns (status, stderr)."""
        env = fake_qemu(self.tmp, 1, LOG)
        (self.tmp / "fake.argv.json").unlink(missing_ok=True)
        shutil.rmtree(self.keep, ignore_errors=True)
        p = subprocess.run([str(BOOT / "qemu-boot.sh"), "--image",
                            str(IMAGE), "--cpu", "Nehalem", "--log",
                            str(self.tmp / "serial.log"), "--keep",
                            str(self.keep), *args, *extra],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, env=env, timeout=120)
        return p.returncode, p.stderr

    def argv(self):
        return json.loads((self.tmp / "fake.argv.json").read_text())

    def ran(self):
        return (self.tmp / "fake.argv.json").exists()

    @staticmethod
    def after(argv, flag):
        assert argv.count(flag) == 1, argv
        return argv[argv.index(flag) + 1]

    def mtools(self, *argv):
        p = subprocess.run([argv[0], "-i", esp(self.keep / 'disk.img'),
                            *argv[1:]], capture_output=True, env=self.mt_env)
        return p.returncode, p.stdout, p.stderr

    def volume_file(self, name):
        rc, out, err = self.mtools("mtype", f"::/{name}")
        self.assertEqual(rc, 0, err)
        return out

    def free_bytes(self):
        rc, out, err = self.mtools("mdir", "::/")
        line = [l for l in out.decode().splitlines()
                if l.endswith("bytes free")][-1]
        return int(line.replace("bytes free", "").replace(" ", ""))

    def assertRefused(self, fragment, *extra, **kw):
        rc, err = self.boot(*extra, **kw)
        self.assertEqual(rc, 3, err)
        self.assertIn(fragment, err)
        self.assertFalse(self.ran(), "QEMU started after a bad argument")

    def boot_disk(self, argv):
        """The -drive (and -device) arguments of the boot disk."""
        drives = [argv[i + 1] for i, a in enumerate(argv)
                  if a == "-drive" and "if=pflash" not in argv[i + 1]]
        self.assertEqual(len(drives), 1, argv)
        return drives[0]

    @staticmethod
    def devices(argv):
        return [argv[i + 1] for i, a in enumerate(argv) if a == "-device"]

    def test_defaults(self):
        rc, err = self.boot()
        self.assertEqual((rc, err), (0, ""))
        argv = self.argv()
        self.assertEqual(self.after(argv, "-m"), "256")
        self.assertNotIn("-pidfile", argv)
        self.assertFalse([d for d in self.devices(argv) if "virtio" in d])
        disk = self.boot_disk(argv)
        self.assertTrue(disk.startswith("format=raw,file="), disk)
        self.assertNotIn("readonly", disk)
        self.assertNotIn("throttling", disk)
        self.assertEqual(self.volume_file("pmu-harness.cfg"),
                         b"tests=a/*\n")
        self.assertEqual(self.mtools("mdir", "-b", "::/")[1].decode()
                         .split(), ["::/EFI/", "::/pmu-harness/",
                                    "::/pmu-harness.cfg"])

    def test_mem(self):
        self.assertEqual(self.boot("--mem", "64")[0], 0)
        self.assertEqual(self.after(self.argv(), "-m"), "64")
        self.assertEqual(self.boot("--mem", "0128")[0], 0)
        self.assertEqual(self.after(self.argv(), "-m"), "128")
        for bad in ("", "0", "64M", "-1", "1e3", "64; touch x", "9999999999"):
            self.assertRefused("--mem", "--mem", bad)

    def test_a_flag_without_its_value(self):
        for flag in ("--mem", "--cfg-file", "--volume-free", "--pidfile",
                     "--write-iops", "--cpu"):
            self.assertRefused(f"qemu-boot: {flag} needs a value", flag)

    def test_unknown_flag(self):
        self.assertRefused("unknown argument --read-only", "--read-only")

    def test_cfg_file_is_copied_verbatim(self):
        data = (b"\xef\xbb\xbftests=detect/*\r\n\0verbose=1\x1b[2J"
                + bytes(range(256)) + b"x" * 5000)
        cfg = self.tmp / "a b;$(touch x)'.cfg"
        cfg.write_bytes(data)
        rc, err = self.boot("--cfg-file", str(cfg), args=())
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(self.volume_file("pmu-harness.cfg"), data)
        self.assertFalse((self.tmp / "x").exists())
        empty = self.tmp / "empty.cfg"
        empty.write_bytes(b"")
        self.assertEqual(self.boot("--cfg-file", str(empty), args=())[0], 0)
        self.assertEqual(self.volume_file("pmu-harness.cfg"), b"")

    def test_cfg_file_refusals(self):
        cfg = self.tmp / "c.cfg"
        cfg.write_text("tests=a/*\n")
        self.assertRefused("--cfg-file and --args exclude each other",
                           "--cfg-file", str(cfg))
        self.assertRefused("--cfg-file and --args exclude each other",
                           "--cfg-file", str(cfg), args=("--args", ""))
        self.assertRefused("is not a readable file", "--cfg-file",
                           str(self.tmp / "none.cfg"), args=())
        self.assertRefused("is not a readable file", "--cfg-file",
                           str(self.tmp), args=())

    def test_volume_free(self):
        for kib in (8, 0, 100, 3):
            rc, err = self.boot("--volume-free", str(kib))
            self.assertEqual(rc, 0, err)
            free = self.free_bytes()
            # at least KIB KiB, less than one 2 KiB cluster more
            self.assertGreaterEqual(free, kib * 1024)
            self.assertLess(free, kib * 1024 + 2048)
            self.assertIn(f"qemu-boot: boot volume: {free} bytes free "
                          f"(asked {kib} KiB;", err)
            self.assertEqual(self.volume_file("pmu-harness.cfg"),
                             b"tests=a/*\n")
        self.assertRefused("the boot volume has only", "--volume-free",
                           "100000")
        for bad in ("-1", "8k", "", "1 2"):
            self.assertRefused("--volume-free", "--volume-free", bad)

    def test_volume_free_counts_the_cfg(self):
        cfg = self.tmp / "big.cfg"
        cfg.write_bytes(b"x" * 10000)
        rc, err = self.boot("--volume-free", "16", "--cfg-file", str(cfg),
                            args=())
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(self.volume_file("pmu-harness.cfg")), 10000)
        self.assertGreaterEqual(self.free_bytes(), 16 * 1024)
        self.assertLess(self.free_bytes(), 18 * 1024)

    def test_logdir_file(self):
        rc, err = self.boot("--logdir-file")
        self.assertEqual(rc, 0, err)
        rc, out, _ = self.mtools("mdir", "-b", "::/")
        self.assertIn("::/pmu-harness\n", out.decode())
        self.assertNotIn("::/pmu-harness/", out.decode())
        self.assertTrue(self.volume_file("pmu-harness"))
        # together with a filled volume
        rc, err = self.boot("--logdir-file", "--volume-free", "4")
        self.assertEqual(rc, 0, err)
        self.assertTrue(self.volume_file("pmu-harness"))
        self.assertLess(self.free_bytes(), 6 * 1024)

    def test_readonly(self):
        rc, err = self.boot("--readonly")
        self.assertEqual((rc, err), (0, ""))
        argv = self.argv()
        disk = self.boot_disk(argv)
        self.assertTrue(disk.startswith("if=none,id=boot,format=raw,"
                                        "readonly=on,file="), disk)
        self.assertIn("virtio-blk-pci,drive=boot", self.devices(argv))
        # the image itself is prepared as always, and kept
        self.assertEqual(self.volume_file("pmu-harness.cfg"),
                         b"tests=a/*\n")

    def test_pidfile(self):
        pid = self.tmp / "sub dir" / "q;$(touch y).pid"
        pid.parent.mkdir()
        pid.write_text("1\n")         # stale: removed before QEMU starts
        rc, err = self.boot("--pidfile", str(pid))
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.after(self.argv(), "-pidfile"), str(pid))
        self.assertFalse(pid.exists())
        self.assertFalse((self.tmp / "y").exists())
        new = self.tmp / "new" / "q.pid"
        self.assertEqual(self.boot("--pidfile", str(new))[0], 0)
        self.assertTrue(new.parent.is_dir())

    def test_write_iops(self):
        self.assertEqual(self.boot("--write-iops", "20")[0], 0)
        self.assertEqual(self.boot_disk(self.argv()),
                         "format=raw,throttling.iops-write=20,file="
                         + self.boot_disk(self.argv()).split("file=")[1])
        for bad in ("0", "x", "20,iops=1"):
            self.assertRefused("--write-iops", "--write-iops", bad)


if __name__ == "__main__":
    unittest.main()
