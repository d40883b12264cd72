"""`pmu-harness events` (tools/lab/events.py, tools/lab/pmu_events.c)
held to the manual.

The listing comes from the product's own tables; so every expected value
here is restated from the Intel SDM (Vol. 3B, order no. 253669-060US, and
later editions where a line says so), never read from pmu/.  What the
model counts is stated in the oracle's names (pmu/sem.h: instructions,
loads, clocks, ref_clocks ...): which SDM event counts which of them is
the fact under test.

SDM sources (tables cited by title where editions renumber them):
  [P5]  Vol. 3B Table 19-38, "Events That Can Be Counted with Pentium
        Processor Performance-Monitoring Counters": 2 counters CTR0/CTR1;
        codes 00H-29H on every Pentium, 2AH-3BH added by the Pentium with
        MMX technology, several of them on one counter only.
  [P6]  Vol. 3B Table 19-37, "Events That Can Be Counted with the P6
        Family Performance-Monitoring Counters"; Pentium M: Tables 19-35
        and 19-36.
  [NB]  Vol. 3B chapter 19, "Performance Monitoring Events For Intel
        NetBurst Microarchitecture for At-Retirement Counting" and "... for
        Non-Retirement Counting"; Vol. 3B Table 18-63 "Performance Counter
        MSRs and Associated CCCR and ESCR MSRs" (ESCR -> counters); Vol. 4
        Table 2-2 (the ESCR MSR addresses).
  [AE]  Vol. 3B §18.2.1.2 Table 18-1, the architectural events; §18.2.2
        Table 18-2, the fixed counters (0: INST_RETIRED.ANY, 1:
        CPU_CLK_UNHALTED.THREAD/CORE, 2: CPU_CLK_UNHALTED.REF_TSC/REF,
        3: TOPDOWN.SLOTS from §18.2.5); Vol. 2A CPUID leaf 0AH.
  [C2]  Vol. 3B §18.6 (Intel Core microarchitecture): 2 GP counters, 3
        fixed counters, PEBS on IA32_PMC0 only, Table 18-10 "PEBS
        Performance Events for Intel Core Microarchitecture"
        (INST_RETIRED.ANY_P C0H/00H).
  [NHM] Vol. 3B §18.8 (Nehalem): 4 GP counters, 3 fixed counters, PEBS
        on PMC0-3 (§18.8.1.1); its precise events INST_RETIRED.ANY_P
        C0H/01H, MEM_INST_RETIRED.LOADS 0BH/01H and .STORES 0BH/02H,
        BR_INST_RETIRED.ALL_BRANCHES C4H/04H.
  [SKL] Vol. 3B §18.13 (6th generation Core): 4 GP counters per logical
        processor with HT, 3 fixed counters; precise events (§18.13.1
        and the Skylake event table of chapter 19): INST_RETIRED.PREC_DIST
        C0H/01H, MEM_INST_RETIRED.ALL_LOADS D0H/81H, .ALL_STORES D0H/82H.
  [SPR] Vol. 3B §18.2.5 (version 5) and the Sapphire Rapids section: 8
        GP counters, 4 fixed counters, Topdown Slots A4H/01H; adaptive
        PEBS (the "Adaptive PEBS" section): PEBS on every GP and fixed
        counter.
  [TNT] Vol. 3B, the Tremont section (an Atom core): version 5, 4 GP
        counters, 3 fixed counters, adaptive PEBS (format 4 with
        PEBS_BASELINE) on every GP and fixed counter; its precise events
        are Goldmont's (Vol. 3, order no. 325384-059US, Table 18-19):
        INST_RETIRED.ANY C0H/00H, BR_INST_RETIRED.ALL_BRANCHES C4H/00H,
        MEM_UOPS_RETIRED.ALL_LOADS D0H/81H and .ALL_STORES D0H/82H (Linux
        snowridgex JSON: "PEBS": "1", the memory ones "Data_LA": "1").
"""

import json
import subprocess
import unittest
from unittest import mock

from tools.testing.support import PY, PMU_HARNESS, ROOT, harness

