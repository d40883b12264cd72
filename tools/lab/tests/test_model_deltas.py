"""Model deltas (tools/lab/deltas.py) and their sections in `pmu-harness
report` and `compare`: where a run's counts depart from the reference
model's (docs/lab.md, "Model deltas"; the keys: docs/log-format.md).

The fixtures (tools/lab/tests/data/model-deltas/) are a real Skylake-Client
boot under QEMU with backend=emulated (`tests=perfmon/event-*,detect/*`)
with the lines the harness writes after each counter on hw and emulated
runs added by hand:

    <run>_ctr<N>_model: <model count> | "none (<why>)"
    <run>_ctr<N>_model_delta: <counted minus model, "+12", "-3", "0">

skylake-emulated.log: event-branches, event-core-cycles and
event-instructions have them (event-ref-cycles' five counters do not);
skylake-hw.log is the same run made a hw log (the backend lines) with
three counters changed (listed at B_CHANGES).  Every expected value below
is read off those hand-written lines, not computed by the code under test.
"""

import re
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import FIXTURES, harness

from tools.lab import compare, deltas, pmulog, report, verdict
from tools.lab.compare_tolerances import load
from tools.lab.tests.test_report import tree

DATA = Path(__file__).resolve().parent / "data" / "model-deltas"
EMU = DATA / "skylake-emulated.log"
HW = DATA / "skylake-hw.log"
MODEL_LOG = FIXTURES / "lab" / "p54c-model.log"

BR = "perfmon/event-branches"
CYC = "perfmon/event-core-cycles"
INS = "perfmon/event-instructions"
# The events' config texts as the log writes them (<run>_ctrN_config).
BR_USR = "ev=0xc4 um=0x00 usr cmask=0 (Branch Instruction Retired)"
BR_OS = "ev=0xc4 um=0x00 os cmask=0 (Branch Instruction Retired)"
BR_BOTH = "ev=0xc4 um=0x00 usr os cmask=0 (Branch Instruction Retired)"
CY_USR = "ev=0x3c um=0x00 usr cmask=0 (UnHalted Core Cycles)"
CY_OS = "ev=0x3c um=0x00 os cmask=0 (UnHalted Core Cycles)"
CY_BOTH = "ev=0x3c um=0x00 usr os cmask=0 (UnHalted Core Cycles)"
IN_USR = "ev=0xc0 um=0x00 usr cmask=0 (Instruction Retired)"
IN_OS = "ev=0xc0 um=0x00 os cmask=0 (Instruction Retired)"
IN_BOTH = "ev=0xc0 um=0x00 usr os cmask=0 (Instruction Retired)"
TRACE = "the driver's CPL 0 code between the writes is not in the " \
    "benchmark's trace"
CLOCKS = "core clocks are not modelled"

