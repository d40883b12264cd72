"""tools/check/matrix.py's firmware snapshots: which boots share one
(snapshot_shape(), shared_shapes()) and which of a boot's flags make its
machine (shape_argv()).  A snapshot holds the machine OVMF's SEC and PEI
phases ran on: boots that differ in anything QEMU builds the machine from
(CPU features, processors, memory, devices, the variable store) must not
share one; boots that differ only in CPUID's signature, the harness's
options, the cfg file or the boot volume's contents may."""

import unittest
from dataclasses import replace
from pathlib import Path

from tools.check import boottable, matrix

ROOT = Path(__file__).resolve().parents[3]
QEMU64 = "qemu64,vendor=GenuineIntel,family=6,model=1,stepping=9"


def uefi(name, cpu=QEMU64, **kw):
    return boottable.Boot(name=name, cpu=cpu, verdict="pass", expect_cpu={},
                          expect_pmu={}, backend="model", **kw)


class Shapes(unittest.TestCase):
    def test_signature_alone_shares(self):
        a = uefi("a")
        b = uefi("b", cpu="qemu64,vendor=GenuineIntel,family=5,model=2,"
                          "stepping=5", options="tests=p5/*",
                 cfg_file="tests/fixtures/cfg/over-64k.cfg",
                 volume_free_kib=8, volume_logdir_file=True, timeout=60)
        self.assertEqual(matrix.snapshot_shape(a), matrix.snapshot_shape(b))

    def test_the_machine_splits(self):
        a = uefi("a")
        others = [
            replace(a, cpu="Skylake-Client"),
            replace(a, cpu=QEMU64 + ",+pdcm"),
            replace(a, cpu=QEMU64.replace("GenuineIntel", "AuthenticAMD")),
            replace(a, smp="2,sockets=1,cores=1,threads=2"),
            replace(a, memory=64),
            replace(a, com4=True),
            replace(a, vga=True),
            replace(a, volume_readonly=True),
            replace(a, nvram="fresh"),
        ]
        shapes = {matrix.snapshot_shape(b) for b in [a, *others]}
        self.assertEqual(len(shapes), 1 + len(others))

    def test_only_uefi_boots(self):
        for kind in ("bios-kernel", "bios-disk", "bochs-cd", "bochs-floppy"):
            self.assertIsNone(matrix.snapshot_shape(uefi("x", boot=kind)))

    def test_shared_only_from_two_boots(self):
        boots = [uefi("a"), uefi("b", cpu=QEMU64.replace("=6", "=15")),
                 uefi("alone", cpu="Nehalem"),
                 uefi("bios", boot="bios-kernel")]
        groups = matrix.shared_shapes(boots)
        self.assertEqual([[b.name for b in g] for g in groups.values()],
                         [["a", "b"]])

    def test_machine_flags_of_a_boot(self):
        b = uefi("a", smp="2", memory=64, com4=True, vga=True,
                 volume_readonly=True, volume_free_kib=8,
                 options="tests=x/*")
        argv = matrix.boot_argv(b, {"image": "IMG", "vars": "VARS"},
                                Path("/out"))
        self.assertEqual(matrix.shape_argv(argv),
                         ["--smp", "2", "--com4", "--vga", "--mem", "64",
                          "--readonly", "--vars", "VARS"])

    def test_snapshot_reaches_the_boot_script(self):
        argv = matrix.boot_argv(uefi("a"), {"image": "IMG", "vars": "V"},
                                Path("/out"), Path("/s/shape-0.state"))
        self.assertEqual(argv[argv.index("--snapshot") + 1],
                         "/s/shape-0.state")
        self.assertNotIn("--snapshot", matrix.boot_argv(
            uefi("a"), {"image": "IMG", "vars": "V"}, Path("/out")))

    def test_the_table_keeps_cold_boots(self):
        # Boots that start from reset stay in the table: the fresh
        # variable stores and every machine of its own.
        boots, errors = boottable.load(ROOT / "tools" / "check" /
                                       "matrix.yaml")
        self.assertEqual(errors, [])
        shared = {b.name for g in matrix.shared_shapes(boots).values()
                  for b in g}
        cold = [b.name for b in boots
                if b.boot == "uefi" and b.name not in shared]
        self.assertIn("skylake", cold)          # nvram: fresh
        self.assertIn("logfile-readonly", cold)
        self.assertGreaterEqual(len(cold), 10)

    def test_console_point_only_for_one_cpu(self):
        # The later point holds DXE's tables of the machine's description
        # (SMBIOS's processor signature): only where every boot has the
        # same -cpu.
        same = [uefi("a"), uefi("b", options="tests=x/*")]
        other = [uefi("a"), uefi("b", cpu=QEMU64.replace("=6", "=15"))]
        self.assertEqual(matrix.snapshot_point(same), "console")
        self.assertEqual(matrix.snapshot_point(other), "dxe")


class Order(unittest.TestCase):
    def test_bochs_boots_start_first_the_rest_in_table_order(self):
        boots = [uefi("a"), uefi("b", boot="bochs-cd"), uefi("c"),
                 uefi("d", boot="bios-kernel"), uefi("e", boot="bochs-floppy")]
        self.assertEqual([b.name for b in matrix.longest_first(boots)],
                         ["b", "e", "a", "c", "d"])


if __name__ == "__main__":
    unittest.main()