from tools.check import generations
from tools.lab import events as levents

HARNESS = [PY, str(PMU_HARNESS), "events"]

_cache = {}
_tool = []


def built_tool():
    """levents.build_tool() (make build/host/pmu-events), run once for the
    module: every other `events` call here runs in this process
    (support.harness) and takes the tool this one built.
    Output.test_table runs the command, and with it make, for real."""
    if not _tool:
        _tool.append(_build_tool())
    return _tool[0]


_build_tool = levents.build_tool
_patch = mock.patch.object(levents, "build_tool", built_tool)


def setUpModule():
    _patch.start()


def tearDownModule():
    _patch.stop()


def events(*args):
    """`pmu-harness events ARGS...` in this process: a support.Ran."""
    return harness("events", *args)


def listing(cpu, vendor=None):
    """`pmu-harness events --cpu CPU --json`, parsed (run once per CPU)."""
    key = (cpu, vendor)
    if key not in _cache:
        argv = ["--cpu", cpu, "--json"] + \
            (["--vendor", vendor] if vendor else [])
        r = events(*argv)
        if r.returncode:
            raise AssertionError(f"{argv}: exit {r.returncode}: {r.stderr}")
        _cache[key] = json.loads(r.stdout)
    return _cache[key]


def by_name(doc, name):
    rows = [e for e in doc["events"] if e["name"] == name]
    if len(rows) != 1:
        raise AssertionError(f"{name}: {len(rows)} rows in "
                             f"{[e['name'] for e in doc['events']]}")
    return rows[0]


def by_code(doc, event, umask="any"):
    return [e for e in doc["events"] if e["event"] == event and
            (umask == "any" or e["umask"] == umask)]


class P5(unittest.TestCase):
    """[P5] Table 19-38."""

    def test_p54c_instructions_executed(self):
        doc = listing("5-2")
        self.assertEqual(doc["pmu"], "p5")
        self.assertEqual(doc["cpu"]["family"], 5)
        ev = by_name(doc, "INSTRUCTIONS_EXECUTED")
        self.assertEqual(ev["event"], 0x16)
        self.assertEqual(ev["counters"], [0, 1])
        self.assertEqual(ev["counts"], ["instructions"])
        self.assertFalse(ev["precise"])         # the Pentium has no PEBS

    def test_p54c_data_events(self):
        doc = listing("5-2")
        # 00H data read, 01H data write, 28H data read or write.
        self.assertEqual(by_code(doc, 0x00)[0]["counts"], ["loads"])
        self.assertEqual(by_code(doc, 0x01)[0]["counts"], ["stores"])
        self.assertEqual(sorted(by_code(doc, 0x28)[0]["counts"]),
                         ["loads", "stores"])
        # 0FH any segment register loaded.
        self.assertEqual(by_code(doc, 0x0f)[0]["counts"], ["segloads"])

    def test_p54c_has_no_mmx_events(self):
        """2AH-3BH came with the Pentium with MMX technology."""
        codes = {e["event"] for e in listing("5-2")["events"]}
        self.assertFalse(codes & set(range(0x2a, 0x3c)), sorted(codes))
        self.assertTrue(set(range(0x00, 0x10)) <= codes)
        # 10H, 11H, 20H, 21H are reserved on every Pentium.
        self.assertFalse(codes & {0x10, 0x11, 0x20, 0x21})

    def test_p55c_mmx_events(self):
        doc = listing("5-4")
        codes = {e["event"] for e in doc["events"]}
        self.assertTrue(set(range(0x2a, 0x3c)) <= codes)
        # 32H: CTR1 counts taken branches; 39H: CTR0 counts returns,
        # and is reserved on CTR1.
        taken = [e for e in by_code(doc, 0x32) if e["counters"] == [1]]
        self.assertEqual(len(taken), 1)
        self.assertIn("taken", taken[0]["counts"])
        ret = by_code(doc, 0x39)
        self.assertEqual([e["counters"] for e in ret], [[0]])
        self.assertEqual(ret[0]["counts"], ["returns"])
        self.assertEqual(by_name(doc, "INSTRUCTIONS_EXECUTED")["event"],
                         0x16)