# skylake-emulated.log, in the log's order: (test, key, config, counted,
# model, delta, reason).
EMU_COUNTERS = [
    (BR, "cpl3_ctr0", BR_USR, 325, 323, 2, ""),
    (BR, "cpl3_ctr1", BR_OS, 149, 149, 0, ""),
    (BR, "cpl0_ctr0", BR_USR, 0, 0, 0, ""),
    (BR, "cpl0_ctr1", BR_OS, 436, None, None, TRACE),
    (BR, "both_ctr0", BR_BOTH, 424, 430, -6, ""),
    (CYC, "cpl3_ctr0", CY_USR, 69, None, None, CLOCKS),
    (CYC, "cpl3_ctr1", CY_OS, 790, None, None, CLOCKS),
    (CYC, "cpl0_ctr0", CY_USR, 0, None, None, CLOCKS),
    (CYC, "cpl0_ctr1", CY_OS, 629, None, None, CLOCKS),
    (CYC, "both_ctr0", CY_BOTH, 612, None, None, CLOCKS),
    (INS, "cpl3_ctr0", IN_USR, 6, 6, 0, ""),
    (INS, "cpl3_ctr1", IN_OS, 790, 778, 12, ""),
    (INS, "cpl0_ctr0", IN_USR, 0, 0, 0, ""),
    (INS, "cpl0_ctr1", IN_OS, 566, 569, -3, ""),
    (INS, "both_ctr0", IN_BOTH, 549, 549, 0, ""),
]
# Per event, worst departure first (then first seen): (event, compared,
# agreed, "min..max", departed, no model count).
EMU_EVENTS = [
    (IN_OS, 2, 0, "-3..+12", 2, 0),
    (BR_BOTH, 1, 0, "-6", 1, 0),
    (BR_USR, 2, 1, "0..+2", 1, 0),
    (BR_OS, 1, 1, "0", 0, 1),
    (CY_USR, 0, 0, "-", 0, 2),
    (CY_OS, 0, 0, "-", 0, 2),
    (CY_BOTH, 0, 0, "-", 0, 1),
    (IN_USR, 2, 2, "0", 0, 0),
    (IN_BOTH, 1, 1, "0", 0, 0),
]
# skylake-hw.log against skylake-emulated.log
B_CHANGES = {(INS, "cpl0_ctr1"): "counted 569, model 569, delta 0",
             (BR, "both_ctr0"): "counted 430, model 430, delta 0",
             (BR, "cpl0_ctr1"): "counted 440, model 436, delta +4"}

_parsed = {}


def parsed(text, name="x.log"):
    if (text, name) not in _parsed:
        _parsed[(text, name)] = pmulog.parse(text, name, keep_lines=False)
    return _parsed[(text, name)]


def emu_text():
    return EMU.read_text()


def edit(text, test, key, new):
    """text with test's value `key` set to `new` (None: the line removed;
    a key not there: the line added after the block's first line)."""
    lines, out, cur, done = text.split("\n"), [], None, False
    for line in lines:
        m = re.match(r"^(?:not )?ok \d+ - (\S+)", line)
        if m:
            cur = m.group(1)
        if cur == test and not done and line.startswith(f"  {key}: "):
            done = True
            if new is not None:
                out.append(f"  {key}: {new}")
            continue
        out.append(line)
        if cur == test and not done and line == "  ---" and \
                f"  {key}: " not in text.split(f" - {test}\n", 1)[1] \
                .split("  ...", 1)[0]:
            out.append(f"  {key}: {new}")
            done = True
    assert done, (test, key)
    return "\n".join(out)


def rows(counters):
    return [(d.test, d.key, d.config, d.counted, d.model, d.delta, d.reason)
            for d in counters]


