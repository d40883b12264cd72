"""`pmu-harness detect --cpuid FILE` (tools/lab/detect.py,
tools/lab/pmu_detect.c) held to real CPUs.

The tool runs the harness's own detection on each logical CPU of a real
CPUID dump (the corpus of tools/lab/tests/cpuid/, trimmed from the public
InstLatx64/InstLatx64 collection; its README names each file's source).
What it must say is expected.yaml's, facts written out per dump from the
raw leaves by the SDM's rules (that file's header says which and how),
never read from pmu/:
  [VER]  SDM Vol. 2A, CPUID, "Version Information": DisplayFamily,
         DisplayModel, stepping from CPUID.01H:EAX.
  [TOPO] SDM Vol. 3A §8.6.2 and Vol. 2A CPUID: logical processors per
         package CPUID.01H:EBX[23:16] (with EDX.HTT), cores per package
         CPUID.04H:EAX[31:26] + 1, threads per core their quotient
         (Linux detect_ht() divides the same way); where leaf 0BH has
         an SMT level, its EBX[15:0] logical processors per core
         (Vol. 2A CPUID leaf 0BH; Linux detect_extended_topology()).
  [HYB]  Vol. 2A CPUID: hybrid CPUID.07H:EDX[15]; core type
         CPUID.1AH:EAX[31:24], 20H Intel Atom, 40H Intel Core.
  [PMON] Vol. 3B §18.2 and Vol. 2A CPUID leaf 0AH: version EAX[7:0], GP
         counters EAX[15:8] and their width EAX[23:16], EBX length
         EAX[31:24]; fixed counters EDX[4:0] and width EDX[12:5] (v2+).
"""

import functools
import json
import subprocess
import sys
import unittest
from pathlib import Path

import yaml

from tools.lab import detect, events

ROOT = Path(__file__).resolve().parent.parent.parent.parent
CORPUS = Path(__file__).resolve().parent / "cpuid"
PROG = ROOT / "tools" / "lab" / "pmu-harness"


@functools.lru_cache(maxsize=None)
def expected():
    with open(CORPUS / "expected.yaml") as f:
        return yaml.safe_load(f)


@functools.lru_cache(maxsize=None)
def detected(name):
    return {o["logical_cpu"]: o for o in detect.detect(CORPUS / name)}


def perfmon_of(o):
    """The detected perfmon fields, in expected.yaml's shape."""
    if o["perfmon_version"] is None:
        return None
    return {"version": o["perfmon_version"],
            "gp_counters": o["gp_counters"], "gp_width": o["gp_width"],
            "fixed_counters": o["fixed_counters"],
            "fixed_width": o["fixed_width"],
            "events_unavailable": o["events_unavailable"]}


class Corpus(unittest.TestCase):
    def test_at_least_60_cpus(self):
        self.assertGreaterEqual(len(expected()), 60)

    def test_every_fact_of_every_dump(self):
        """Each kept logical CPU of each dump, every fact as stated."""
        for name, want in expected().items():
            got = detected(name)
            for index, w in want["logical"].items():
                with self.subTest(dump=name, cpu=index):
                    self.assertIn(index, got)
                    o = got[index]
                    for k in ("family", "model", "stepping",
                              "cores_per_package", "hybrid",
                              "core_type"):
                        self.assertEqual(o[k], w[k], k)
                    # [TOPO]: leaf 0BH's SMT level where the CPU has it
                    # (Linux detect_extended_topology() before
                    # detect_ht()), else leaves 01H and 04H
                    threads = w["smt_from_0b"] or w["threads_per_core"]
                    self.assertEqual(o["threads_per_core"], threads)
                    self.assertEqual(o["ht"], threads >= 2)
                    want_pm = w["perfmon"]
                    if want_pm is not None:
                        want_pm = {k: want_pm[k] for k in (
                            "version", "gp_counters", "gp_width",
                            "fixed_counters", "fixed_width",
                            "events_unavailable")}
                        self.assertEqual(o["pmu_kind"], "arch-perfmon")
                    self.assertEqual(perfmon_of(o), want_pm)

    def test_events_lists_every_perfmon_cpu(self):
        """`events --cpu` lists events for every dumped CPU with
        architectural perfmon: its row's, or Table 18-1's without one."""
        for name, want in expected().items():
            w = want["logical"][min(want["logical"])]
            if w["perfmon"] is None:
                continue
            with self.subTest(dump=name):
                doc = events.listing(w["family"], w["model"],
                                     w["stepping"])
                codes = {(ev.get("event"), ev.get("umask"))
                         for ev in doc["events"]}
                # SDM Vol. 3B §18.2.1.2 Table 18-1: Instruction Retired,
                # C0H/00H, is architectural from version 1
                self.assertIn((0xc0, 0x00), codes)


class PentiumD(unittest.TestCase):
    """Pentium D 820 (0F44H, Smithfield): two cores, no Hyper-Threading
    ([TOPO]: EBX[23:16] = 2 logical processors, CPUID.04H EAX[31:26] = 1:
    2 cores, 1 thread each)."""

    DUMP = "GenuineIntel0000F44_P4_Smithfield_CPUID.txt"

    def test_two_cores_no_ht_and_no_ht_tests(self):
        got = detected(self.DUMP)
        self.assertEqual(sorted(got), [0, 1])
        for o in got.values():
            self.assertEqual(o["pmu_kind"], "netburst")
            self.assertEqual(o["cores_per_package"], 2)
            self.assertEqual(o["threads_per_core"], 1)
            self.assertFalse(o["ht"])
            self.assertIn(" ht=0 threads=1 ", o["header"]["pmu"])
            self.assertEqual(o["plan"]["netburst/"], "run")
            self.assertTrue(o["plan"]["netburst/ht-*"].startswith(
                "skip: no HT (CPUID.01H EDX.HTT=1, EBX[23:16]=2, 2 cores "
                "per package"), o["plan"]["netburst/ht-*"])
            self.assertTrue(o["plan"]["perfmon/"].startswith("skip: "))


