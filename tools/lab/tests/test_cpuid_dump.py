"""tools/lab/cpuid_dump.py: the reader of InstLatx64's CPUID dumps (issue
40), on one small hand-written snippet per layout found in the
collection, on damaged and hostile input, and on every corpus file
(tools/lab/tests/cpuid/, README.md there)."""

import os
import tempfile
import time
import unittest
from pathlib import Path

from tools.lab import cpuid_dump as cd

CORPUS = Path(__file__).resolve().parent / "cpuid"

# Leaf 0 and 1 of a Pentium D 820 (GenuineIntel0000F44_P4_Smithfield).
L0 = (0x00000005, 0x756E6547, 0x6C65746E, 0x49656E69)
L1 = (0x00000F44, 0x00020800, 0x0000641D, 0xBFEBFBFF)


def leaves(cpu):
    """A CPU's leaves, for comparing with a literal."""
    return dict(cpu.leaves)


class Layouts(unittest.TestCase):
    """One snippet per layout of the collection (module docstring)."""

    def test_everest_logical_cpu_sections(self):
        cpus = cd.parse(
            "------[ CPU Info ]------\n\n"
            "CPUID Manufacturer : GenuineIntel\n"
            "CPUID Revision     : 00000F44h\n\n"
            "------[ Logical CPU #0 ]------\n\nallcpu: Valid\n\n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\n"
            "CPUID 00000001: 00000F44-00020800-0000641D-BFEBFBFF\n\n"
            "------[ Logical CPU #1 ]------\n\n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\n"
            "CPUID 00000001: 00000F44-01020800-0000641D-BFEBFBFF\n\n"
            "------[ MSR Registers ]------\n\n"
            "MSR 0000001B: 0000-0000-FEE0-0900\n")
        self.assertEqual([c.index for c in cpus], [0, 1])
        self.assertEqual(leaves(cpus[0]), {(0, 0): L0, (1, 0): L1})
        self.assertEqual(cpus[1].get(1)[1], 0x01020800)
        self.assertEqual(cpus[1].line, 13)

    def test_aida64_cpuid_registers_sections_with_comments(self):
        cpus = cd.parse(
            "------[ CPUID Registers / Logical CPU #0 ]------\n\n"
            "allcpu: Package 0 / Core 0 / Thread 0: Valid\n\n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69 "
            "[GenuineIntel]\n"
            "CPUID 00000001: 00000F44-00020800-0000641D-BFEBFBFF \n"
            "CPUID 80000004: 48473033-0000007A-00000000-00000000 [30GHz\n"
            "CPUID 00000007: 00000001-00000080-00000000-00000000\t[SMEP]\n\n"
            "------[ MSR Registers / Logical CPU #0 ]------\n\n"
            "MSR 00000017: 0010-0000-C107-0480 [PlatID = 4]\n")
        self.assertEqual(len(cpus), 1)
        self.assertEqual(leaves(cpus[0]), {
            (0, 0): L0, (1, 0): L1,
            (0x80000004, 0): (0x48473033, 0x7A, 0, 0),
            (7, 0): (1, 0x80, 0, 0)})

    def test_cpuid_registers_cpu_n_colon(self):
        cpus = cd.parse(
            "CPUID Registers (CPU #1):\n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\n"
            "CPUID 00000001: 00000F44-00020800-0000641D-BFEBFBFF\n\n"
            "CPUID Registers (CPU #2 Virtual):\n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\n")
        self.assertEqual([c.index for c in cpus], [1, 2])
        self.assertEqual(leaves(cpus[0]), {(0, 0): L0, (1, 0): L1})
        self.assertEqual(leaves(cpus[1]), {(0, 0): L0})

    def test_cpuid_registers_cpu_n_tab(self):
        cpus = cd.parse(
            "CPUID Registers (CPU #1):\n"
            "CPUID 00000000  \t00000005-756E6547-6C65746E-49656E69\n"
            "CPUID 00000001  \t00000F44-00020800-0000641D-BFEBFBFF \n")
        self.assertEqual(leaves(cpus[0]), {(0, 0): L0, (1, 0): L1})

    def test_cpuid_registers_cpu_n_one_space(self):
        cpus = cd.parse(     # Timna's dump
            "CPUID Registers (CPU #1):\n"
            "CPUID 00000000 00000002-756E6547-6C65746E-49656E69\n"
            "CPUID 00000001 00000692-00000001-00000000-0381F9BF\n")
        self.assertEqual(cpus[0].get(1), (0x692, 1, 0, 0x0381F9BF))

    def test_affmask_sections(self):
        cpus = cd.parse(
            "CPU#000 AffMask: 0x0000000000000001 \n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69 "
            "[GenuineIntel]\n"
            "CPU#01 AffMask: 0X0000000000000000:0000000000000002 \n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\n")
        self.assertEqual([c.index for c in cpus], [0, 1])

    def test_no_heading_is_logical_cpu_0(self):
        cpus = cd.parse(
            "CPUID 00000000: 00000001-756E6547-6C65746E-49656E69  \n"
            "CPUID 00000001: 00000517-00000000-00000000-000001BF  \n")
        self.assertEqual(len(cpus), 1)
        self.assertEqual(cpus[0].index, 0)
        self.assertEqual(cpus[0].get(1), (0x517, 0, 0, 0x1BF))

    def test_no_heading_each_leaf_0_starts_the_next_cpu(self):
        """Paxville's, Alder Lake's ... bare dumps: one per CPU, each
        from leaf 0, with or without blank lines between."""
        text = ("CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\n"
                "CPUID 00000004: 04004121-01C0003F-0000001F-00000000\n"
                "CPUID 00000004: 04004143-01C0103F-000003FF-00000000\n")
        cpus = cd.parse(text + "\n" + text + text)
        self.assertEqual([c.index for c in cpus], [0, 1, 2])
        for c in cpus:
            self.assertEqual(sorted(c.leaves), [(0, 0), (4, 0), (4, 1)])

    def test_lower_case_hex(self):
        cpus = cd.parse(
            "CPUID 00000000: 00000016-756e6547-6c65746e-49656e69\n"
            "CPUID 0000000d: 000002ff-00000a88-00000a88-00000000\n"
            "CPUID c0000000: 00000c80-00001068-00000064-00000000\n")
        self.assertEqual(cpus[0].get(0xD), (0x2FF, 0xA88, 0xA88, 0))
        self.assertEqual(cpus[0].get(0xC0000000)[0], 0xC80)

    def test_crlf(self):
        cpus = cd.parse(
            "------[ Logical CPU #0 ]------\r\n"
            "CPUID 00000000: 00000005-756E6547-6C65746E-49656E69\r\n")
        self.assertEqual(leaves(cpus[0]), {(0, 0): L0})

    def test_other_cpuid_text_is_not_a_cpuid_line(self):
        cpus = cd.parse(
            "CPUID Manufacturer: GenuineIntel\n"
            "CPUID CPU Name    : Intel(R) Core(TM) i7-4770K CPU @ 3.50GHz\n"
            "CPUID Revision    : 000306C3h\n"
            "IA Brand ID       : 00h  (Unknown)\n")
        self.assertEqual(cpus, [])