class Parsing(unittest.TestCase):
    def test_every_counter_of_the_fixture(self):
        d = deltas.of_log(parsed(emu_text()))
        self.assertEqual(d.backend, "emulated")
        self.assertTrue(d.applicable)
        self.assertEqual(rows(d.counters), EMU_COUNTERS)
        self.assertEqual(d.damage, [])
        # event-ref-cycles: 5 counters with an oracle, no model line
        self.assertEqual(d.without_model, 5)
        self.assertEqual(len(d.deltas), 9)
        self.assertEqual(len(d.none), 6)

    def test_run_and_counter_of_a_key(self):
        d = deltas.of_log(parsed(emu_text())).counters[4]
        self.assertEqual((d.run, d.counter), ("both", "ctr0"))

    def test_per_event(self):
        stats = deltas.by_event(deltas.of_log(parsed(emu_text())).counters)
        self.assertEqual([(s.config, s.compared, s.agreed,
                           deltas.range_text(s), len(s.departures),
                           len(s.none)) for s in stats], EMU_EVENTS)
        self.assertEqual([(d.key, d.delta) for d in stats[0].departures],
                         [("cpl3_ctr1", 12), ("cpl0_ctr1", -3)])

    def test_departures_largest_first_not_in_log_order(self):
        # instructions cpl3_ctr1 made 790 - 789 = +1: in the log's order
        # it comes before cpl0_ctr1's -3
        text = edit(edit(emu_text(), INS, "cpl3_ctr1_model", "789"),
                    INS, "cpl3_ctr1_model_delta", "+1")
        stats = deltas.by_event(deltas.of_log(parsed(text)).counters)
        self.assertEqual(stats[1].config, IN_OS)     # after BR_BOTH's -6
        self.assertEqual([(d.key, d.delta) for d in stats[1].departures],
                         [("cpl0_ctr1", -3), ("cpl3_ctr1", 1)])

    def test_counter_logged_without_its_run_label(self):
        """NetBurst's event tests log the count as "ctr12" (no run
        label) beside pmu_run's "cpl0_ctr12_config": the model lines
        follow the count's key, and the event is the result's one
        "*_ctr12_config"."""
        head = emu_text().split("ok 1 - ", 1)[0]
        text = head + (
            "ok 1 - netburst/instr_retired-x-os-cpl0\n"
            "  ---\n"
            "  cpl0_run: counted-loop n=100 cpl=0 backend=emulated\n"
            "  cpl0_ctr12_config: INSTR_RETIRED on IQ_ESCR0\n"
            "  ctr12: 1342\n"
            "  ctr12_oracle: increment 301..1582 (why)\n"
            "  ctr12_model: 301\n"
            "  ctr12_model_delta: +1041\n"
            "  ...\n1..1\n# summary: passed=1 failed=0 skipped=0\n")
        d = deltas.of_log(parsed(text))
        self.assertEqual(d.damage, [])
        self.assertEqual(rows(d.counters), [
            ("netburst/instr_retired-x-os-cpl0", "ctr12",
             "INSTR_RETIRED on IQ_ESCR0", 1342, 301, 1041, "")])

    def test_model_log_has_nothing_to_diff(self):
        d = deltas.of_log(parsed(MODEL_LOG.read_text(), "p54c-model.log"))
        self.assertEqual(d.backend, "model")
        self.assertFalse(d.applicable)
        self.assertFalse(d.any)
        self.assertEqual(d.without_model, 0)

    def test_model_lines_in_a_model_log_are_damage(self):
        text = emu_text().replace("# backend: emulated", "# backend: model")
        d = deltas.of_log(parsed(text))
        self.assertEqual(d.counters, [])
        self.assertEqual([(x.test, x.key) for x in d.damage],
                         [(BR, "cpl3_ctr0_model"), (CYC, "cpl3_ctr0_model"),
                          (INS, "cpl3_ctr0_model")])
        self.assertIn("backend=model log", d.damage[0].message)


