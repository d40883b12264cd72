"""tools/check/pt.py, the pt stage's pure parts: the CYC reader, the
packet comparison with the one documented difference (libipt rejects a
10-byte CYC), the --timing and .branches parsers and the timing
comparison, on synthetic lines and bytes (no tool is run)."""

import unittest


from tools.check import pt as pc

PSB = bytes([0x02, 0x82] * 8)


def cyc_bytes(value, size=None):
    """A CYC (Intel SDM Vol. 3C §36.4.2.14, Table 36-33), written here
    independently of pt_check.cyc_at."""
    groups = [value & 0x1f]
    value >>= 5
    while value or (size and len(groups) < size):
        groups.append(value & 0x7f)
        value >>= 7
    out = [(groups[0] << 3) | 3 | (4 if len(groups) > 1 else 0)]
    for i, g in enumerate(groups[1:], 2):
        out.append((g << 1) | (1 if i < len(groups) else 0))
    return bytes(out)


class CycAt(unittest.TestCase):
    def test_every_length(self):
        for n in range(1, 10):
            v = (1 << (5 + 7 * (n - 1))) - 1      # the most n bytes hold
            data = b"\x00" + cyc_bytes(v) + b"\x00"
            self.assertEqual(pc.cyc_at(data, 1), (v, n), n)
        self.assertEqual(pc.cyc_at(cyc_bytes(1 << 61), 0), (1 << 61, 10))
        self.assertEqual(pc.cyc_at(bytes([0x03]), 0), (0, 1))

    def test_not_a_cyc_or_cut_short(self):
        self.assertIsNone(pc.cyc_at(b"\x02\x82", 0))
        self.assertIsNone(pc.cyc_at(cyc_bytes(1 << 40)[:-1], 0))
        self.assertIsNone(pc.cyc_at(b"", 0))

    def test_past_64_bits_is_read_whole(self):
        self.assertEqual(pc.cyc_at(cyc_bytes(1 << 64), 0), (1 << 64, 10))
        self.assertEqual(pc.cyc_at(cyc_bytes(5, size=11), 0), (5, 11))


def stream_with_cyc10(value=(1 << 63) | 5):
    """PSB, CYC(value: 10 bytes), TNT, TIP, PSB: offsets 0, 16, 26, 27,
    36; and the two listings ptdecode and libipt print for it."""
    data = PSB + cyc_bytes(value) + bytes([0x0a, 0xcd]) + bytes(8) + PSB
    ours = ["0 psb -", f"16 cyc 0x{value:x}", "26 tnt.8 0x1/2",
            "27 tip 6:0x0", "36 psb -"]
    ref = ["0 psb -", "16 error unknown packet", "36 psb -"]
    return data, ours, ref


class CycBytes(unittest.TestCase):
    # Table 36-33: 1 byte below 32, 2 bytes (Exp set in byte 0, clear in
    # byte 1) from 32: 32 is 07h 02h, 4095 is FFh FEh.
    def test_hand_computed(self):
        self.assertEqual(pc.cyc_bytes(0), b"\x03")
        self.assertEqual(pc.cyc_bytes(31), b"\xfb")
        self.assertEqual(pc.cyc_bytes(32), b"\x07\x02")
        self.assertEqual(pc.cyc_bytes(4095), b"\xff\xfe")
        self.assertEqual(len(pc.cyc_bytes(1 << 63)), 10)

    def test_read_back(self):
        for v in (0, 1, 31, 32, 4095, 4096, 1 << 61, (1 << 64) - 1):
            self.assertEqual(pc.cyc_at(pc.cyc_bytes(v), 0),
                             (v, len(pc.cyc_bytes(v))))


class ResyncProblems(unittest.TestCase):
    # Undamaged: a PSB at 4; 2 bytes were put before it.
    OURS = ["0 tip 1:0x1", "3 pad -", "4 psb -", "20 psbend -"]

    def test_holds(self):
        damaged = ["0 tip 1:0x1", "3 pad -", "4 cyc 0x20", "6 tnt.8 0x1/6",
                   "7 error broken PSB", "6 psb -", "22 psbend -"]
        self.assertEqual(pc.resync_problems(self.OURS, damaged, 4, 2), [])

    def test_the_last_psb_line_counts(self):
        damaged = self.OURS[:2] + ["4 psb -", "20 error broken PSB",
                                   "6 psb -", "22 psbend -"]
        self.assertEqual(pc.resync_problems(self.OURS, damaged, 4, 2), [])

    def test_psb_lost(self):
        damaged = self.OURS[:2] + ["4 cyc 0x20", "6 tnt.8 0x1/6",
                                   "7 error broken PSB"]
        self.assertIn("lost", pc.resync_problems(self.OURS, damaged, 4,
                                                 2)[0])

    def test_after_the_psb_differs(self):
        damaged = self.OURS[:2] + ["6 psb -", "22 pad -"]
        self.assertIn("line 2", pc.resync_problems(self.OURS, damaged, 4,
                                                   2)[0])

    def test_before_the_psb_differs(self):
        damaged = ["0 tip 1:0x2", "3 pad -", "6 psb -", "22 psbend -"]
        self.assertEqual(pc.resync_problems(self.OURS, damaged, 4, 2),
                         ["the lines before the PSB differ"])