class P6(unittest.TestCase):
    """[P6] Table 19-37 and the Pentium M's Tables 19-35, 19-36."""

    def test_ppro_inst_retired(self):
        doc = listing("6-1")
        self.assertEqual(doc["pmu"], "p6")
        ev = by_name(doc, "INST_RETIRED")
        self.assertEqual((ev["event"], ev["umask"]), (0xc0, 0))
        self.assertEqual(ev["counters"], [0, 1])
        self.assertEqual(ev["counts"], ["instructions"])
        clk = by_name(doc, "CPU_CLK_UNHALTED")
        self.assertEqual((clk["event"], clk["counts"]), (0x79, ["clocks"]))
        refs = by_name(doc, "DATA_MEM_REFS")
        self.assertEqual(refs["event"], 0x43)
        self.assertEqual(sorted(refs["counts"]), ["loads", "stores"])

    def test_ppro_one_counter_events(self):
        """FLOPS (C1H) and CYCLES_DIV_BUSY (14H) on counter 0 only; MUL
        (12H), DIV (13H), FP_ASSIST (11H) on counter 1 only."""
        doc = listing("6-1")
        for code in (0xc1, 0x14):
            self.assertEqual(by_code(doc, code)[0]["counters"], [0], code)
        for code in (0x11, 0x12, 0x13):
            self.assertEqual(by_code(doc, code)[0]["counters"], [1], code)

    def test_ppro_has_no_mmx_or_sse_events(self):
        """MMX events (B0H-B3H, CCH, CDH, CEH) came with the Pentium II,
        Streaming SIMD events (07H, 4BH, D8H, D9H) with the Pentium III."""
        codes = {e["event"] for e in listing("6-1")["events"]}
        self.assertFalse(codes & {0xb0, 0xb1, 0xb2, 0xb3, 0xcc, 0xcd, 0xce,
                                  0x07, 0x4b, 0xd8, 0xd9}, sorted(codes))

    def test_piii_sse_but_not_pii_only_mmx(self):
        """Pentium III: EMON_KNI_INST_RETIRED D8H; MMX_INSTR_EXEC B0H and
        MMX_INSTR_RET CEH are the Pentium II's only."""
        doc = listing("6-7")
        self.assertEqual(by_name(doc, "EMON_KNI_INST_RETIRED")["event"],
                         0xd8)
        codes = {e["event"] for e in doc["events"]}
        self.assertIn(0xb1, codes)              # MMX_SAT_INSTR_EXEC
        self.assertFalse(codes & {0xb0, 0xce})

    def test_pentium_m_events(self):
        """Table 19-35: EMON_EST_TRANS 58H, BR_INST_EXEC 88H; Table 19-36
        redefines D8H as EMON_SSE_SSE2_INST_RETIRED."""
        doc = listing("6-13")
        self.assertEqual(by_name(doc, "EMON_EST_TRANS")["event"], 0x58)
        self.assertEqual(by_name(doc, "BR_INST_EXEC")["event"], 0x88)
        self.assertEqual([e["name"] for e in by_code(doc, 0xd8)],
                         ["EMON_SSE_SSE2_INST_RETIRED"])
        self.assertEqual(by_name(doc, "INST_RETIRED")["event"], 0xc0)