class Damaged(unittest.TestCase):
    """Each damaged value is one Damage (test, result line, key, what);
    that counter is left out, every other counter is still read."""

    def damaged(self, test, key, new):
        d = deltas.of_log(parsed(edit(emu_text(), test, key, new)))
        self.assertEqual(len(d.damage), 1, d.damage)
        self.assertEqual(len(d.counters), len(EMU_COUNTERS) - 1)
        return d.damage[0]

    def test_delta_that_is_not_counted_minus_model(self):
        x = self.damaged(INS, "cpl3_ctr1_model_delta", "+11")
        self.assertEqual((x.test, x.key), (INS, "cpl3_ctr1_model_delta"))
        self.assertEqual(x.message, "delta +11 is not counted minus model "
                         "(790 - 778 = +12)")
        line = next(r.line for r in parsed(emu_text()).results
                    if r.name == INS)
        self.assertEqual(x.line, line)

    # A counter that wrapped: the harness writes the delta modulo the
    # counter's width, signed (docs/log-format.md).  Counted 790 and a
    # model of 2^48 - 10 on a 48-bit counter (the "# pmu:" line's width=48)
    # are 790 + 10 = 800 apart modulo 2^48.
    def test_delta_modulo_the_width_of_the_pmu_line(self):
        text = edit(edit(emu_text(), INS, "cpl3_ctr1_model",
                         str(2**48 - 10)), INS, "cpl3_ctr1_model_delta",
                    "+800")
        d = deltas.of_log(parsed(text))
        self.assertEqual(d.damage, [])
        self.assertIn(800, [c.delta for c in d.counters])

    def test_delta_modulo_no_width_said_is_damage(self):
        text = edit(edit(emu_text(), INS, "cpl3_ctr1_model",
                         str(2**48 - 10)), INS, "cpl3_ctr1_model_delta",
                    "+800")
        text = text.replace(" width=48 ", " ").replace(" fixed_width=48 ",
                                                        " ")
        d = deltas.of_log(parsed(text))
        self.assertEqual([x.key for x in d.damage],
                         ["cpl3_ctr1_model_delta"])

    def test_delta_modulo_off_by_one_is_damage(self):
        text = edit(edit(emu_text(), INS, "cpl3_ctr1_model",
                         str(2**48 - 10)), INS, "cpl3_ctr1_model_delta",
                    "+799")
        d = deltas.of_log(parsed(text))
        self.assertEqual([x.key for x in d.damage],
                         ["cpl3_ctr1_model_delta"])

    def test_delta_sign_reversed(self):
        x = self.damaged(INS, "cpl0_ctr1_model_delta", "+3")
        self.assertIn("(566 - 569 = -3)", x.message)

    def test_model_not_a_number(self):
        x = self.damaged(INS, "cpl3_ctr1_model", "twelve")
        self.assertEqual(x.key, "cpl3_ctr1_model")
        self.assertIn("'twelve' is neither a number", x.message)

    def test_model_a_list(self):
        x = self.damaged(INS, "cpl3_ctr1_model", "[778]")
        self.assertIn("[778]", x.message)

    def test_counted_not_a_number(self):
        x = self.damaged(INS, "cpl3_ctr1", '"79O"')
        self.assertEqual(x.message, "counted value '79O' is not a number")

    def test_delta_not_a_number(self):
        x = self.damaged(BR, "cpl3_ctr0_model_delta", "two")
        self.assertIn("'two' is not a signed number", x.message)

    def test_delta_beside_none(self):
        x = self.damaged(CYC, "cpl3_ctr0_model_delta", "0")
        self.assertIn("beside a model that could not predict", x.message)

    def test_model_without_its_delta(self):
        x = self.damaged(BR, "both_ctr0_model_delta", None)
        self.assertEqual(x.message, "a model count without its delta line")

    def test_delta_without_its_model(self):
        d = deltas.of_log(parsed(edit(emu_text(), BR, "both_ctr0_model",
                                      None)))
        self.assertEqual([(x.key, x.message) for x in d.damage],
                         [("both_ctr0_model_delta",
                           "a delta without its model line")])

    def test_report_and_compare_exit_3_and_name_the_line(self):
        text = edit(emu_text(), INS, "cpl3_ctr1_model_delta", "+11")
        line = next(r.line for r in parsed(text).results if r.name == INS)
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "bad.log"
            bad.write_text(text)
            r = harness("report", bad, "-o", Path(tmp) / "r.html")
            self.assertEqual(r.returncode, 3, r.output)
            self.assertIn(f"pmu-harness report: {bad}:{line}: {INS} "
                          "cpl3_ctr1_model_delta: delta +11 is not counted "
                          "minus model", r.output)
            page = (Path(tmp) / "r.html").read_text()
            self.assertIn("Damaged model values", page)
            r = harness("compare", EMU, bad)
            self.assertEqual(r.returncode, 3, r.output)
            self.assertIn(f"  B damaged: line {line}: {INS} "
                          "cpl3_ctr1_model_delta: delta +11", r.output)