class ComparePackets(unittest.TestCase):
    def test_same(self):
        lines = ["0 psb -", "16 tnt.8 0x1/2"]
        self.assertEqual(pc.compare_packets(lines, list(lines)), [])

    def test_one_field_differs(self):
        bad = pc.compare_packets(["0 psb -", "16 tnt.8 0x1/2"],
                                 ["0 psb -", "16 tnt.8 0x2/2"])
        self.assertEqual(len(bad), 1)
        self.assertIn("line 2", bad[0])

    def test_one_side_longer(self):
        self.assertTrue(pc.compare_packets(["0 psb -"], []))
        self.assertTrue(pc.compare_packets([], ["0 psb -"]))

    def test_errors_by_offset(self):
        ours = ["0 error broken PSB", "11 psb -"]
        ref = ["0 error unknown packet", "11 psb -"]
        self.assertTrue(pc.compare_packets(ours, ref))
        self.assertEqual(pc.compare_packets(ours, ref,
                                            errors_by_offset=True), [])
        ref[0] = "1 error unknown packet"
        self.assertTrue(pc.compare_packets(ours, ref,
                                           errors_by_offset=True))
        ref[0] = "0 pad -"
        self.assertTrue(pc.compare_packets(ours, ref,
                                           errors_by_offset=True))

    def test_cyc10_let_through(self):
        data, ours, ref = stream_with_cyc10()
        self.assertEqual(pc.compare_packets(ours, ref, data, cyc10=True),
                         [])

    def test_cyc10_only_when_asked(self):
        data, ours, ref = stream_with_cyc10()
        self.assertTrue(pc.compare_packets(ours, ref, data))

    def test_cyc10_value_must_be_printed(self):
        data, ours, ref = stream_with_cyc10()
        ours[1] = "16 cyc 0x5"
        bad = pc.compare_packets(ours, ref, data, cyc10=True)
        self.assertIn("0x8000000000000005", bad[0])
        ours[1] = "16 error CYC overflow"
        self.assertTrue(pc.compare_packets(ours, ref, data, cyc10=True))

    def test_cyc10_only_for_a_10_byte_cyc(self):
        # a 9-byte CYC that libipt would have rejected: not excused
        data = PSB + cyc_bytes(1 << 60) + bytes([0x0a, 0xcd]) + bytes(8) \
            + PSB
        ours = ["0 psb -", f"16 cyc 0x{1 << 60:x}", "25 tnt.8 0x1/2",
                "26 tip 6:0x0", "35 psb -"]
        ref = ["0 psb -", "16 error unknown packet", "35 psb -"]
        self.assertTrue(pc.compare_packets(ours, ref, data, cyc10=True))
        # a 10-byte CYC past 64 bits: ptdecode must call it an error
        data = PSB + cyc_bytes(1 << 64) + data[25:]
        ours = ["0 psb -", f"16 cyc 0x{1 << 64:x}", "26 tnt.8 0x1/2",
                "27 tip 6:0x0", "36 psb -"]
        ref[2] = "36 psb -"
        self.assertTrue(pc.compare_packets(ours, ref, data, cyc10=True))
        ours[1] = "16 cyc 0x0"      # as if truncated to 64 bits
        self.assertTrue(pc.compare_packets(ours, ref, data, cyc10=True))

    def test_cyc10_only_for_libipts_bad_packet(self):
        data, ours, ref = stream_with_cyc10()
        ref[1] = "16 error unknown opcode"
        self.assertTrue(pc.compare_packets(ours, ref, data, cyc10=True))

    def test_cyc10_then_no_error_and_no_psb_skipped(self):
        data, ours, ref = stream_with_cyc10()
        err = list(ours)
        err[2] = "26 error truncated packet"
        self.assertTrue(pc.compare_packets(err, ref, data, cyc10=True))
        psb = list(ours)
        psb[3] = "27 psb -"
        self.assertTrue(pc.compare_packets(psb, ref, data, cyc10=True))

    def test_cyc10_at_the_end(self):
        data = PSB + cyc_bytes(1 << 62) + bytes([0x0a])
        ours = ["0 psb -", f"16 cyc 0x{1 << 62:x}", "26 tnt.8 0x1/2"]
        ref = ["0 psb -", "16 error unknown packet"]
        self.assertEqual(pc.compare_packets(ours, ref, data, cyc10=True),
                         [])

    def test_cyc10_resume_must_be_a_psb(self):
        data, ours, ref = stream_with_cyc10()
        ref[2] = "27 tip 6:0x0"
        self.assertTrue(pc.compare_packets(ours, ref, data, cyc10=True))


