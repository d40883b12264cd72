"""The CPUID dump corpus (issue 40, tools/lab/tests/cpuid/): every file
parses, every file has its entry in expected.yaml and every entry its
file, and the facts written there agree with the raw leaves where a
check needs no product code: family, model and stepping.  Nothing here
imports pmu/, arch/ or harness/ code; the other facts are literals,
checked when they were written (expected.yaml's header)."""

import re
import unittest
from pathlib import Path

import yaml

from tools.lab import cpuid_dump as cd

CORPUS = Path(__file__).resolve().parent / "cpuid"
FILES = sorted(p.name for p in CORPUS.glob("GenuineIntel*.txt"))
FIELDS = {"family", "model", "stepping", "max_leaf", "cores_per_package",
          "logical_per_package", "threads_per_core", "ht", "smt_from_0b",
          "hybrid", "core_type", "perfmon"}
PERFMON = {"version", "gp_counters", "gp_width", "fixed_counters",
           "fixed_width", "ebx_len", "events_unavailable"}


def expected():
    """expected.yaml, read once (libyaml's loader when there is one)."""
    if not hasattr(expected, "data"):
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        with open(CORPUS / "expected.yaml") as f:
            expected.data = yaml.load(f, Loader=loader)
    return expected.data


def signature(eax):
    """(family, model, stepping) from CPUID.01H:EAX, restating the rule
    of SDM Vol. 2A, CPUID, "Version Information" (not the harness's
    code): stepping = EAX[3:0], model = EAX[7:4], family = EAX[11:8];
    family 0FH adds the extended family EAX[27:20]; families 06H and 0FH
    add the extended model EAX[19:16] << 4."""
    base = (eax >> 8) & 0xF
    family = base + ((eax >> 20) & 0xFF if base == 0xF else 0)
    model = (eax >> 4) & 0xF
    if base in (0x6, 0xF):
        model += ((eax >> 16) & 0xF) << 4
    return family, model, eax & 0xF


class Corpus(unittest.TestCase):
    def test_enough_files(self):
        self.assertGreaterEqual(len(FILES), 62)

    def test_every_file_parses(self):
        for name in FILES:
            with self.subTest(name):
                cpus = cd.parse_file(CORPUS / name)
                self.assertTrue(cpus)
                for c in cpus:
                    self.assertIn((1, 0), c.leaves, f"#{c.index}")

    def test_files_and_entries_match(self):
        self.assertEqual(sorted(expected()), FILES)

    def test_entries_are_well_formed(self):
        for name, entry in expected().items():
            with self.subTest(name):
                self.assertEqual(set(entry), {"cpu", "source", "logical"})
                self.assertEqual(entry["source"], "GenuineIntel/" + name)
                self.assertTrue(entry["cpu"])
                for n, facts in entry["logical"].items():
                    self.assertEqual(set(facts), FIELDS, f"#{n}")
                    if facts["perfmon"] is not None:
                        self.assertEqual(set(facts["perfmon"]), PERFMON)
                        self.assertRegex(
                            facts["perfmon"]["events_unavailable"],
                            r"^0x[0-9a-f]+$")
                    self.assertIn(facts["core_type"],
                                  (None, "performance", "efficient"))

    def test_logical_cpus_are_those_kept(self):
        """The entry names exactly the logical CPUs of the file."""
        for name in FILES:
            with self.subTest(name):
                cpus = cd.parse_file(CORPUS / name)
                self.assertEqual(sorted(expected()[name]["logical"]),
                                 sorted(c.index for c in cpus))

    def test_family_model_stepping_agree_with_leaf_1(self):
        for name in FILES:
            for c in cd.parse_file(CORPUS / name):
                with self.subTest(name, cpu=c.index):
                    facts = expected()[name]["logical"][c.index]
                    self.assertEqual(
                        (facts["family"], facts["model"],
                         facts["stepping"]),
                        signature(c.get(1)[0]))

    def test_readme_names_every_file_and_its_source(self):
        readme = (CORPUS / "README.md").read_text()
        rows = re.findall(r"^\| `(GenuineIntel[^`]*)` \|.*"
                          r"`GenuineIntel/(\S+)` \|", readme, re.M)
        self.assertEqual(sorted(r[0] for r in rows), FILES)
        for name, source in rows:
            self.assertEqual(name, source)

    def test_signature_rule(self):
        """The rule itself, on well-known signatures (P5 0517 is 5/1/7,
        Pentium D 0F44 is 15/4/4, Skylake 06_5E, Alder Lake 06_97,
        Alder Lake-N 06_BE) and on made-up ones for the conditions."""
        self.assertEqual(signature(0x00000517), (5, 1, 7))
        self.assertEqual(signature(0x00000F44), (15, 4, 4))
        self.assertEqual(signature(0x000506E3), (6, 0x5E, 3))
        self.assertEqual(signature(0x00090672), (6, 0x97, 2))
        self.assertEqual(signature(0x00B06E0), (6, 0xBE, 0))
        # an extended family counts only for family 0FH; an extended
        # model only for families 06H and 0FH
        self.assertEqual(signature(0x00100F00), (16, 0, 0))
        self.assertEqual(signature(0x00100500), (5, 0, 0))
        self.assertEqual(signature(0x00010500), (5, 0, 0))


if __name__ == "__main__":
    unittest.main()