def section(html, n):
    """The model-delta block of log n on the page, as a DOM node."""
    return tree(html).one("div", id=f"deltas-{n}")


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.html = report.render([parsed(emu_text(), "skylake-emulated.log"),
                                  parsed(MODEL_LOG.read_text(),
                                         "p54c-model.log")])

    def test_event_table(self):
        sec = section(self.html, 1)
        got = []
        for tr in sec.all("tr"):
            if "data-event" in tr.attrs:
                cells = [td.text() for td in tr.all("td")]
                got.append((tr.attrs["data-event"], int(cells[1]),
                            int(cells[2]), cells[3], int(cells[4]),
                            int(cells[5])))
        self.assertEqual(got, EMU_EVENTS)

    def test_departures_worst_first(self):
        sec = section(self.html, 1)
        self.assertEqual([li.text() for li in sec.one("ul", class_="dep")
                          .all("li")],
                         [f"{INS} cpl3_ctr1: counted 790, model 778, "
                          "delta +12",
                          f"{BR} both_ctr0: counted 424, model 430, delta -6",
                          f"{INS} cpl0_ctr1: counted 566, model 569, delta -3",
                          f"{BR} cpl3_ctr0: counted 325, model 323, delta +2"])

    def test_no_model_count_with_reasons(self):
        sec = section(self.html, 1)
        items = [li.text() for li in sec.one("ul", class_="none").all("li")]
        self.assertEqual(items[0], f"{BR} cpl0_ctr1: counted 436, no model "
                         f"count ({TRACE})")
        self.assertEqual(items[1:], [
            f"{CYC} {k}: counted {v}, no model count ({CLOCKS})"
            for k, v in (("cpl3_ctr0", 69), ("cpl3_ctr1", 790),
                         ("cpl0_ctr0", 0), ("cpl0_ctr1", 629),
                         ("both_ctr0", 612))])
        text = sec.text()
        self.assertIn("9 counters compared with the model, 5 agreed, 4 "
                      "departed; 6 the model could not predict.", text)
        self.assertIn("5 counters with an oracle value but no model line.",
                      text)

    def test_model_log_says_nothing_to_diff(self):
        self.assertIn("backend model: its counts are the reference model's "
                      "own; there is nothing to diff.",
                      section(self.html, 2).text())

    def test_deltas_do_not_change_the_verdict(self):
        # 4 departures, up to 12 counts: the tests' own oracles passed
        log = parsed(emu_text(), "skylake-emulated.log")
        self.assertEqual(verdict.of(log).word, "PASSED")
        self.assertIn('data-verdict="PASSED"', self.html)

    def test_long_lists_fold(self):
        """40 departures: the 30 largest are listed, then "... and 10
        more"."""
        head = emu_text().split("ok 1 - ")[0]
        body = []
        for i in range(1, 41):
            body.append(f"ok {i} - perfmon/x{i}\n  ---\n"
                        f"  cpl3_ctr0_config: E\n  cpl3_ctr0: {100 + i}\n"
                        "  cpl3_ctr0_oracle: \"increment 0..999 (w)\"\n"
                        "  cpl3_ctr0_model: 100\n"
                        f"  cpl3_ctr0_model_delta: +{i}\n  ...")
        text = head + "\n".join(body) + \
            "\n1..40\n# summary: passed=40 failed=0 skipped=0\n"
        html = report.render([parsed(text, "many.log")])
        items = [li.text() for li in section(html, 1)
                 .one("ul", class_="dep").all("li")]
        self.assertEqual(len(items), 31)
        self.assertEqual(items[0], "perfmon/x40 cpl3_ctr0: counted 140, "
                         "model 100, delta +40")
        self.assertEqual(items[29], "perfmon/x11 cpl3_ctr0: counted 111, "
                         "model 100, delta +11")
        self.assertEqual(items[30], "... and 10 more")