class Subleaves(unittest.TestCase):
    def test_repeated_lines_are_subleaves_in_order(self):
        # leaf 0BH's ECX[7:0] echoes the subleaf (SDM Vol. 2A, CPUID)
        cpus = cd.parse(
            "CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69\n"
            "CPUID 0000000B: 00000001-00000002-00000100-00000000\n"
            "CPUID 0000000B: 00000004-00000008-00000201-00000000\n"
            "CPUID 0000000B: 00000000-00000000-00000002-00000000\n")
        for sub in range(3):
            self.assertEqual(cpus[0].get(0xB, sub)[2] & 0xFF, sub)
        self.assertIsNone(cpus[0].get(0xB, 3))

    def test_sl_tag_names_the_subleaf_and_may_skip(self):
        cpus = cd.parse(
            "CPUID 00000000: 00000016-756E6547-6C65746E-49656E69\n"
            "CPUID 0000000D: 000002FF-00000340-00000A88-00000000 [SL 00]\n"
            "CPUID 0000000D: 00000400-00000680-00000000-00000000 [SL 07]\n"
            "CPUID 0000000D: 00000008-00000A80-00000000-00000000 [SL 09]\n"
            "CPUID 0000000D: 00000010-00000000-00000001-00000000 "
            "[SL 0B] [CET_U]\n")
        self.assertEqual(sorted(s for (l, s) in cpus[0].leaves if l == 0xD),
                         [0, 7, 9, 11])
        self.assertEqual(cpus[0].get(0xD, 9), (8, 0xA80, 0, 0))

    def test_untagged_line_follows_the_last_subleaf(self):
        cpus = cd.parse(
            "CPUID 00000000: 00000016-756E6547-6C65746E-49656E69\n"
            "CPUID 00000014: 00000001-0000000F-00000007-00000000 [SL 00]\n"
            "CPUID 00000014: 02490002-003F3FFF-00000000-00000000\n")
        self.assertEqual(cpus[0].get(0x14, 1)[0], 0x02490002)

    def test_subleaves_are_per_cpu(self):
        text = ("------[ Logical CPU #%d ]------\n"
                "CPUID 00000004: 04004121-01C0003F-0000001F-00000000\n")
        cpus = cd.parse(text % 0 + text % 1)
        self.assertEqual([sorted(c.leaves) for c in cpus],
                         [[(4, 0)], [(4, 0)]])


