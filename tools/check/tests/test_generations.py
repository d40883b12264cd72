"""tools/check/generations.py: the build's listing of the PMU generations
(build/pmu-generations.txt), and logcheck's "# pmu: kind=" rule derived
from it."""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools.check import generations, logcheck
from tools.testing.support import ROOT

P5 = ('pmu_generation_listing: .name = "p5", .kind = PMU_P5, '
      '.kind_name = "p5", .driver = &p5_driver, .probe = { .msr = 0x11, '
      '.value = 0x16u << 16 | 0x16u }, .groups = { "p5/" },;')
PT = ('pmu_generation_listing: .name = "pt", .kind = PMU_ARCH, '
      '.feature = 1, .groups = { "pt/" },;')


class Listing(unittest.TestCase):
    def test_line(self):
        g = generations.parse_line(P5)
        self.assertEqual((g.name, g.kind, g.kind_name, g.feature, g.groups),
                         ("p5", "PMU_P5", "p5", False, ["p5/"]))
        g = generations.parse_line(PT)
        self.assertEqual((g.name, g.kind_name, g.feature, g.groups),
                         ("pt", "", True, ["pt/"]))

    def test_kind_names_leave_out_features(self):
        gens = generations.parse(P5 + "\n" + PT + "\n")
        self.assertEqual(generations.kind_names(gens), ["p5"])

    def test_bad_listings(self):
        for text in ("", "\n", "int x;\n",
                     'pmu_generation_listing: .kind_name = "p5",;\n'):
            with self.assertRaises(generations.ListingError, msg=text):
                generations.parse(text)
        with self.assertRaises(generations.ListingError) as e:
            generations.load("/nonexistent/pmu-generations.txt")
        self.assertIn("make all writes it", str(e.exception))

    def test_the_build_lists_every_generation_folder(self):
        # The listing is derived from pmu/*/generation.c: every folder
        # with a descriptor is in it, by its folder's name.
        listing = ROOT / "build" / "pmu-generations.txt"
        if not listing.is_file():
            self.fail(f"{listing}: missing (make all writes it)")
        names = sorted(g.name for g in generations.load(listing))
        folders = sorted(d.name for d in (ROOT / "pmu").iterdir()
                         if (d / "generation.c").is_file())
        self.assertEqual(names, folders)


class PmuHeaderRule(unittest.TestCase):
    def rule(self, text):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "g.txt"
            path.write_text(text)
            with mock.patch.object(generations, "LISTING", path):
                kinds = logcheck.pmu_kinds()
        return dict((k, r) for k, r, _ in
                    logcheck.header_rules(kinds))["pmu"]

    def test_kinds_come_from_the_listing(self):
        rule = self.rule(P5 + "\n" + PT + "\n")
        self.assertTrue(rule.search("kind=p5 counters=2 width=40"))
        self.assertTrue(rule.search("kind=none"))
        self.assertTrue(rule.search("kind=unsupported vendor=AuthenticAMD"))
        # a generation the image does not have, and a feature's name
        self.assertFalse(rule.search("kind=p6 counters=2"))
        self.assertFalse(rule.search("kind=pt"))
        self.assertFalse(rule.search("kind=p5x"))


if __name__ == "__main__":
    unittest.main()