class NetBurst(unittest.TestCase):
    """[NB]."""

    def test_instr_retired(self):
        """instr_retired: ESCR event select 02H, CCCR ESCR select 04H,
        MSR_CRU_ESCR0 (3B8H, counters 12, 13, 16) / MSR_CRU_ESCR1 (3B9H,
        counters 14, 15, 17); event-mask bits NBOGUSNTAG 0, NBOGUSTAG 1,
        BOGUSNTAG 2, BOGUSTAG 3."""
        doc = listing("15-2")
        self.assertEqual(doc["pmu"], "netburst")
        ev = by_name(doc, "instr_retired")
        self.assertEqual(ev["escr_select"], 0x02)
        self.assertEqual(ev["cccr_select"], 4)
        self.assertEqual([(x["name"], x["msr"], x["counters"])
                          for x in ev["escrs"]],
                         [("CRU_ESCR0", 0x3b8, [12, 13, 16]),
                          ("CRU_ESCR1", 0x3b9, [14, 15, 17])])
        self.assertEqual(ev["counters"], [12, 13, 14, 15, 16, 17])
        self.assertTrue(ev["at_retirement"])
        self.assertEqual({b["name"]: b["bit"] for b in ev["escr_mask"]},
                         {"NBOGUSNTAG": 0, "NBOGUSTAG": 1, "BOGUSNTAG": 2,
                          "BOGUSTAG": 3})
        # Non-bogus untagged instructions: every retired instruction of
        # a run that tags nothing.
        nbogus = [b for b in ev["escr_mask"] if b["bit"] == 0][0]
        self.assertEqual(nbogus["counts"], ["instructions"])

    def test_branch_retired_and_power(self):
        """branch_retired: 06H, CCCR select 05H, CRU_ESCR2/3 (3CCH, 3CDH),
        MMNP 0, MMNM 1, MMTP 2, MMTM 3.  global_power_events: 13H, CCCR
        select 06H, FSB_ESCR0/1 (3A2H, 3A3H) in the BPU block, counters
        0, 1 / 2, 3; RUNNING bit 0 counts the clocks the processor is
        not stopped."""
        doc = listing("15-2")
        br = by_name(doc, "branch_retired")
        self.assertEqual((br["escr_select"], br["cccr_select"]), (0x06, 5))
        self.assertEqual([x["msr"] for x in br["escrs"]], [0x3cc, 0x3cd])
        self.assertEqual({b["name"]: b["bit"] for b in br["escr_mask"]},
                         {"MMNP": 0, "MMNM": 1, "MMTP": 2, "MMTM": 3})
        pw = by_name(doc, "global_power_events")
        self.assertEqual((pw["escr_select"], pw["cccr_select"]), (0x13, 6))
        self.assertEqual([(x["msr"], x["counters"]) for x in pw["escrs"]],
                         [(0x3a2, [0, 1]), (0x3a3, [2, 3])])
        self.assertEqual([(b["name"], b["bit"], b["counts"])
                          for b in pw["escr_mask"]],
                         [("RUNNING", 0, ["clocks"])])

    def test_tc_deliver_mode_ms_block(self):
        """tc_deliver_mode: 01H, CCCR select 01H, TC_ESCR0/1 (3C4H, 3C5H),
        counters 4, 5 / 6, 7 (MS block)."""
        ev = by_name(listing("15-2"), "tc_deliver_mode")
        self.assertEqual((ev["escr_select"], ev["cccr_select"]), (0x01, 1))
        self.assertEqual([(x["msr"], x["counters"]) for x in ev["escrs"]],
                         [(0x3c4, [4, 5]), (0x3c5, [6, 7])])

    def test_instr_completed_only_from_model_3(self):
        """instr_completed (07H on CRU_ESCR0/1) is in the model-specific
        table "For Model Encoding 3, 4 or 6"."""
        names = {e["name"] for e in listing("15-2")["events"]}
        self.assertNotIn("instr_completed", names)
        ev = by_name(listing("15-3"), "instr_completed")
        self.assertEqual((ev["escr_select"], ev["cccr_select"]), (0x07, 4))

    def test_no_precise_rows(self):
        """The harness drives no NetBurst PEBS (only replay_event tagging
        has it there): nothing is listed as precise."""
        self.assertFalse([e["name"] for e in listing("15-2")["events"]
                          if e["precise"]])


# [AE] Table 18-1: the architectural events, bit i of CPUID.0AH:EBX.
ARCH = [("UnHalted Core Cycles", 0x3c, 0x00, ["clocks"]),
        ("Instruction Retired", 0xc0, 0x00, ["instructions"]),
        ("UnHalted Reference Cycles", 0x3c, 0x01, ["ref_clocks"]),
        ("LLC Reference", 0x2e, 0x4f, None),
        ("LLC Misses", 0x2e, 0x41, None),
        ("Branch Instruction Retired", 0xc4, 0x00, ["branches", "far"]),
        ("Branch Misses Retired", 0xc5, 0x00, None),
        ("Topdown Slots", 0xa4, 0x01, None)]