def compared(a, b):
    return compare.compare_logs(a, b, load(compare.DEFAULT_TOLERANCES))


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.emu = parsed(emu_text(), "skylake-emulated.log")
        cls.hw = parsed(HW.read_text(), "skylake-hw.log")

    def test_hw_fixture_is_the_emulated_one_with_three_changes(self):
        a = {(d.test, d.key): d.text().split(": ", 1)[1]
             for d in deltas.of_log(self.emu).counters}
        b = {(d.test, d.key): d.text().split(": ", 1)[1]
             for d in deltas.of_log(self.hw).counters}
        self.assertEqual({k: v for k, v in b.items() if a[k] != v},
                         B_CHANGES)

    def test_side_by_side(self):
        lines = compare.delta_lines(compared(self.emu, self.hw))
        sky = "Core 6th gen (Skylake) 0x506e3"
        self.assertEqual(lines, [
            "model deltas (counted minus the reference model's count), per "
            f"event: A {sky} [skylake-emulated], B {sky} [skylake-hw]",
            f"  {IN_OS}: A 2 compared, 0 agreed, -3..+12 | B 2 compared, "
            "1 agreed, 0..+12 DIFFERS",
            f"    {INS} cpl0_ctr1: A -3, B 0",
            f"  {BR_BOTH}: A 1 compared, 0 agreed, -6 | B 1 compared, "
            "1 agreed, 0 DIFFERS",
            f"    {BR} both_ctr0: A -6, B 0",
            f"  {BR_USR}: A 2 compared, 1 agreed, 0..+2 | B 2 compared, "
            "1 agreed, 0..+2",
            f"  {BR_OS}: A 1 compared, 1 agreed, 0, 1 no model count | "
            "B 2 compared, 1 agreed, 0..+4 DIFFERS",
            f"    {BR} cpl0_ctr1: A none ({TRACE}), B +4",
            f"  {CY_USR}: A 0 compared, 0 agreed, -, 2 no model count | "
            "B 0 compared, 0 agreed, -, 2 no model count",
            f"  {CY_OS}: A 0 compared, 0 agreed, -, 2 no model count | "
            "B 0 compared, 0 agreed, -, 2 no model count",
            f"  {CY_BOTH}: A 0 compared, 0 agreed, -, 1 no model count | "
            "B 0 compared, 0 agreed, -, 1 no model count",
            f"  {IN_USR}: A 2 compared, 2 agreed, 0 | B 2 compared, "
            "2 agreed, 0",
            f"  {IN_BOTH}: A 1 compared, 1 agreed, 0 | B 1 compared, "
            "1 agreed, 0",
        ])

    def test_deltas_are_not_regressions_and_not_values(self):
        cmp = compared(self.emu, self.hw)
        self.assertEqual(cmp.regressions, 0)
        self.assertEqual(compare.exit_status(cmp), 0)
        # the _model and _model_delta lines are in the deltas section
        # only, not compared as values of their own
        self.assertEqual([e.key for e in cmp.entries
                          if e.key.endswith(("_model", "_model_delta"))],
                         [])

    def test_json(self):
        doc = compare.deltas_json(compared(self.emu, self.hw))
        self.assertEqual([(e["event"], e["differs"]) for e in
                          doc["events"]][:4],
                         [(IN_OS, True), (BR_BOTH, True), (BR_USR, False),
                          (BR_OS, True)])
        self.assertEqual(doc["events"][0]["a"],
                         {"compared": 2, "agreed": 0, "min": -3, "max": 12,
                          "no_model_count": 0})
        self.assertEqual(doc["events"][0]["counters"],
                         [{"test": INS, "key": "cpl0_ctr1", "a": "-3",
                           "b": "0"}])

    def test_self_compare_marks_nothing(self):
        r = harness("compare", EMU, EMU)
        self.assertEqual(r.returncode, 0, r.output)
        self.assertNotIn("DIFFERS", r.output)
        self.assertIn("compare: 0 regression(s), 0 improvement(s), 0 "
                      "changed, 0 info;", r.output)
        # tools/check/lab.py splits a batch's blocks at empty lines
        self.assertNotIn("\n\n", r.output)

    def test_model_side_has_nothing_to_diff(self):
        model = parsed(MODEL_LOG.read_text(), "p54c-model.log")
        lines = compare.delta_lines(compared(model, self.hw))
        self.assertEqual(lines[1], "  A: backend model: nothing to diff")
        self.assertEqual(lines[2], f"  {IN_OS}: B 2 compared, 1 agreed, "
                         "0..+12")

    def test_logs_without_model_lines_print_nothing(self):
        model = parsed(MODEL_LOG.read_text(), "p54c-model.log")
        self.assertEqual(compare.delta_lines(compared(model, model)), [])


if __name__ == "__main__":
    unittest.main()
