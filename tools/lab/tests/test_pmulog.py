"""tools/lab/pmulog.py: the log parser, on fixture logs cut from real boots."""

import json
import unittest
from pathlib import Path

from tools.testing.support import (FIXTURES, PY, call_main, fixture_text,
                                   run_tool, tap_part)

from tools.lab import pmulog


def messages(log):
    return [e.message for e in log.parse_errors]


class RealLogs(unittest.TestCase):
    def test_p54c_serial_capture(self):
        log = pmulog.parse_file(FIXTURES / "p54c.log")
        self.assertEqual(log.parse_errors, [])
        self.assertIsNone(log.read_error)
        self.assertTrue(log.found_version)
        self.assertIn("BdsDxe: starting Boot0002", log.prefix)
        self.assertEqual(log.lines[0], "TAP version 13")
        self.assertFalse(any("\r" in l for l in log.lines))
        self.assertEqual(log.tap_text, tap_part(fixture_text("p54c.log")))
        # header lines, key=value fields, quoted values with spaces
        self.assertEqual([h.key for h in log.headers],
                         ["harness", "cpu", "cpu-extra", "pmu", "backend",
                          "platform", "console", "ring3", "options"])
        cpu = log.header("cpu")
        self.assertEqual(cpu.fields, {
            "vendor": "GenuineIntel", "family": "5", "model": "2",
            "stepping": "5", "signature": "0x525",
            "name": "Pentium (P54C)"})
        self.assertEqual(log.header("harness").words,
                         ["pmu-harness", "0.1.0"])
        pmu = log.header("pmu").fields
        self.assertEqual((pmu["kind"], pmu["counters"], pmu["rdpmc"]),
                         ("p5", "2", "no"))
        self.assertEqual(pmu["probe"], "msr=0x11 wrote=0x160016 read=0x0 "
                                       "wr_vector=0 rd_vector=0")
        backend = log.header("backend")
        self.assertEqual(backend.words, ["model"])
        self.assertTrue(backend.fields["reason"].endswith(
            "(model counts, not hardware counts)"))
        self.assertEqual(log.header("console").fields["logfile"],
                         "\\pmu-harness\\20261122-031916.log")
        self.assertEqual(log.header("ring3").words, ["ready"])
        # results
        self.assertEqual(len(log.results), 21)
        self.assertEqual([r.number for r in log.results], list(range(1, 22)))
        r = log.results[11]
        self.assertEqual((r.number, r.ok, r.name, r.status),
                         (12, True, "p5/cc-010", "ok"))
        self.assertEqual(r.yaml["cpl3_ctr0"], 806)
        self.assertEqual(r.yaml["cpl3_run"],
                         "call-ret n=100 cpl=3 backend=model")
        self.assertIn("cpl3_ctr0: 806\n", r.yaml_text)
        skip = next(r for r in log.results if r.name == "p5/event-0x02-ctr0")
        self.assertEqual((skip.directive, skip.status), ("SKIP", "skip"))
        self.assertTrue(skip.reason.startswith("DATA_TLB_MISS not modelled"))
        self.assertIsNone(log.results[1].yaml)       # recover-nested: none
        self.assertEqual(log.plan, 21)
        self.assertEqual((log.summary.passed, log.summary.failed,
                          log.summary.skipped), (20, 0, 1))
        self.assertEqual(log.counts(), (20, 0, 1))
        self.assertEqual(log.bail_outs, [])

    def test_summary_without_fields(self):
        log = pmulog.parse_file(FIXTURES / "p54c.log")
        self.assertEqual(log.summary.fields, {})
        self.assertIsNone(log.summary.logfile_error)

    def test_log_file_failure(self):
        """A full boot volume: the error line (serial only) and the
        summary's logfile_error, from a real boot."""
        log = pmulog.parse_file(FIXTURES / "logfile-full.log")
        self.assertEqual(log.parse_errors, [])
        name = log.header("console").fields["logfile"]
        self.assertRegex(name, r"^\\pmu-harness\\\d{8}-\d{6}\.log$")
        want = ("write of 15 bytes failed (EFI_VOLUME_FULL), 0 bytes kept "
                "in " + name)
        self.assertEqual([e.text for e in log.error_lines],
                         ["log file: " + want])
        self.assertEqual(log.summary.logfile_error, want)
        self.assertEqual((log.summary.passed, log.summary.failed,
                          log.summary.skipped), (4, 0, 0))
        self.assertEqual(log.to_dict()["summary"]["fields"],
                         {"logfile_error": want})

    def test_failing_results_and_yaml_lists(self):
        log = pmulog.parse_file(FIXTURES / "selftest.log")
        self.assertEqual(log.parse_errors, [])
        st = {r.name: r for r in log.results}
        fails = st["selftest/fails-by-design"]
        self.assertEqual((fails.ok, fails.status), (False, "not ok"))
        self.assertEqual(fails.yaml["failures"],
                         ["by design: measured 1, expected 2"])
        self.assertEqual(fails.yaml["failed_checks"], "1 of 1")
        ud = st["selftest/unexpected-ud"]
        self.assertEqual(ud.yaml["exception"], "#UD")
        self.assertEqual(ud.yaml["about_to"], "execute ud2")
        self.assertEqual(log.counts(), (1, 3, 0))

    def test_p5_failure_fixture(self):
        log = pmulog.parse_file(FIXTURES / "p54c-p5-fail.log")
        self.assertEqual(log.parse_errors, [])
        r = log.results[11]
        self.assertEqual((r.number, r.name, r.status), (12, "p5/cc-010",
                                                        "not ok"))
        self.assertEqual(r.yaml["failures"],
                         ["cpl3 ctr0: measured 805, expected 806"])
        self.assertEqual(log.counts(), (19, 1, 1))

    def test_error_and_running_lines(self):
        log = pmulog.parse_file(FIXTURES / "options-errors.log")
        self.assertEqual(log.parse_errors, [])
        self.assertEqual(len(log.error_lines), 3)
        self.assertTrue(log.error_lines[0].text.startswith(
            'option \\pmu-harness.cfg: unknown option "bogus"'))
        self.assertIsNone(log.header("error"))
        running = [c.text for c in log.comments]
        self.assertEqual(len(running), 3)
        self.assertTrue(running[0].startswith("running arch/rdmsr-safe-gp:"))
        self.assertIsNone(log.header("running"))
        self.assertEqual(log.header("options").fields["verbose"], "1")
        self.assertEqual(log.prefix, "")

    def test_no_summary(self):
        log = pmulog.parse_file(FIXTURES / "no-summary.log")
        self.assertIsNone(log.summary)
        self.assertEqual(log.plan, 21)
        self.assertEqual(len(log.results), 21)
        self.assertEqual(messages(log), ["no '# summary:' line: the log is "
                                         "incomplete"])

    def test_truncated(self):
        log = pmulog.parse_file(FIXTURES / "truncated.log")
        self.assertEqual(len(log.results), 12)      # all up to the cut
        self.assertEqual(log.results[10].yaml["cpl3_ctr1"], 0)
        msgs = messages(log)
        self.assertTrue(any("YAML block of result 12" in m and
                            "not closed" in m for m in msgs), msgs)
        self.assertIn("no '# summary:' line: the log is incomplete", msgs)
        self.assertIn("no plan '1..N': the log is incomplete", msgs)
        self.assertIsNone(log.plan)