# [AE] Table 18-2: fixed counter i counts what architectural event does.
FIXED = [(0xc0, 0x00, ["instructions"]), (0x3c, 0x00, ["clocks"]),
         (0x3c, 0x01, ["ref_clocks"]), (0xa4, 0x01, None)]


class ArchPerfmon(unittest.TestCase):
    """[AE] with [C2], [NHM], [SKL], [SPR]."""

    def arch_rows(self, doc):
        return [e for e in doc["events"] if e.get("architectural")]

    def fixed_rows(self, doc):
        return sorted((e for e in doc["events"] if "fixed" in e),
                      key=lambda e: e["fixed"])

    def check_arch(self, cpu, ebx_len, unavailable, gp, bus=False):
        """The architectural events of Table 18-1 up to the EBX length,
        minus those the CPU reports unavailable, on every GP counter;
        with bus (Core 2) 3CH/01H as CPU_CLK_UNHALTED.BUS, bus cycles,
        which the trace does not see."""
        doc = listing(cpu)
        self.assertEqual(doc["pmu"], "arch-perfmon")
        want = [("CPU_CLK_UNHALTED.BUS (bus cycles on Core 2)", ev, um,
                 None) if bus and (ev, um) == (0x3c, 0x01) else
                (n, ev, um, c) for i, (n, ev, um, c) in enumerate(ARCH)
                if i < ebx_len and i not in unavailable]
        got = self.arch_rows(doc)
        self.assertEqual([(e["name"], e["event"], e["umask"]) for e in got],
                         [(n, ev, um) for n, ev, um, _ in want])
        for e, (name, _, _, counts) in zip(got, want):
            self.assertEqual(e["counters"], list(range(gp)), name)
            if counts is None:
                self.assertIn("not_modelled", e, name)
            else:
                self.assertEqual(sorted(e["counts"]), sorted(counts), name)
        return doc

    def check_fixed(self, doc, n):
        rows = self.fixed_rows(doc)
        self.assertEqual([e["fixed"] for e in rows], list(range(n)))
        for e in rows:
            i = e["fixed"]
            ev, um, counts = FIXED[i]
            self.assertEqual((e["event"], e["umask"]), (ev, um), i)
            self.assertEqual(e["counters"], [i])
            if counts is None:
                self.assertIn("not_modelled", e, i)
            else:
                self.assertEqual(e["counts"], counts, f"fixed counter {i}")

    def precise(self, doc):
        return {(e["event"], e["umask"]): e for e in doc["events"]
                if e["precise"] and "pebs_format" in e}

    def test_without_capability_row(self):
        """Lab CPUs the capability table has no row for (issue 40): Kaby
        and Coffee Lake 6-0x9e, Alder Lake 6-0x97, Granite Rapids 6-0xad,
        Jasper Lake 6-156.  Every architectural event of Table 18-1 [AE]
        is listed, in its order, with what only CPUID.0AH can say - the
        counters, and whether it is available or precise - left null:
        never refused, never guessed."""
        for cpu in ("6-0x9e", "6-0x97", "6-0xad", "6-156"):
            with self.subTest(cpu=cpu):
                doc = listing(cpu)
                self.assertEqual(doc["pmu"], "arch-perfmon")
                self.assertIsNone(doc["caps"])
                self.assertIn("CPUID.0AH", doc["caps_unknown"])
                got = self.arch_rows(doc)
                self.assertEqual(
                    [(e["name"], e["event"], e["umask"]) for e in got],
                    [(n, ev, um) for n, ev, um, _ in ARCH])
                self.assertEqual(
                    [e["cpuid_0ah_ebx_bit"] for e in got],
                    list(range(len(ARCH))))
                for e, (name, _, _, counts) in zip(got, ARCH):
                    self.assertIsNone(e["counters"], name)
                    self.assertIsNone(e["precise"], name)
                    if counts is None:
                        self.assertIn("not_modelled", e, name)
                    else:
                        self.assertEqual(sorted(e["counts"]),
                                         sorted(counts), name)
                self.assertEqual(self.fixed_rows(doc), [])

    def test_core2(self):
        """[C2]: CPUID.0AH v2, EBX length 7, nothing unavailable."""
        for cpu in ("6-15", "6-23"):
            with self.subTest(cpu=cpu):
                doc = self.check_arch(cpu, 7, (), gp=2, bus=True)
                self.check_fixed(doc, 3)
                pebs = self.precise(doc)
                self.assertEqual(set(pebs), {(0xc0, 0x00)})
                self.assertEqual(pebs[(0xc0, 0x00)]["counters"], [0])
                self.assertEqual(pebs[(0xc0, 0x00)]["counts"],
                                 ["instructions"])
                # Core 2 PEBS is PMC0 only: the architectural row, which
                # counts on both counters, is not listed as precise
                arch = [e for e in self.arch_rows(doc)
                        if (e["event"], e["umask"]) == (0xc0, 0x00)]
                self.assertEqual(arch[0]["counters"], [0, 1])
                self.assertFalse(arch[0]["precise"])
                # the Intel Core microarchitecture's event table names
                # 3CH/01H CPU_CLK_UNHALTED.BUS, bus cycles (Linux's
                # PERF_COUNT_HW_BUS_CYCLES 013CH); fixed counter 2 counts
                # reference cycles (Table 18-2)
                bus = [e for e in doc["events"]
                       if (e["event"], e["umask"]) == (0x3c, 0x01)
                       and "fixed" not in e]
                self.assertIn("CPU_CLK_UNHALTED.BUS", bus[0]["name"])
                self.assertIn("not_modelled", bus[0])
                fc2 = [e for e in self.fixed_rows(doc)
                       if e["fixed"] == 2]
                self.assertEqual(fc2[0]["counts"], ["ref_clocks"])

    def test_nehalem(self):
        """[NHM]: v3, EBX length 7; a Core i7-920 (106A4H) reports EBX
        bit 6, branch misses retired, unavailable (its specification
        update's erratum AAJ80)."""
        doc = self.check_arch("6-26", 7, (6,), gp=4)
        self.check_fixed(doc, 3)
        pebs = self.precise(doc)
        self.assertEqual(set(pebs), {(0xc0, 0x01), (0xc4, 0x04),
                                     (0x0b, 0x01), (0x0b, 0x02)})
        self.assertEqual(pebs[(0x0b, 0x01)]["counts"], ["loads"])
        self.assertEqual(pebs[(0x0b, 0x02)]["counts"], ["stores"])
        for e in pebs.values():
            self.assertEqual(e["counters"], [0, 1, 2, 3], e["name"])

    def test_skylake(self):
        """[SKL]: 3 fixed counters; instructions retired is C0H/00H; its
        precise instructions event is PREC_DIST C0H/01H, not C0H/00H."""
        doc = self.check_arch("6-94", 7, (), gp=4)
        self.check_fixed(doc, 3)
        ir = by_code(doc, 0xc0, 0x00)
        self.assertEqual([e.get("fixed") for e in ir], [None, 0])
        self.assertEqual(ir[0]["counts"], ["instructions"])
        pebs = self.precise(doc)
        self.assertTrue({(0xc0, 0x01), (0xd0, 0x81), (0xd0, 0x82)} <=
                        set(pebs), sorted(pebs))
        self.assertNotIn((0xc0, 0x00), pebs)
        self.assertEqual(pebs[(0xd0, 0x81)]["counts"], ["loads"])
        self.assertEqual(pebs[(0xd0, 0x82)]["counts"], ["stores"])
        self.assertEqual(pebs[(0xd0, 0x81)]["data_address"], "load")

    def test_prec_dist_on_pmc1_only(self):
        """INST_RETIRED.PREC_DIST (C0H/01H), precise distribution, "must
        use IA32_PMC1" (SDM Vol. 3B §18.9.4.4; the Haswell and Skylake
        PEBS sections keep it): Sandy Bridge 6-42, Haswell 6-60,
        Skylake 6-94 list it on counter 1 alone."""
        for cpu in ("6-42", "6-60", "6-94"):
            with self.subTest(cpu=cpu):
                pebs = self.precise(listing(cpu))
                self.assertEqual(pebs[(0xc0, 0x01)]["counters"], [1])

    def test_sapphire_rapids(self):
        """[SPR]: EBX length 8 (Topdown Slots A4H/01H), 8 GP counters, 4
        fixed counters; adaptive PEBS on all of them."""
        doc = self.check_arch("6-143", 8, (), gp=8)
        self.check_fixed(doc, 4)
        for e in self.fixed_rows(doc):
            self.assertTrue(e["precise"], e["name"])
        pebs = self.precise(doc)
        self.assertIn((0xc0, 0x00), pebs)
        self.assertEqual(pebs[(0xc0, 0x00)]["counters"], list(range(8)))

    def test_tremont(self):
        """[TNT]: Snow Ridge (6-134; CPUID.0AH of the Tremont dumps the
        row cites, 07300405/8603H, ECX 7): EBX length 7, 4 GP counters, 3
        fixed counters, all of them precise; PEBS format 4; the four
        precise events on every GP counter (PEBS on PMC0 and fixed
        counter 0 has reduced skid, which restricts no counter)."""
        doc = self.check_arch("6-134", 7, (), gp=4)
        self.check_fixed(doc, 3)
        self.assertEqual(doc["caps"]["pebs_format"], 4)
        for e in self.fixed_rows(doc):
            self.assertTrue(e["precise"], e["name"])
        pebs = self.precise(doc)
        self.assertEqual(set(pebs), {(0xc0, 0x00), (0xc4, 0x00),
                                     (0xd0, 0x81), (0xd0, 0x82)})
        for e in pebs.values():
            self.assertEqual(e["counters"], [0, 1, 2, 3], e["name"])
            self.assertEqual(e["pebs_format"], 4, e["name"])
        self.assertEqual(pebs[(0xd0, 0x81)]["data_address"], "load")
        self.assertEqual(pebs[(0xd0, 0x82)]["data_address"], "store")
        self.assertEqual(pebs[(0xc4, 0x00)]["data_address"], "none")

    def test_atom_and_xeon_phi_rows_have_no_pebs(self):
        """The Atom and Xeon Phi rows but Tremont's (docs/pebs.md): the
        model has none of their PEBS rules, so no event is precise and
        the row states no PEBS format.  CPUID.0AH of the dumps the rows
        cite: n270 (6-28) 07280203/2501H: 2 GP, 1 fixed; C3958 (6-95)
        07300404/603H: 4 GP, 3 fixed; Knights Landing (for 6-133)
        07280203/503H: 2 GP, 3 fixed; EBX 0 and length 7 on all."""
        for cpu, gp, fixed in (("6-28", 2, 1), ("6-95", 4, 3),
                               ("6-133", 2, 3)):
            with self.subTest(cpu=cpu):
                doc = self.check_arch(cpu, 7, (), gp=gp)
                self.check_fixed(doc, fixed)
                self.assertIsNone(doc["caps"]["pebs_format"])
                self.assertEqual(self.precise(doc), {})
                self.assertFalse([e["name"] for e in doc["events"]
                                  if e["precise"]])