class ParseTiming(unittest.TestCase):
    LINES = ["22 tip.pge 0x401000 0", "30 tnt 0/2 T 5",
             "30 tnt 1/2 N [5,9)", "31 tip 0x401010 [5,-)",
             "40 tip.pgd - [9,-) epoch=1",
             "# branches=4 exact=2 bounded=2 errors=0 cycles=9"]

    def test_lines(self):
        got, summary, problems = pc.parse_timing(self.LINES)
        self.assertEqual(problems, [])
        self.assertEqual(summary["branches"], "4")
        self.assertEqual([b["kind"] for b in got],
                         ["tip.pge", "tnt", "tnt", "tip", "tip.pgd"])
        self.assertEqual((got[1]["value"], got[1]["lo"], got[1]["exact"]),
                         ("T", 5, True))
        self.assertEqual((got[2]["lo"], got[2]["hi"], got[2]["exact"]),
                         (5, 9, False))
        self.assertEqual([b["bit"] for b in got], [None, 0, 1, None, None])
        self.assertEqual((got[3]["value"], got[3]["hi"]), (0x401010, None))
        self.assertEqual((got[4]["value"], got[4]["epoch"]), (None, 1))

    def test_errors_and_malformed_lines(self):
        for line in ("7 error CYC overflow", "30 tnt 0/2 X 5",
                     "30 tnt 0/2 T 5x", "31 tip 401010 5", "31 tip 0x1",
                     "31 jump 0x1 5", "30 tnt 0/2 T [5,4"):
            _, _, problems = pc.parse_timing([line, "# branches=0"])
            self.assertEqual(len(problems), 1, line)

    def test_no_summary(self):
        _, _, problems = pc.parse_timing(self.LINES[:-1])
        self.assertIn("summary", problems[0])


BRANCHES = """\
# pt-modelgen bench=b n=3 mode=x86_64 cfg=c0 ctl=0x1 start=1000 stride=1 \
thresh=0 steps=9 bytes=40 psbs=0
tip.pge 0x401000 1001
tnt T 1005
tnt N 1007
tip 0x401010 1009
"""


def timing(*times, kinds=("tip.pge", "tnt", "tnt", "tip"),
           values=(0x401000, "T", "N", 0x401010), bits=(0, 0, 0, 0)):
    lines = []
    for kind, value, t, bit in zip(kinds, values, times, bits):
        v = f"{bit}/2 {value}" if kind == "tnt" else f"0x{value:x}"
        lines.append(f"30 {kind} {v} {t}")
    return pc.parse_timing(lines + ["# branches=0"])[0]


