"""tools/check/layers.py on small fake source trees."""

import shutil
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import PY, not_ok_lines, ok_lines, run_tool

# A tree that keeps every rule.
CLEAN = {
    "boot/main.c": '#include "options.h"\n#include "../harness/runner.h"\n'
                   '#include "../pmu/detect.h"\n#include <efi.h>\n',
    "boot/options.h": "",
    "tests/test.h": '#include "../harness/runner.h"\n',
    "tests/p5/cc.c": '#include "../test.h"\n#include "../../pmu/p5.h"\n'
                     "TEST(cc, x) {}\n",
    "tests/bench/helpers.h": "",
    "tests/host/test_x.c": '#include "../../boot/options.h"\n'
                           '#include "../../tests/test.h"\n',
    "tests/host/stub.c": "int stub;\n",
    "harness/runner.h": '#include "../bench/bench.h"\n'
                        '#include "../lib/tap.h"\n',
    "bench/bench.h": '#include "../harness/runner.h"\n'
                     '#include "../pmu/backend.h"\n',
    "bench/basic.S": '#include "bench.h"\n',
    "pmu/detect.h": '#include "../arch/x86/cpu.h"\n',
    "pmu/backend.h": '#include "detect.h"\n#include "lib/fmt.h"\n',
    "pmu/p5.h": "",
    "arch/x86/cpu.h": '#include "../../lib/fmt.h"\n',
    "arch/x86/trap.c": '#include "cpu.h"\n',
    "lib/fmt.h": "",
    "lib/tap.h": '#include "fmt.h"\n',
}


class Layers(unittest.TestCase):
    def tree(self, extra=None, drop=()):
        root = Path(tempfile.mkdtemp(prefix="pmu-layers-"))
        self.addCleanup(shutil.rmtree, root, True)
        files = dict(CLEAN)
        files.update(extra or {})
        for rel, text in files.items():
            if rel in drop:
                continue
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        return run_tool([PY, "-m", "tools.check.layers", "--root",
                         str(root)])

    def assertViolation(self, files, rule, detail):
        rc, out = self.tree(files)
        self.assertEqual(rc, 1, out)
        bad = not_ok_lines(out)
        self.assertTrue(any(rule in l for l in bad),
                        f"rule {rule!r} not failed:\n{out}")
        self.assertIn(detail, out)
        return out

    def test_clean_tree_passes(self):
        rc, out = self.tree()
        self.assertEqual(rc, 0, out)
        self.assertEqual(not_ok_lines(out), [])
        self.assertEqual(len(ok_lines(out)), 8)

    def test_upward_include(self):
        out = self.assertViolation(
            {"pmu/backend.h": '#include "../boot/options.h"\n'},
            "includes go down the layers",
            'pmu/backend.h:1: #include "../boot/options.h" -> '
            "boot/options.h (pmu/ is below boot/)")
        self.assertIn("not ok - layers: only boot/ includes boot/", out)

    def test_root_relative_include(self):
        self.assertViolation({"lib/fmt.h": '#include "pmu/p5.h"\n'},
                             "lib/ includes only lib/",
                             'lib/fmt.h:1: #include "pmu/p5.h" -> pmu/p5.h')

    def test_arch_includes_pmu(self):
        self.assertViolation({"arch/x86/trap.c": '#include "../../pmu/p5.h"\n'},
                             "arch/ includes only arch/ and lib/",
                             "arch/x86/trap.c:1")

    def test_only_tests_include_tests(self):
        self.assertViolation({"boot/main.c": '#include "../tests/test.h"\n'},
                             "only tests/ includes tests/",
                             'boot/main.c:1: #include "../tests/test.h"')

    def test_bench_includes_tests(self):
        self.assertViolation({"bench/x.c": '#include "../tests/test.h"\n'},
                             "includes go down the layers",
                             "(bench/ is below tests/)")

    def test_boot_names_a_generation(self):
        self.assertViolation({"boot/main.c": '#include "../pmu/p5.h"\n'},
                             "boot/ names no PMU generation",
                             'boot/main.c:1: #include "../pmu/p5.h" -> '
                             "pmu/p5.h")
        self.assertViolation({"boot/leave.c": "int k = PMU_P5;\n"},
                             "boot/ names no PMU generation",
                             "boot/leave.c:1: mentions PMU_P5")
        self.assertViolation({"boot/x.c": "case PMU_ARCH_PERFMON:\n"},
                             "boot/ names no PMU generation",
                             "mentions PMU_ARCH")

    def test_tests_hold_only_tests(self):
        self.assertViolation({"tests/runner.c": "void run(void) {}\n"},
                             "defines a TEST(", "tests/runner.c: no TEST(")
        self.assertViolation({"tests/bench/gprs.S": "ret\n"},
                             "defines a TEST(", "tests/bench/gprs.S: no TEST(")

    def test_unresolved_include(self):
        self.assertViolation({"pmu/x.c": '#include "nowhere.h"\n'},
                             "every quoted include names a file",
                             'pmu/x.c:1: #include "nowhere.h": no such file')

    def test_host_tests_are_exempt(self):
        rc, out = self.tree({"tests/host/test_y.c":
                             '#include "../../boot/options.h"\n'
                             '#include "../../pmu/p5.h"\n'})
        self.assertEqual(rc, 0, out)

    def test_no_tree(self):
        root = Path(tempfile.mkdtemp(prefix="pmu-layers-"))
        self.addCleanup(shutil.rmtree, root, True)
        rc, out = run_tool([PY, "-m", "tools.check.layers", "--root",
                            str(root)])
        self.assertEqual(rc, 1)
        self.assertIn("not ok - layers: no source tree", out)


if __name__ == "__main__":
    unittest.main()