class Lbr(unittest.TestCase):
    """The lbr/ group in the plan, from the dump's CPUID alone (restated
    from the SDM, Vol. 3B chapter 17's LBR sections and Vol. 4's MSR
    tables; docs/lbr.md): Sapphire Rapids reports architectural LBRs
    (CPUID.07H:EDX[19]) and CPUID.1CH:EAX = 4000000BH in the dump, depths
    8, 16 and 32 (bits 0, 1, 3): 32 records; Core 2 (06_0FH) keeps 4,
    Nehalem (Bloomfield 06_1AH) 16, the Pentium III 1 (the P6's
    LastBranch pair), the Pentium 4 Prescott (0F34H, model 3) 16; the
    Pentium has none."""

    def plan(self, name):
        return sorted({o["plan"]["lbr/"] for o in detected(name).values()})

    def test_lbr_plans(self):
        want = {
            "GenuineIntel00806F8_SapphireRapids_05_CPUID.txt":
                "run: architectural LBRs: 32 records (CPUID.1CH:EAX "
                "4000000b)",
            "GenuineIntel00006F6_Conroe_CPUID.txt": "run: core2: 4 records",
            "GenuineIntel00106A4_Bloomfield_CPUID.txt":
                "run: nehalem: 16 records",
            "GenuineIntel0000683_P3_Coppermine_CPUID.txt":
                "run: p6: 1 records",
            "GenuineIntel0000F34_P4_Prescott_CPUID.txt":
                "run: netburst: 16 records",
        }
        for name, plan in want.items():
            with self.subTest(dump=name):
                self.assertEqual(self.plan(name), [plan])
        (p5,) = self.plan("GenuineIntel0000517_P5_CPUID.txt")
        self.assertTrue(p5.startswith("skip: no LBRs: "), p5)


def dump(path, lines):
    path.write_text("".join(f"CPUID {leaf:08X}: {a:08X}-{b:08X}-{c:08X}-"
                            f"{d:08X}\n" for leaf, a, b, c, d in lines))
    return path


GENUINE = (0x756E6547, 0x6C65746E, 0x49656E69)   # EBX, ECX, EDX


class Unknown(unittest.TestCase):
    """A CPU the harness does not know is an unknown CPU, never one
    without a PMU; family 4 has none (the Pentium introduced the counters,
    SDM Vol. 3B §18.1)."""

    def setUp(self):
        import tempfile
        self.dir = Path(tempfile.mkdtemp())

    def tearDown(self):
        import shutil
        shutil.rmtree(self.dir)

    def pmu_line(self, eax1):
        b, c, d = GENUINE
        p = dump(self.dir / "d.txt", [(0, 1, b, c, d),
                                      (1, eax1, 0, 0, 0x3)])
        (o,) = detect.detect(p)
        return o

    def test_family_19_is_unknown(self):
        # [VER] family 0FH + extended family EAX[27:20] 04H = 19, model 1
        o = self.pmu_line(0x00400F11)
        self.assertEqual(o["family"], 19)
        self.assertEqual(o["pmu_kind"], "none")
        self.assertIn('reason="unknown CPU', o["header"]["pmu"])
        self.assertTrue(all(v.startswith("skip: ")
                            for v in o["plan"].values()))

    def test_family_4_has_no_pmu(self):
        o = self.pmu_line(0x00000480)
        self.assertEqual((o["family"], o["model"]), (4, 8))
        self.assertIn('reason="no performance-monitoring counters',
                      o["header"]["pmu"])


class Cli(unittest.TestCase):
    def run_cli(self, *args):
        return subprocess.run([sys.executable, str(PROG), "detect", *args],
                              capture_output=True, text=True, cwd=ROOT)

    def test_json_and_text(self):
        p = CORPUS / PentiumD.DUMP
        r = self.run_cli("--cpuid", str(p), "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        objs = json.loads(r.stdout)
        self.assertEqual(len(objs), 2)
        for key in ("vendor", "family", "model", "stepping", "name",
                    "pmu_kind", "threads_per_core", "cores_per_package",
                    "ht", "hybrid", "core_type", "perfmon_version",
                    "gp_counters", "gp_width", "fixed_counters",
                    "fixed_width", "events_unavailable", "pebs", "lbr",
                    "pt", "plan"):
            self.assertIn(key, objs[0])
        r = self.run_cli("--cpuid", str(p))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("# pmu: kind=netburst", r.stdout)

    def test_bad_dump_is_a_clear_error(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / "bad.txt"
            bad.write_text("CPUID 00000001: 0000XF44-00020800\n")
            r = self.run_cli("--cpuid", str(bad))
            self.assertEqual(r.returncode, 2)
            self.assertIn("bad.txt", r.stderr)
            r = self.run_cli("--cpuid", str(Path(d) / "absent.txt"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("absent.txt", r.stderr)


if __name__ == "__main__":
    unittest.main()