class Damaged(unittest.TestCase):
    """A damaged CPUID line is an error naming its line."""

    HEAD = "------[ Logical CPU #0 ]------\n"

    def damaged(self, line, *words):
        with self.assertRaises(cd.DumpError) as e:
            cd.parse(self.HEAD + "CPUID 00000000: 00000005-756E6547-"
                     "6C65746E-49656E69\n" + line + "\n")
        self.assertIsInstance(e.exception, ValueError)
        msg = str(e.exception)
        self.assertIn("line 3", msg)
        for w in words:
            self.assertIn(w, msg)

    def test_bad_hex_register(self):
        self.damaged("CPUID 00000001: 00000F44-0002080G-0000641D-BFEBFBFF",
                     "0002080G", "not 8 hex digits")

    def test_short_register(self):
        self.damaged("CPUID 00000001: 0000F44-00020800-0000641D-BFEBFBFF",
                     "0000F44")

    def test_three_registers(self):
        self.damaged("CPUID 00000001: 00000F44-00020800-0000641D",
                     "3 registers")

    def test_five_registers(self):
        self.damaged("CPUID 00000001: 00000F44-00020800-0000641D-BFEBFBFF-"
                     "00000000", "5 registers")

    def test_no_registers(self):
        self.damaged("CPUID 00000001:", "1 registers")

    def test_bad_leaf(self):
        self.damaged("CPUID 0000001: 00000F44-00020800-0000641D-BFEBFBFF",
                     "leaf")
        self.damaged("CPUID 0000000G: 00000F44-00020800-0000641D-BFEBFBFF",
                     "leaf")

    def test_bad_sl_tag(self):
        self.damaged("CPUID 00000004: 04004121-01C0003F-0000001F-00000000 "
                     "[SL 0]", "subleaf tag")

    def test_subleaf_twice(self):
        self.damaged("CPUID 00000000: 00000005-756E6547-6C65746E-49656E69 "
                     "[SL 00]", "twice")

    def test_cpuid_line_outside_a_section(self):
        with self.assertRaisesRegex(cd.DumpError, "line 4: .*outside"):
            cd.parse(self.HEAD + "CPUID 00000000: 00000005-756E6547-"
                     "6C65746E-49656E69\n------[ MSR Registers ]------\n"
                     "CPUID 00000001: 00000F44-00020800-0000641D-BFEBFBFF\n")


class Bounds(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(cd.parse(""), [])
        self.assertEqual(cd.parse("\n\n"), [])

    def test_heading_without_cpuid_lines(self):
        cpus = cd.parse("------[ Logical CPU #3 ]------\n")
        self.assertEqual([(c.index, c.leaves) for c in cpus], [(3, {})])

    def test_over_max_bytes(self):
        with self.assertRaisesRegex(cd.DumpError, "MAX_BYTES"):
            cd.parse(" " * (cd.MAX_BYTES + 1))

    def test_over_max_cpus(self):
        text = "".join(f"CPU#{i} AffMask: 0x1\n"
                       for i in range(cd.MAX_CPUS + 1))
        with self.assertRaisesRegex(cd.DumpError, "MAX_CPUS"):
            cd.parse(text)
        self.assertEqual(len(cd.parse(
            "".join(f"CPU#{i} AffMask: 0x1\n"
                    for i in range(cd.MAX_CPUS)))), cd.MAX_CPUS)

    def test_long_hostile_lines_are_quick(self):
        """No backtracking: a megabyte line of each near-miss shape."""
        start = time.monotonic()
        for line in ("CPUID " + "0" * 2**20,
                     "CPUID 00000001: " + "0-" * 2**19,
                     "CPUID " + " \t" * 2**19 + "x",
                     "-" * 2**20 + "[",
                     "CPU#" + "1" * 2**20,
                     "CPU#" + "1" * 2**20 + " AffMask: 0x1"):
            try:
                cd.parse(line)
            except cd.DumpError:
                pass
        self.assertLess(time.monotonic() - start, 5)

    def test_long_cpu_number(self):
        with self.assertRaisesRegex(cd.DumpError, "line 2: .*10 digits"):
            cd.parse("\n------[ Logical CPU #1234567890 ]------\n")

    def test_parse_file_refuses_a_large_file_before_reading_it(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "big.txt")
            with open(p, "wb") as f:
                f.truncate(cd.MAX_BYTES + 1)
            with self.assertRaisesRegex(cd.DumpError, "big.txt.*MAX_BYTES"):
                cd.parse_file(p)

    def test_parse_file_names_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "bad.txt"
            p.write_bytes(b"CPUID 00000001: 00000F44-\xff0020800-0-0\n")
            with self.assertRaisesRegex(cd.DumpError, "bad.txt: line 1"):
                cd.parse_file(p)


class Corpus(unittest.TestCase):
    def test_every_corpus_file_parses(self):
        files = sorted(CORPUS.glob("GenuineIntel*.txt"))
        self.assertGreaterEqual(len(files), 62)
        for p in files:
            with self.subTest(p.name):
                cpus = cd.parse_file(p)
                self.assertTrue(cpus)
                for c in cpus:
                    self.assertIn((0, 0), c.leaves)
                    self.assertIn((1, 0), c.leaves)

    def test_smithfield(self):
        cpus = cd.parse_file(
            CORPUS / "GenuineIntel0000F44_P4_Smithfield_CPUID.txt")
        self.assertEqual([c.index for c in cpus], [0, 1])
        self.assertEqual(cpus[0].get(0), L0)
        self.assertEqual(cpus[0].get(1), L1)
        self.assertEqual(cpus[0].get(4, 1)[0], 0x04000143)   # L2, level 2


if __name__ == "__main__":
    unittest.main()