class Output(unittest.TestCase):
    def test_cpu_object(self):
        cpu = listing("6-0x5e-3")["cpu"]
        self.assertEqual((cpu["vendor"], cpu["family"], cpu["model"],
                          cpu["stepping"]), ("GenuineIntel", 6, 0x5e, 3))
        self.assertIn("Skylake", cpu["name"])

    def test_table(self):
        # The command itself, in a process of its own: its exit status,
        # and make building the tool (the other tests run in-process).
        r = subprocess.run(HARNESS + ["--cpu", "5-2"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        line = [l for l in r.stdout.splitlines()
                if l.startswith("INSTRUCTIONS_EXECUTED ")]
        self.assertEqual(len(line), 1, r.stdout)
        self.assertRegex(line[0], r"\b16H\b.*\binstructions$")
        r = events("--cpu", "15-2")
        line = [l for l in r.stdout.splitlines()
                if l.startswith("instr_retired ")][0]
        self.assertIn("CRU_ESCR0(12,13,16) CRU_ESCR1(14,15,17)", line)

    def test_kind_words_are_the_generations(self):
        """The "pmu" word is the "# pmu: kind=" word of the generation's
        descriptor (the build's listing, tools/check/generations.py)."""
        r = subprocess.run(["make", "-s", "--no-print-directory",
                            "build/pmu-generations.txt"], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        words = set(generations.kind_names(generations.load()))
        for cpu in ("5-2", "6-1", "15-2", "6-94"):
            self.assertIn(listing(cpu)["pmu"], words, cpu)


class Errors(unittest.TestCase):
    def run_events(self, *args):
        return events(*args)

    def test_malformed_cpu(self):
        for bad in ("6", "6-", "-94", "x-1", "6-94-3-1", "6-0x", "6--94",
                    "6-256", "6-94-16", "300-1", "6-94; touch /tmp/x", ""):
            with self.subTest(cpu=bad):
                r = self.run_events("--cpu", bad)
                self.assertEqual(r.returncode, 2, r.stdout)
                self.assertIn("pmu-harness events:", r.stderr)
                self.assertEqual(r.stdout, "")
        with self.assertRaises(levents.EventsError):
            levents.parse_cpu("6-0x5g")
        self.assertEqual(levents.parse_cpu("0xf-0x2"), (15, 2, 0))

    def test_missing_cpu(self):
        self.assertEqual(self.run_events().returncode, 2)

    def test_amd_is_not_driven(self):
        """AMD's counters (APM Vol. 2 §13.2) have no driver here."""
        r = self.run_events("--cpu", "25-1", "--vendor", "amd")
        self.assertEqual(r.returncode, 2)
        self.assertIn("AuthenticAMD", r.stderr)
        self.assertIn("no driver", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_no_pmu(self):
        """Family 4 (the 486) has no performance counters."""
        r = self.run_events("--cpu", "4-8")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no PMU", r.stderr)

    def test_arch_perfmon_without_row(self):
        """Tremont's Jasper Lake (6-156) has arch perfmon, but no
        capability row (only 6-134, Snow Ridge, has one): listed, exit 0,
        its counters left to CPUID.0AH (the table says so)."""
        r = self.run_events("--cpu", "6-156")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("CPUID.0AH", r.stdout)
        self.assertIn("Instruction Retired", r.stdout)

    def test_unknown_cpu(self):
        """A signature no generation matches is an unknown CPU, not one
        without a PMU: Intel family 19 (a real family, issue 40), and
        0-0 and 255-255."""
        for cpu in ("19-1", "0-0", "255-255"):
            with self.subTest(cpu=cpu):
                r = self.run_events("--cpu", cpu)
                self.assertEqual(r.returncode, 2)
                self.assertIn("unknown CPU", r.stderr)
                self.assertNotIn("no PMU", r.stderr)
                self.assertEqual(r.stdout, "")

    def test_bad_vendor(self):
        self.assertEqual(self.run_events("--cpu", "6-94", "--vendor",
                                         "via").returncode, 2)

    def test_tool_refuses_bad_arguments(self):
        tool = levents.build_tool()
        for argv in ([], ["GenuineIntel", "6", "94"],
                     ["Intel", "6", "94", "3"],
                     ["GenuineIntel", "6", "0x100", "0"],
                     ["GenuineIntel", "-6", "94", "0"]):
            r = subprocess.run([str(tool)] + argv, capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 2, argv)
            self.assertIn("usage", r.stderr)


if __name__ == "__main__":
    unittest.main()
