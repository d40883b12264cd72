"""tools/check/layers.py on small fake source trees."""

import shutil
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import (PY, TOOLS, call_main, not_ok_lines,
                                   ok_lines, run_tool)

from tools.check import layers

# A tree that keeps every rule.
CLEAN = {
    "boot/main.c": '#include "options.h"\n#include "../harness/runner.h"\n'
                   '#include "../pmu/detect.h"\n#include <efi.h>\n',
    "boot/options.h": "",
    "tests/test.h": '#include "../harness/runner.h"\n',
    "tests/p5/cc.c": '#include "../test.h"\n'
                     '#include "../../pmu/p5/driver.h"\n'
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
    "pmu/backend.h": '#include "detect.h"\n#include "lib/fmt.h"\n'
                     "int be_rd(void);\n",
    "pmu/p5/driver.h": '#include "regs.h"\nint p5_init(void);\n',
    "pmu/p5/driver.c": '#include "driver.h"\n#include "../backend.h"\n'
                       "int p5_init(void) { return be_rd(); }\n",
    "pmu/p5/regs.h": "#define P5_MSR_CESR 0x11\n",
    "pmu/p5/generation.c": '#include "driver.h"\n'
                           "PMU_GENERATION(p5, .kind = PMU_P5, "
                           '.groups = { "p5/" });\n',
    "pmu/backend.c": '#include "backend.h"\nint be_rd(void) { return 0; }\n',
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
        # in this process (support.call_main); test_no_tree runs the
        # command itself
        r = call_main(layers.main, ["--root", str(root)],
                      prog=str(TOOLS / "check" / "layers.py"))
        return r.returncode, r.output

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
        self.assertEqual(len(ok_lines(out)), 13)

    def test_log_text_is_ascii(self):
        # A section sign in a message reaches the log as the bytes C2 A7.
        self.assertViolation(
            {"pmu/backend.c": '#include "backend.h"\n/* \u00a7 1 */\n'
                              'const char *m = "a // b (SDM \u00a718.1)";\n'},
            "string literals are ASCII",
            'pmu/backend.c:3: "a // b (SDM \u00a718.1)"')

    def test_non_ascii_in_comments_and_host_tests_is_fine(self):
        rc, out = self.tree({
            "pmu/backend.c": '#include "backend.h"\n/* SDM \u00a718.1: "x" */'
                             '\n// \u00a7 2\nint be_rd(void) { return 0; }\n',
            "tests/host/test_x.c": 'const char *m = "\u00a7";\n'})
        self.assertEqual(rc, 0, out)

    def test_non_ascii_in_host_only_generation_files_is_fine(self):
        # pmu/GEN/listing.c and referee.c are the host tools' alone: their
        # text never reaches the log.
        rc, out = self.tree({
            "pmu/p5/referee.c": 'const char *c = "SDM \u00a718.23";\n',
            "pmu/p5/listing.c": 'const char *c = "SDM \u00a718.23";\n'})
        self.assertEqual(rc, 0, out)

    def test_non_ascii_in_generation_target_code_fails(self):
        self.assertViolation(
            {"pmu/p5/events.c": 'const char *c = "SDM \u00a718.23";\n'},
            "string literals are ASCII",
            'pmu/p5/events.c:1: "SDM \u00a718.23"')

    # pmu/perfmon/'s order (issue 38): regs, then ds/, then pebs/, bts/,
    # lbr/, then the driver and the model.
    PERFMON = {
        "pmu/perfmon/regs.h": "",
        "pmu/perfmon/caps.h": '#include "regs.h"\n',
        "pmu/perfmon/ds/regs.h": '#include "../regs.h"\n',
        "pmu/perfmon/ds/driver.h": '#include "regs.h"\n#include "../caps.h"\n',
        "pmu/perfmon/pebs/regs.h": '#include "../ds/regs.h"\n',
        "pmu/perfmon/pebs/model.c": '#include "regs.h"\n'
                                    '#include "../lbr/model.h"\n',
        "pmu/perfmon/lbr/model.h": '#include "../ds/regs.h"\n',
        "pmu/perfmon/driver.h": '#include "regs.h"\n',
        "pmu/perfmon/driver.c": '#include "driver.h"\n'
                                '#include "pebs/regs.h"\n'
                                '#include "ds/driver.h"\n',
    }

    def test_perfmon_order_kept(self):
        rc, out = self.tree(self.PERFMON)
        self.assertEqual(rc, 0, out)

    def test_perfmon_regs_includes_pebs(self):
        self.assertViolation(
            dict(self.PERFMON, **{"pmu/perfmon/regs.c":
                                  '#include "regs.h"\n'
                                  '#include "pebs/regs.h"\n'}),
            "inside pmu/perfmon/, includes go down one order",
            'pmu/perfmon/regs.c:2: #include "pebs/regs.h" -> '
            "pmu/perfmon/pebs/regs.h (level 0 includes level 2)")

    def test_perfmon_ds_includes_pebs_or_the_driver(self):
        self.assertViolation(
            dict(self.PERFMON, **{"pmu/perfmon/ds/model.c":
                                  '#include "../pebs/regs.h"\n'}),
            "includes go down one order", "(level 1 includes level 2)")
        self.assertViolation(
            dict(self.PERFMON, **{"pmu/perfmon/pebs/sample.c":
                                  '#include "../driver.h"\n'}),
            "includes go down one order", "(level 2 includes level 3)")

    def test_perfmon_file_without_a_place(self):
        self.assertViolation(
            dict(self.PERFMON, **{"pmu/perfmon/misc.c":
                                  '#include "regs.h"\n'}),
            "includes go down one order",
            "pmu/perfmon/misc.c: no place in the order")

    def test_upward_include(self):
        out = self.assertViolation(
            {"pmu/backend.h": '#include "../boot/options.h"\n'},
            "includes go down the layers",
            'pmu/backend.h:1: #include "../boot/options.h" -> '
            "boot/options.h (pmu/ is below boot/)")
        self.assertIn("not ok - layers: only boot/ includes boot/", out)

    def test_root_relative_include(self):
        self.assertViolation({"lib/fmt.h": '#include "pmu/p5/regs.h"\n'},
                             "lib/ includes only lib/",
                             'lib/fmt.h:1: #include "pmu/p5/regs.h" -> pmu/p5/regs.h')

    def test_arch_includes_pmu(self):
        self.assertViolation({"arch/x86/trap.c":
                              '#include "../../pmu/p5/regs.h"\n'},
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
        # The generations are the folders under pmu/, their kinds what
        # their generation.c says: a new one is covered without a list.
        gen = {"pmu/zen9/ops.h": "",
               "pmu/zen9/generation.c": "PMU_GENERATION(zen9, "
                                        ".kind = PMU_ZEN9);\n"}
        self.assertViolation({"boot/main.c": '#include "../pmu/p5/regs.h"\n'},
                             "pmu/'s core are generation-independent",
                             'boot/main.c:1: #include "../pmu/p5/regs.h" -> '
                             "pmu/p5/regs.h")
        self.assertViolation(dict(gen, **{"harness/run.c":
                                          '#include "../pmu/zen9/ops.h"\n'}),
                             "pmu/'s core are generation-independent",
                             "harness/run.c:1: #include "
                             '"../pmu/zen9/ops.h" -> pmu/zen9/ops.h')
        self.assertViolation({"boot/leave.c": "int k = PMU_P5;\n"},
                             "pmu/'s core are generation-independent",
                             "boot/leave.c:1: mentions PMU_P5")
        self.assertViolation(dict(gen, **{"boot/x.c": "case PMU_ZEN9:\n"}),
                             "pmu/'s core are generation-independent",
                             "mentions PMU_ZEN9")
        # a kind no generation.c names is no generation's
        rc, out = self.tree({"boot/x.c": "case PMU_NONE:\n"})
        self.assertEqual(rc, 0, out)

    def test_pmu_core_names_no_generation(self):
        # issue 38: what a generation is, the core reads from its
        # descriptor; only pmu/cpu_model.h declares the kinds
        self.assertViolation({"pmu/detect.c": "if (k == PMU_P5) {}\n"},
                             "pmu/'s core are generation-independent",
                             "pmu/detect.c:1: mentions PMU_P5")
        self.assertViolation({"harness/run.c": "int k = PMU_P5;\n"},
                             "pmu/'s core are generation-independent",
                             "harness/run.c:1: mentions PMU_P5")
        self.assertViolation({"pmu/backend.c":
                              '#include "backend.h"\n'
                              '#include "p5/regs.h"\n'},
                             "pmu/'s core are generation-independent",
                             'pmu/backend.c:2: #include "p5/regs.h"')
        rc, out = self.tree({"pmu/cpu_model.h": "enum k { PMU_P5 };\n",
                             "pmu/p5/driver.c": '#include "driver.h"\n'
                             "int p5_init(void) { return PMU_P5; }\n"})
        self.assertEqual(rc, 0, out)

    def test_core_reads_no_pmu_cpuid_leaf(self):
        # issue 38: CPUID.0AH is arch perfmon's, read by its descriptor's
        # detect hook; the core reads the generic leaves only
        self.assertViolation({"pmu/detect.c": "r = cpuid(0xa);\n"},
                             "no CPUID leaf of a PMU",
                             "pmu/detect.c:1: reads CPUID leaf 0AH")
        self.assertViolation({"boot/x.c": "r = cpuid_count(0x14, 0);\n"},
                             "no CPUID leaf of a PMU",
                             "boot/x.c:1: reads CPUID leaf 14H")
        rc, out = self.tree({
            "pmu/detect.c": "r = cpuid(1); e = cpuid(0x80000000);\n"
                            "/* not cpuid(0xa) */\n",
            "pmu/p5/caps.c": "r = cpuid(0xa);\n"})
        self.assertEqual(rc, 0, out)

    def test_header_belongs_to_one_c(self):
        self.assertViolation({"pmu/p5/regs.h": "int p5_init(void);\n"},
                             "declares only what its own .c defines",
                             "pmu/p5/regs.h declares p5_init, which "
                             "pmu/p5/driver.c defines")

    def test_include_cycle(self):
        self.assertViolation({"pmu/detect.h": '#include "backend.h"\n'},
                             "no include cycle",
                             "pmu/backend -> pmu/detect (pmu/backend.h:1); "
                             "pmu/detect -> pmu/backend (pmu/detect.h:1)")

    def test_call_cycle(self):
        out = self.assertViolation(
            {"pmu/backend.c": '#include "backend.h"\n'
                              '#include "p5/driver.h"\n'
                              "int be_rd(void) { return p5_init(); }\n"},
            "no call cycle",
            "pmu/backend -> pmu/p5/driver (p5_init); "
            "pmu/p5/driver -> pmu/backend (be_rd)")
        # the includes alone form no cycle (backend.c includes driver.h,
        # driver.h includes only regs.h)
        self.assertIn("ok - layers: no include cycle", out)

    def test_call_through_ops_table_is_no_edge(self):
        rc, out = self.tree({"pmu/backend.c":
                             '#include "backend.h"\n'
                             "int be_rd(void) { return ops->init(); }\n"})
        self.assertEqual(rc, 0, out)

    def test_tests_hold_only_tests(self):
        self.assertViolation({"tests/runner.c": "void run(void) {}\n"},
                             "defines a TEST(", "tests/runner.c: no TEST(")
        self.assertViolation({"tests/bench/gprs.S": "ret\n"},
                             "defines a TEST(", "tests/bench/gprs.S: no TEST(")
        # a group's shared steps, named after it, and only so
        rc, out = self.tree({"tests/pebs/pebs_run.c": "int run(void);\n",
                             "tests/pebs/pebs_expect.c": "int x(void);\n"})
        self.assertEqual(rc, 0, out)
        self.assertViolation({"tests/pebs/p5_run.c": "int run(void);\n"},
                             "defines a TEST(", "tests/pebs/p5_run.c: no TEST(")

    def test_unresolved_include(self):
        self.assertViolation({"pmu/x.c": '#include "nowhere.h"\n'},
                             "every quoted include names a file",
                             'pmu/x.c:1: #include "nowhere.h": no such file')

    def test_host_tests_are_exempt(self):
        rc, out = self.tree({"tests/host/test_y.c":
                             '#include "../../boot/options.h"\n'
                             '#include "../../pmu/p5/driver.c"\n'})
        self.assertEqual(rc, 0, out)

    def test_no_tree(self):
        # the command itself, in a process of its own
        root = Path(tempfile.mkdtemp(prefix="pmu-layers-"))
        self.addCleanup(shutil.rmtree, root, True)
        rc, out = run_tool([PY, "-m", "tools.check.layers", "--root",
                            str(root)])
        self.assertEqual(rc, 1)
        self.assertIn("not ok - layers: no source tree", out)


if __name__ == "__main__":
    unittest.main()
