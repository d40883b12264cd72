"""The legacy-BIOS boots (issue 13): boot kinds in the boot table, the
checks of a BIOS log, the image's layout (tools/boot/mkimage.sh,
tools/boot/esp-offset.sh), the menu (tools/boot/bootmenu.sh,
tools/boot/bios-args.sh) and the argument checks of
tools/boot/qemu-boot.sh --bios and tools/boot/bochs-boot.sh.  No real
boot: a fake qemu-system-i386 records its arguments."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import (BOOT, IMAGE, PY, ROOT, LogDir,
                                   fake_qemu, need_image, real_table)

from tools.check import boottable
from tools.check import matrix as cm

ENTRY = """boots:
  - name: b
    boot: {boot}
    cpu: {cpu}
    verdict: pass
    expect_cpu: {{vendor: GenuineIntel, family: 5, model: 4, stepping: 3}}
    expect_pmu: {{kind: p5}}
    expect_backend: {{name: model}}
{extra}"""

BIOS_LOG = ("\r\nISOLINUX 6.04\r\n\x1b[2J menu\r\n"
            "TAP version 13\r\n# harness: pmu-harness 0.1.0\r\n"
            "# cpu: vendor=GenuineIntel family=5 model=4 stepping=3 "
            "signature=0x543\r\n"
            "# pmu: kind=p5 counters=2 width=40 present=no probe=\"none\"\r\n"
            "# backend: model reason=\"model counts, not hardware counts\"\r\n"
            "# console: serial=com1 via=16550 text=vga(1) "
            "logfile=\"{logfile}\"\r\n"
            "ok 1 - detect/cpu\r\n1..1\r\n"
            "# summary: passed=1 failed=0 skipped=0\r\n")


def table(boot, cpu="pentium", extra=""):
    return boottable.loads(ENTRY.format(boot=boot, cpu=cpu, extra=extra))


class Table(unittest.TestCase):
    def test_kinds(self):
        for kind in boottable.BOOT_KINDS:
            boots, errors = table(kind)
            self.assertEqual(errors, [], kind)
            self.assertEqual(boots[0].boot, kind)
            self.assertEqual(boots[0].volume_log,
                             "same" if kind == "uefi" else "none")

    def test_unknown_kind(self):
        boots, errors = table("bios-usb")
        self.assertEqual(boots, [])
        self.assertIn("'boot' is 'bios-usb'", str(errors[0]))

    def test_uefi_only_keys_refused(self):
        for key, value in (("cfg_file", "tests/fixtures/x"),
                           ("volume_free_kib", "8"),
                           ("volume_logdir_file", "true"),
                           ("volume_readonly", "true"),
                           ("volume_log", "same"), ("vga", "true")):
            boots, errors = table("bios-kernel",
                                  extra=f"    {key}: {value}\n")
            self.assertEqual(boots, [], key)
            self.assertTrue(any(f"'{key}' is for UEFI boots only" in str(e)
                                for e in errors), (key, errors))

    def test_bochs(self):
        boots, errors = table("bochs-cd", cpu="'pentium,ips=1'")
        self.assertIn("not a Bochs CPU model name", str(errors))
        # Bochs takes smp as its cpu count=P:C:T (sockets, cores,
        # threads from 1 to 9): QEMU's bare "2" is refused
        boots, errors = table("bochs-cd", extra="    smp: \"2\"\n")
        self.assertIn("of a Bochs boot must be N,sockets=P,cores=C,"
                      "threads=T", str(errors))
        boots, errors = table("bochs-cd", extra="    memory: 4096\n")
        self.assertIn("'memory' of a Bochs boot must be", str(errors))

    def test_matrix_has_the_bios_boots(self):
        boots, errors = real_table()
        self.assertEqual(errors, [])
        kinds = {b.boot for b in boots}
        for k in ("uefi", "bios-kernel", "bios-disk", "bios-cd",
                  "bios-floppy", "bochs-cd", "bochs-floppy"):
            self.assertIn(k, kinds)


class Argv(unittest.TestCase):
    MEDIA = {"image": Path("i.img"), "kernel": Path("k.elf"),
             "floppy": Path("f.img")}

    def argv(self, kind, cpu="pentium", extra="    options: tests=p5/*\n"):
        boots, errors = table(kind, cpu, extra)
        self.assertEqual(errors, [])
        return cm.boot_argv(boots[0], self.MEDIA, Path("out"))

    def test_bios(self):
        for kind, medium, image in (("bios-kernel", "kernel", "k.elf"),
                                    ("bios-disk", "disk", "i.img"),
                                    ("bios-cd", "cd", "i.img"),
                                    ("bios-floppy", "floppy", "f.img")):
            a = self.argv(kind)
            self.assertEqual(a[0], str(BOOT / "qemu-boot.sh"))
            self.assertEqual(a[a.index("--bios") + 1], medium)
            self.assertEqual(a[a.index("--image") + 1], image)
            self.assertEqual(a[a.index("--args") + 1], "tests=p5/*")
            self.assertNotIn("--cfg-file", a)

    def test_bochs(self):
        a = self.argv("bochs-floppy", cpu="p4_willamette",
                      extra="    options: tests=detect/*\n    memory: 64\n")
        self.assertEqual(a[0], str(BOOT / "bochs-boot.sh"))
        self.assertEqual(a[a.index("--medium") + 1], "floppy")
        self.assertEqual(a[a.index("--image") + 1], "f.img")
        self.assertEqual(a[a.index("--cpu") + 1], "p4_willamette")
        self.assertEqual(a[a.index("--mem") + 1], "64")


class Checks(unittest.TestCase):
    def setUp(self):
        self.logs = LogDir()
        self.addCleanup(self.logs.cleanup)
        self.matrix = self.logs.path / "matrix.yaml"
        self.matrix.write_text(ENTRY.format(boot="bios-cd", cpu="pentium",
                                            extra=""))

    def run_check(self, logfile):
        self.logs.add("b", BIOS_LOG.format(logfile=logfile), 0,
                      volume=False)
        p = subprocess.run([PY, "-m", "tools.check.matrix", "--matrix",
                            str(self.matrix), "--logs", str(self.logs.path)],
                           cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
        return p.returncode, p.stdout

    def test_bios_log_passes_without_volume_log(self):
        rc, out = self.run_check("none (BIOS boot)")
        self.assertEqual(rc, 0, out)
        self.assertIn('ok - b: console line says logfile="none (BIOS boot)"',
                      out)
        self.assertNotIn("volume", out)

    def test_console_line_must_say_bios(self):
        # Break it once: a BIOS boot claiming a log file fails.
        rc, out = self.run_check("\\pmu-harness\\x.log")
        self.assertEqual(rc, 1, out)
        self.assertIn("not ok - b: console line says logfile=", out)


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, **kw)


class Menu(unittest.TestCase):
    def test_refuses_line_breaks_and_module_separator(self):
        for words in ("a\nDEFAULT x", "a\rb", "tests=* --- x"):
            p = run([str(BOOT / "bootmenu.sh"), "/k.elf", words])
            self.assertEqual(p.returncode, 1, words)
            self.assertEqual(p.stdout, "")

    def test_padded(self):
        p = run([str(BOOT / "bootmenu.sh"), "/k.elf", "tests=p5/*", "4096"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.encode()), 4096)
        self.assertIn("DEFAULT args\nLABEL args\n", p.stdout)
        self.assertIn("  APPEND /k.elf tests=p5/*\n", p.stdout)
        p = run([str(BOOT / "bootmenu.sh"), "/k.elf", "x" * 5000, "4096"])
        self.assertEqual(p.returncode, 1)


class Image(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        need_image()

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-bios-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_layout(self):
        off = run([str(BOOT / "esp-offset.sh"), str(IMAGE)])
        self.assertEqual(off.returncode, 0, off.stderr)
        off = int(off.stdout)
        self.assertEqual(off % (1 << 20), 0)
        env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
        ls = run(["mdir", "-b", "-i", f"{IMAGE}@@{off}", "::/EFI/BOOT"],
                 env=env)
        self.assertIn("BOOTX64.EFI", ls.stdout.upper())
        iso = run(["xorriso", "-indev", str(IMAGE), "-find", "/", "-type",
                   "f", "--"])
        for f in ("/isolinux/isolinux.bin", "/isolinux/mboot.c32",
                  "/isolinux/isolinux.cfg", "/boot/pmu-harness.elf"):
            self.assertIn(f"'{f}'", iso.stdout)

    def test_no_esp(self):
        f = self.tmp / "plain"
        f.write_bytes(b"\0" * 4096)
        p = run([str(BOOT / "esp-offset.sh"), str(f)])
        self.assertEqual(p.returncode, 1)
        self.assertIn("no MBR", p.stderr)

    def test_bios_args_rewrites_the_menu_in_place(self):
        img = self.tmp / "i.img"
        shutil.copyfile(IMAGE, img)
        p = run([str(BOOT / "bios-args.sh"), "iso", str(img),
                 "tests=detect/* verbose=1"])
        self.assertEqual(p.returncode, 0, p.stderr)
        out = self.tmp / "isolinux.cfg"
        run(["xorriso", "-osirrox", "on", "-indev", str(img), "-extract",
             "/isolinux/isolinux.cfg", str(out)])
        text = out.read_text()
        self.assertEqual(len(text), 4096)
        self.assertIn("DEFAULT args\n", text)
        self.assertIn("APPEND /boot/pmu-harness.elf tests=detect/* "
                      "verbose=1\n", text)
        self.assertEqual(img.stat().st_size, IMAGE.stat().st_size)


class Scripts(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-bios-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.kernel = self.tmp / "k.elf"
        self.kernel.write_bytes(b"\x7fELF")

    def qemu(self, *args):
        env = fake_qemu(self.tmp, 1, "TAP version 13\r\nok 1 - a/b\r\n1..1"
                        "\r\n# summary: passed=1 failed=0 skipped=0\r\n")
        bin_dir = self.tmp / "bin"
        shutil.copy(bin_dir / "qemu-system-x86_64",
                    bin_dir / "qemu-system-i386")
        p = run([str(BOOT / "qemu-boot.sh"), "--log",
                 str(self.tmp / "s.log"), *args], env=env)
        argv = self.tmp / "fake.argv.json"
        return p, json.loads(argv.read_text()) if argv.exists() else None

    def test_kernel(self):
        p, argv = self.qemu("--bios", "kernel", "--image", str(self.kernel),
                            "--cpu", "pentium", "--args", "tests=p5/* a;b")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(argv[argv.index("-kernel") + 1], "pmu-harness.elf")
        self.assertEqual(argv[argv.index("-append") + 1], "tests=p5/* a;b")
        self.assertEqual(argv[argv.index("-machine") + 1], "pc")
        self.assertIn("isa-debug-exit,iobase=0xf4,iosize=0x04", argv)

    def test_refusals(self):
        for args in (("--bios", "usb"),
                     ("--bios", "kernel", "--cfg-file", str(self.kernel)),
                     ("--bios", "kernel", "--volume-free", "8"),
                     ("--bios", "kernel", "--args", "a\nb")):
            p, argv = self.qemu("--image", str(self.kernel), *args)
            self.assertEqual(p.returncode, 3, args)
            self.assertIsNone(argv, args)

    def test_bochs_refusals(self):
        for args in (("--medium", "usb", "--cpu", "pentium"),
                     ("--medium", "cd", "--cpu", "pentium,ips=1"),
                     ("--medium", "cd", "--cpu", "pentium", "--mem", "0"),
                     ("--medium", "cd", "--cpu", "pentium", "--args",
                      "a\nb")):
            p = run([str(BOOT / "bochs-boot.sh"), "--image",
                     str(self.kernel), "--log", str(self.tmp / "b.log"),
                     *args])
            self.assertEqual(p.returncode, 3, args)
            self.assertIn("bochs-boot:", p.stderr)


if __name__ == "__main__":
    unittest.main()