class Malformed(unittest.TestCase):
    HEAD = "TAP version 13\n# harness: pmu-harness 1\n"
    END = "1..2\n# summary: passed=2 failed=0 skipped=0\n"

    def test_no_tap_version(self):
        log = pmulog.parse("BdsDxe: loading Boot0002\r\nqemu garbage\r\n")
        self.assertFalse(log.found_version)
        self.assertEqual(log.results, [])
        self.assertTrue(messages(log)[0].startswith("no 'TAP version 13'"))

    def test_version_shares_a_line_with_ovmf(self):
        log = pmulog.parse("\x1b[2J\x1b[01;01HBdsDxe: x\r\n\x1b[0mTAP version"
                           " 13\r\nok 1 - a/b\r\n1..1\r\n# summary: passed=1"
                           " failed=0 skipped=0\r\n")
        self.assertEqual(log.parse_errors, [])
        self.assertEqual(log.lines[0], "TAP version 13")
        self.assertEqual(log.first_line, 2)
        self.assertEqual(log.results[0].line, 3)

    def test_errors_are_collected_and_parsing_goes_on(self):
        text = (self.HEAD +
                "ok 1 - a/one\n"
                "  ---\n"
                "  key: [unclosed\n"
                "  ...\n"
                "ok 3 - a/three\n"          # numbered 3, expected 2
                "some junk\n"
                "# cpu: vendor=\"unterminated\n"
                "ok 3 - a/four # FROB x\n"
                "1..3\n"
                "# summary: passed=3 failed=0\n")
        log = pmulog.parse(text)
        msgs = messages(log)
        self.assertEqual(len(log.results), 3)       # nothing lost
        self.assertEqual(log.plan, 3)
        self.assertTrue(any("YAML block of result 1" in m for m in msgs))
        self.assertIn("result numbered 3, expected 2", msgs)
        self.assertIn("not a TAP line: 'some junk'", msgs)
        self.assertIn("unknown directive in 'a/four # FROB x'", msgs)
        self.assertTrue(any(m.startswith("malformed summary") for m in msgs))
        self.assertIsNone(log.summary)
        # every error names its line
        junk = next(e for e in log.parse_errors if "junk" in e.message)
        self.assertEqual(junk.line, 8)

    def test_summary_fields(self):
        ok = "# summary: passed=2 failed=0 skipped=0"
        for extra, fields in (
                ("", {}),
                (' logfile_error="flush failed (EFI_DEVICE_ERROR), 10 '
                 'bytes kept in \\pmu-harness\\a.log"',
                 {"logfile_error": "flush failed (EFI_DEVICE_ERROR), 10 "
                                   "bytes kept in \\pmu-harness\\a.log"}),
                (' later=1 logfile_error=""',
                 {"later": "1", "logfile_error": ""})):
            log = pmulog.parse(self.HEAD + "ok 1 - a\nok 2 - b\n1..2\n" +
                               ok + extra + "\n")
            self.assertEqual(log.parse_errors, [], extra)
            self.assertEqual(log.summary.fields, fields)
            self.assertEqual(log.summary.passed, 2)

    def test_malformed_summary_fields(self):
        for extra in (" junk", ' logfile_error="unterminated',
                      " logfile_error=a logfile_error=b",
                      "x=1"):
            log = pmulog.parse(self.HEAD + "ok 1 - a\nok 2 - b\n1..2\n"
                               "# summary: passed=2 failed=0 skipped=0" +
                               extra + "\n")
            self.assertTrue(any(m.startswith("malformed summary")
                                for m in messages(log)), extra)
            self.assertIsNone(log.summary, extra)

    def test_result_after_plan_and_twice(self):
        log = pmulog.parse(self.HEAD + "ok 1 - a\nok 2 - b\n" + self.END +
                           "ok 3 - c\n1..3\n")
        msgs = messages(log)
        self.assertIn("result after the plan", msgs)
        self.assertIn("result after the summary", msgs)
        self.assertTrue(any(m.startswith("second plan") for m in msgs))

    def test_one_misnumbered_result_is_one_error(self):
        # Issue 43: one number given twice made every later result an
        # error (177 lines).  TAP numbers count up by one (TAP 13,
        # "Test number"): each result is judged against the one before.
        nums = list(range(1, 6)) + [5] + list(range(6, 180))
        body = "".join(f"ok {n} - t{i}\n" for i, n in enumerate(nums))
        log = pmulog.parse(self.HEAD + body + f"1..{len(nums)}\n")
        numbering = [m for m in messages(log) if m.startswith("result ")]
        self.assertEqual(numbering, ["result numbered 5, expected 6",
                                     "result numbered 6, expected 6"][:1])
        # A gap is one error too, and so is a missing number.
        log = pmulog.parse(self.HEAD + "ok 1 - a\nok 3 - b\nok 4 - c\n"
                           "ok - d\nok 6 - e\n1..5\n")
        self.assertEqual([m for m in messages(log)
                          if m.startswith("result ")],
                         ["result numbered 3, expected 2",
                          "result without a number (expected 5)"])

    def test_yaml_not_a_mapping_and_stray_block(self):
        log = pmulog.parse(self.HEAD + "  ---\n  a: 1\n  ...\n"
                           "ok 1 - a\n  ---\n  - x\n  ...\n"
                           "ok 2 - b\n" + self.END)
        msgs = messages(log)
        self.assertIn("YAML block without a result line before it", msgs)
        self.assertTrue(any("not a mapping" in m for m in msgs))

    def test_yaml_block_cut_by_the_next_result(self):
        log = pmulog.parse(self.HEAD + "ok 1 - a\n  ---\n  a: 1\n"
                           "ok 2 - b\n" + self.END)
        self.assertEqual(len(log.results), 2)
        self.assertEqual(log.results[0].yaml, {"a": 1})
        self.assertIn("YAML block of result 1 (opened on line 4) is not "
                      "closed by '  ...'", [str(e.message) for e in
                                            log.parse_errors])
        self.assertEqual(log.parse_errors[0].line, 6)

    def test_bail_out_and_comments(self):
        log = pmulog.parse(self.HEAD + "ok 1 - a\n# a free comment\n"
                           "Bail out! ring3 setup failed\n")
        self.assertEqual([b.text for b in log.bail_outs],
                         ["ring3 setup failed"])
        self.assertEqual([c.text for c in log.comments], ["a free comment"])

    def test_fields(self):
        words, fields, problems = pmulog.parse_fields(
            'none a=1 b="two words" c= path="\\x\\y.log" d="x"y e="open')
        self.assertEqual(fields, {"a": "1", "b": "two words", "c": "",
                                  "path": "\\x\\y.log"})
        self.assertEqual(words, ["none", 'd="x"y', 'e="open'])
        self.assertEqual(problems, ["malformed quoted value in 'd=\"x\"y'",
                                    "malformed quoted value in 'e=\"open'"])

    def test_duplicate_header_and_field(self):
        log = pmulog.parse(self.HEAD + "# harness: again\n"
                           "# pmu: kind=p5 kind=p6\nok 1 - a\nok 2 - b\n"
                           + self.END)
        msgs = messages(log)
        self.assertIn("header 'harness' given twice", msgs)
        self.assertIn("header 'pmu': field 'kind' given twice", msgs)
        self.assertEqual(log.header("harness").text, "pmu-harness 1")

    def test_todo_and_bare_results(self):
        log = pmulog.parse(self.HEAD + "not ok 1 - a # TODO later\nok\n"
                           + self.END)
        self.assertEqual(log.results[0].directive, "TODO")
        self.assertEqual(log.results[0].reason, "later")
        self.assertIn("result without a number (expected 2)", messages(log))
        self.assertIn("result without a name", messages(log))