class CompareTiming(unittest.TestCase):
    def setUp(self):
        self.header, self.want = pc.parse_branches(BRANCHES)

    def test_parse_branches(self):
        self.assertEqual(self.header["start"], "1000")
        self.assertEqual(self.want[0], ("tip.pge", 0x401000, 1001))
        self.assertEqual(self.want[1], ("tnt", "T", 1005))

    def test_exact_at_the_clock(self):
        self.assertEqual(pc.compare_timing(timing(0, 5, 7, 9), self.header,
                                           self.want), [])

    def test_exact_elsewhere(self):
        bad = pc.compare_timing(timing(0, 5, 8, 9), self.header, self.want)
        self.assertIn("clock 1007 - 1000 = 7", bad[0])

    def test_bounds_not_under_cycthresh_0(self):
        # the first branch of a TNT and a TIP have their cycle's CYC
        # (SDM Table 36-33, 36.3.6.2): bounded is wrong for them
        for thresh in ("0", "1"):
            self.header["thresh"] = thresh
            bad = pc.compare_timing(timing(0, 5, "[5,9)", 9), self.header,
                                    self.want)
            self.assertEqual(len(bad), 1, thresh)
            self.assertIn("bit 0", bad[0])
            bad = pc.compare_timing(timing(0, 5, 7, "[7,-)", bits=(0, 0, 1, 0)),
                                    self.header, self.want)
            self.assertEqual(len(bad), 1, thresh)

    def test_later_branch_of_a_tnt_bounded_under_cycthresh_0(self):
        # CYC 5, TNT T N: the N (bit 1, clock 7) only in [5, 9)
        got = timing(0, 5, "[5,9)", 9, bits=(0, 0, 1, 0))
        self.assertEqual(pc.compare_timing(got, self.header, self.want), [])
        for t in ("[8,9)", "[5,7)", "[5,6)"):
            got = timing(0, 5, t, 9, bits=(0, 0, 1, 0))
            self.assertTrue(pc.compare_timing(got, self.header, self.want),
                            t)

    def test_same_cycle_as_the_last_branch_bounded(self):
        # two branches retired in one cycle: only the first is timed
        header, want = pc.parse_branches(BRANCHES.replace("1009", "1007"))
        self.assertEqual(pc.compare_timing(timing(0, 5, "[5,7)", "[7,-)",
                                                  bits=(0, 0, 1, 0)),
                                           header, want),
                         ["branch 3 (offset 30) tnt bit 1: time [5,7), the "
                          "trace's clock 1007 - 1000 = 7 (CycThresh 0)"])
        self.assertEqual(pc.compare_timing(timing(0, 5, "[5,8)", "[7,-)",
                                                  bits=(0, 0, 1, 0)),
                                           header, want), [])

    def test_bounds_under_cycthresh(self):
        self.header["thresh"] = "2"
        self.assertEqual(pc.compare_timing(timing(0, 5, "[5,9)", "[9,-)"),
                                           self.header, self.want), [])
        for t in ("[8,9)", "[5,7)"):
            self.assertTrue(pc.compare_timing(timing(0, 5, t, 9),
                                              self.header, self.want), t)

    def test_outcome_target_and_order(self):
        flipped = timing(0, 5, 7, 9, values=(0x401000, "T", "T", 0x401010))
        self.assertIn("tnt T", pc.compare_timing(flipped, self.header,
                                                 self.want)[0])
        target = timing(0, 5, 7, 9, values=(0x401000, "T", "N", 0x401011))
        self.assertIn("0x401011", pc.compare_timing(target, self.header,
                                                    self.want)[0])
        kinds = timing(0, 5, 7, 9, kinds=("tip.pge", "tnt", "tip", "tnt"),
                       values=(0x401000, "T", 0x401010, "N"))
        self.assertTrue(pc.compare_timing(kinds, self.header, self.want))

    def test_missing_or_extra_branch(self):
        self.assertTrue(pc.compare_timing(timing(0, 5, 7), self.header,
                                          self.want))
        extra = timing(0, 5, 7, 9) + timing(9, kinds=("tip",),
                                            values=(0x1,))
        self.assertTrue(pc.compare_timing(extra, self.header, self.want))

    def test_pgd_is_not_compared(self):
        pgd = pc.parse_timing(["40 tip.pgd - [9,-)", "# x=0"])[0]
        self.assertEqual(pc.compare_timing(timing(0, 5, 7, 9) + pgd,
                                           self.header, self.want), [])


if __name__ == "__main__":
    unittest.main()


class SplitEach(unittest.TestCase):
    """The output of a decoder run with --each, split back per file."""

    def test_split(self):
        lines = ["0 psb -", "# end 1 0", "# end 2 0", "3 error x",
                 "# branches=0", "# end 3 1"]
        self.assertEqual(pc.split_each(1, lines, "", 3), [
            (0, ["0 psb -"]), (0, []), (1, ["3 error x", "# branches=0"])])

    def test_not_each_files_output(self):
        for rc, lines, n in (
                (0, ["0 psb -", "# end 1 0"], 2),       # a file missing
                (0, ["# end 1 0", "0 psb -"], 1),       # lines after
                (0, ["# end 2 0"], 1),                  # numbered wrong
                (0, ["# end 1 1"], 1),                  # status not the max
                (2, ["# end 1 0"], 1),
                (-1, [], 1)):                           # the tool failed
            self.assertIsNone(pc.split_each(rc, lines, "", n), lines)
