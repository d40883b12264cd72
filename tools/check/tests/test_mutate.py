"""tools/check/mutate.py: the mutant list parses, every mutant still
applies to the tree (its text occurs exactly once in its file), and bad
lists are refused.  make mutate itself is too slow for make check; this
keeps its list from rotting between runs."""

import unittest

from tools.check import mutate
from tools.testing.support import ROOT


class List(unittest.TestCase):
    def test_every_mutant_applies_once(self):
        mutants = mutate.parse_list(mutate.LIST.read_text())
        self.assertGreaterEqual(len(mutants), 30)
        for m in mutants:
            with self.subTest(m.name):
                text = (ROOT / m.file).read_text()
                self.assertEqual(text.count(m.find), 1,
                                 f"{m.name}: its text in {m.file}")
                self.assertNotEqual(m.find, m.replace)

    def test_bad_lists(self):
        one = ('mutants:\n  - {name: a, file: f.c, find: x, replace: y, '
               'why: w, host: [t]}\n')
        self.assertEqual(len(mutate.parse_list(one)), 1)
        for text, what in (
                ("", "a mapping"),
                ("mutants: []\n", "no mutants"),
                (one + one[len("mutants:\n"):], "used twice"),
                (one.replace("host: [t]", "boots: [{cpu: x}]"), "string"),
                (one.replace("host: [t]", "boots: [{cpu: x, tests: y, "
                             "bios: 'yes'}]"), "optionally smp and bios"),
                (one.replace(", host: [t]", ""), "names no host test"),
                (one.replace("why: w", "whyy: w"), "unknown keys"),
                (one.replace("host: [t]", "stages: [nosuch]"),
                 "no make check stage nosuch")):
            with self.subTest(what):
                with self.assertRaises(mutate.ListError) as e:
                    mutate.parse_list(text)
                self.assertIn(what, str(e.exception))


class CopyTree(unittest.TestCase):
    """The private copy leaves out make fresh-check's root and anything
    that is no directory, file or link: a FIFO stands in for the root's
    dev/zero, which a copy would read without end."""

    def test_build_ignored(self):
        import os
        import tempfile
        from pathlib import Path
        tmp = Path(tempfile.mkdtemp(prefix="pmu-mutate-"))
        self.addCleanup(__import__("shutil").rmtree, tmp, True)
        build = tmp / "build"
        (build / "fresh" / "root").mkdir(parents=True)
        (build / "pmu").mkdir()
        os.mkfifo(build / "pmu" / "fifo")
        (build / "pmu" / "a.o").write_bytes(b"x")
        os.symlink("a.o", build / "pmu" / "link")
        self.assertEqual(mutate.build_ignored(str(build),
                                              ["fresh", "check", "mutate",
                                               "pmu"]),
                         {"fresh", "check", "mutate"})
        self.assertEqual(mutate.build_ignored(str(build / "pmu"),
                                              ["fifo", "a.o", "link"]),
                         {"fifo"})
        # fresh below build/'s top is an ordinary name
        (build / "pmu" / "fresh").mkdir()
        self.assertEqual(mutate.build_ignored(str(build / "pmu"),
                                              ["fresh"]), set())


if __name__ == "__main__":
    unittest.main()