class Hostile(unittest.TestCase):
    """Logs a serial line or a hostile file can produce (issue 31)."""
    HEAD = "TAP version 13\n"
    END = "1..1\n# summary: passed=1 failed=0 skipped=0\n"

    def test_alias_bomb_is_rejected_not_expanded(self):
        # 9 anchored lists, each of 9 aliases of the one before: loaded,
        # "i" alone would stand for 9^8 (43 million) strings.  YAML anchors
        # and aliases (YAML 1.1 section 7.1) are never written by the
        # harness (lib/tap.h writes key: value lines and lists).
        lines = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol",'
                 '"lol","lol"]']
        for prev, k in zip("abcdefgh", "bcdefghi"):
            lines.append(f"  {k}: &{k} [" + ",".join([f"*{prev}"] * 9) + "]")
        text = (self.HEAD + "ok 1 - a/bomb\n  ---\n" + "\n".join(lines) +
                "\n  tests: \"detect/*\"\n  after: 0x10\n  ...\n" + self.END)
        log = pmulog.parse(text)
        # a..i are lines 4..12; the values after them are kept (a '*'
        # inside a quoted string is no alias).  Keys first: a failure
        # message must not print an expanded bomb.
        self.assertEqual(sorted(log.results[0].yaml), ["after", "tests"])
        self.assertEqual(log.results[0].yaml,
                         {"tests": "detect/*", "after": 16})
        bad = [(e.line, e.message) for e in log.parse_errors]
        self.assertEqual([l for l, _ in bad], list(range(4, 13)))
        self.assertIn("&a is a YAML anchor or alias", bad[0][1])
        self.assertIn("rejected, not expanded", bad[8][1])

    def test_lone_alias_is_rejected(self):
        log = pmulog.parse(self.HEAD + "ok 1 - a/x\n  ---\n  x: *nowhere\n"
                           "  y: 2\n  ...\n" + self.END)
        self.assertEqual(log.results[0].yaml, {"y": 2})
        self.assertEqual([e.line for e in log.parse_errors], [4])
        self.assertIn("*nowhere is a YAML anchor or alias",
                      log.parse_errors[0].message)

    BLOCK = ["  k0: 0x1", "  k1: 2", "  k2:", "    - 3", "    - \"four\"",
             "  k3: five", "  k4: 0x6"]
    WANT = {"k0": 1, "k1": 2, "k2": [3, "four"], "k3": "five", "k4": 6}

    def noisy(self, at, noise):
        """The block with line `at` (0-based in BLOCK) replaced."""
        body = list(self.BLOCK)
        body[at] = noise
        return pmulog.parse(self.HEAD + "ok 1 - a/x\n  ---\n" +
                            "\n".join(body) + "\n  ...\n" + self.END)

    def test_noise_line_in_a_block_costs_only_itself(self):
        # block lines are input lines 4..10; each case damages line 5
        # (k1), so every other value must survive
        want = {k: v for k, v in self.WANT.items() if k != "k1"}
        for noise in ("\x00\x1b[2J\x1b[01;01H", "  \x1b[0m\x07",
                      "  k1: \x00\x00 2", "  k\x1b[2J1: 2", "",
                      "BdsDxe: loading Boot0002"):
            with self.subTest(noise=noise):
                log = self.noisy(1, noise)
                self.assertEqual(log.results[0].yaml, want)
                self.assertEqual([e.line for e in log.parse_errors], [5],
                                 log.parse_errors)

    def test_noise_in_a_list_item_costs_its_entry(self):
        log = self.noisy(3, "    - \x1b[31m3")
        self.assertEqual(log.results[0].yaml,
                         {k: v for k, v in self.WANT.items() if k != "k2"})
        self.assertEqual([e.line for e in log.parse_errors], [6])

    def test_parsing_is_incremental(self):
        # a result's values are there as soon as its block ends, before
        # the rest of the input has come
        p = pmulog.Parser()
        for line in ("BdsDxe: x", "TAP version 13", "ok 1 - a/x", "  ---",
                     "  v: 0x2a", "  ..."):
            p.feed(line)
        self.assertEqual(p.log.results[0].yaml, {"v": 42})
        self.assertEqual(p.log.first_line, 2)
        for line in ("1..1", "# summary: passed=1 failed=0 skipped=0"):
            p.feed(line)
        self.assertEqual(p.finish().parse_errors, [])

    def test_lines_not_kept_on_request(self):
        # parse_file reads a line at a time; keep_lines=False keeps the
        # results only (the lab tools' load does so)
        path = FIXTURES / "p54c.log"
        whole = pmulog.parse(fixture_text("p54c.log"))
        lean = pmulog.parse_file(path, keep_lines=False)
        self.assertEqual(lean.lines, [])
        self.assertEqual(pmulog.parse_file(path).lines, whole.lines)
        self.assertEqual([(r.name, r.status, r.yaml, r.line)
                          for r in lean.results],
                         [(r.name, r.status, r.yaml, r.line)
                          for r in whole.results])
        self.assertEqual(lean.parse_errors, whole.parse_errors)
        self.assertEqual(lean.first_line, whole.first_line)


class Cli(unittest.TestCase):
    def test_json_dump(self):
        rc, out = run_tool([PY, "-m", "tools.lab.pmulog",
                            str(FIXTURES / "selftest.log")])
        self.assertEqual(rc, 0, out)
        d = json.loads(out)
        self.assertEqual(d["plan"], 4)
        self.assertEqual(d["results"][0]["status"], "not ok")
        self.assertEqual(d["summary"]["failed"], 3)

    def pmulog_main(self, *args):
        """python3 -m tools.lab.pmulog ARGS... in this process
        (support.call_main; test_json_dump runs the command itself):
        (status, stdout+stderr)."""
        prog = str(Path(pmulog.__file__))
        r = call_main(lambda argv: pmulog.main([prog, *argv]), args,
                      prog=prog)
        return r.returncode, r.output

    def test_parse_errors_exit_1(self):
        rc, out = self.pmulog_main(str(FIXTURES / "truncated.log"))
        self.assertEqual(rc, 1)
        self.assertIn("not closed", out)

    def test_unreadable_exit_2(self):
        rc, out = self.pmulog_main(str(FIXTURES / "no-such.log"))
        self.assertEqual(rc, 2)
        self.assertIn("cannot read", out)


if __name__ == "__main__":
    unittest.main()
