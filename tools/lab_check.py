#!/usr/bin/env python3
"""lab_check: `make check`'s "lab" stage.  The lab tools (tools/pmu-harness)
and TAP's own consumer, Perl's prove, run on every log the boot matrix and
the kill stage just wrote, and must agree with what the log says
(docs/lab.md, docs/check.md).

For every log (serial capture and boot-volume file) under --logs:
  prove     `prove --exec cat LOG` passes exactly when the log passes:
            a summary with failed=0, no Bail out!, no damage (pmulog)
  parse     `pmu-harness parse LOG` exits 0 for an intact log, 3 for a
            damaged one, and its JSON holds every result pmulog reads
  compare   `pmu-harness compare LOG LOG` (serial logs): clean, exit 0
            (3 for a damaged log), nothing changed
  capture   `pmu-harness capture --port LOG` (serial logs of boots whose
            volume log is the whole serial log, tools/matrix.yaml): the
            clean log it writes is byte for byte the harness's own log
            file from the boot volume
Over all serial logs at once:
  junit     `pmu-harness junit`: valid against tools/lab/junit.xsd
            (xmllint), one testsuite per log whose counts equal the log's
  report    `pmu-harness report`: rendered by headless Chromium; the DOM
            names every log's machine and shows its counts

Prints one "ok - lab: ..." / "not ok - lab: ..." line per check; exits 0
only when every check passed and at least one ran.

    lab_check.py --logs DIR [--out DIR]
"""

import argparse
import json
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import boottable  # noqa: E402
import pmulog  # noqa: E402
from lab import browser, common  # noqa: E402

TOOL = [sys.executable, str(HERE / "pmu-harness")]
XSD = HERE / "lab" / "junit.xsd"
LIMIT = 300             # seconds any one command may take


class Checks:
    def __init__(self):
        self.passed = self.failed = 0
        self.lock = threading.Lock()

    def say(self, ok, text, detail=""):
        with self.lock:
            self._say(ok, text, detail)

    def _say(self, ok, text, detail):
        print(f"{'ok' if ok else 'not ok'} - lab: {text}", flush=True)
        if not ok:
            for line in str(detail).strip().splitlines()[-20:]:
                print(f"#   {line}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def run(argv, **kw):
    """(exit status, stdout, stderr) of argv; never a shell."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True,
                           errors="replace", timeout=LIMIT,
                           stdin=subprocess.DEVNULL, **kw)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, "", f"{argv[0]}: {e}"
    return p.returncode, p.stdout, p.stderr


def passes(log):
    """The log's own verdict: complete, intact, nothing failed."""
    s = log.summary
    return (not log.parse_errors and not log.bail_outs and s is not None
            and s.failed == 0 and s.passed + s.skipped > 0)


def check_prove(c, path, log):
    rc, out, err = run(["prove", "--exec", "cat", str(path)])
    want = passes(log)
    c.say(rc >= 0 and (rc == 0) == want,
          f"{path.name}: prove {'PASS' if rc == 0 else 'FAIL'}, the log "
          f"{'passes' if want else 'does not pass'}", out + err)


def check_parse(c, path, log):
    rc, out, err = run(TOOL + ["parse", str(path)])
    want_rc = common.EXIT_DAMAGED if log.parse_errors else common.EXIT_OK
    try:
        doc = json.loads(out)
        got = [(r["name"], r["status"]) for r in doc["logs"][0]["results"]]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        c.say(False, f"{path.name}: parse wrote no usable JSON ({e})",
              err)
        return
    want = [(r.name, r.status) for r in log.results]
    c.say(rc == want_rc and got == want,
          f"{path.name}: parse exit {rc} (want {want_rc}), "
          f"{len(got)} results (pmulog reads {len(want)})", err)


def check_compare_self(c, path, log):
    rc, out, err = run(TOOL + ["compare", str(path), str(path)])
    want_rc = common.EXIT_DAMAGED if log.parse_errors else common.EXIT_OK
    c.say(rc == want_rc and "REGRESSION" not in out,
          f"{path.name}: compared with itself, exit {rc} (want {want_rc})",
          out + err)


def check_capture(c, path, out_dir):
    """The serial capture, read as a port: its clean log must be the
    boot volume's log file."""
    volume = path.with_name(path.name[:-len(".log")] + ".volume.log")
    d = out_dir / "capture" / path.name[:-len(".log")]
    d.mkdir(parents=True, exist_ok=True)
    for old in d.iterdir():
        old.unlink()
    rc, out, err = run(TOOL + ["capture", "--port", str(path), "--out",
                               str(d), "--progress", "never"])
    logs = sorted(d.glob("*.log"))
    if len(logs) != 1:
        c.say(False, f"{path.name}: capture wrote {len(logs)} logs "
              f"(exit {rc})", out + err)
        return
    same = logs[0].read_bytes() == volume.read_bytes()
    c.say(same and rc in (common.EXIT_OK, common.EXIT_FAIL),
          f"{path.name}: captured as a port (exit {rc}), the clean log "
          f"{logs[0].name} is the boot volume's log file", out + err)


def same_volume_boots(logs_dir):
    """Serial logs of the matrix boots whose volume log must equal the
    serial TAP text (volume_log: same), with both files present."""
    boots, _ = boottable.load(HERE / "matrix.yaml")   # errors: matrix's
    out = []
    for b in boots:
        serial = logs_dir / f"{b.name}.log"
        if b.volume_log == "same" and serial.exists() and \
                serial.with_name(f"{b.name}.volume.log").exists():
            out.append(serial)
    return out


def junit_counts(suite):
    """(passed, failed, skipped) of a testsuite's test cases for the log's
    tests (the log/* cases stand for damage, not tests); (-1,) when the
    suite's own attributes disagree with its test cases."""
    p = f = s = 0
    cases = suite.findall("testcase")
    for tc in cases:
        if tc.get("name", "").startswith("log/"):
            continue
        if tc.find("skipped") is not None:
            s += 1
        elif tc.find("failure") is not None or tc.find("error") is not None:
            f += 1
        else:
            p += 1
    attrs = [int(suite.get(k, -1)) for k in ("tests", "skipped")]
    if attrs != [len(cases), sum(tc.find("skipped") is not None
                                 for tc in cases)]:
        return (-1,)
    return p, f, s


def check_junit(c, serial, logs, out_dir):
    xml_path = out_dir / "junit.xml"
    rc, out, err = run(TOOL + ["junit", "-o", str(xml_path)]
                       + [str(p) for p in serial])
    if not xml_path.exists():
        c.say(False, f"junit: no XML written (exit {rc})", err)
        return
    xrc, xout, xerr = run(["xmllint", "--noout", "--schema", str(XSD),
                           str(xml_path)])
    c.say(xrc == 0, f"junit: {xml_path.name} valid against {XSD.name}",
          xout + xerr)
    try:
        suites = ET.parse(xml_path).getroot().findall("testsuite")
    except ET.ParseError as e:
        c.say(False, f"junit: {xml_path.name} is not XML: {e}")
        return
    c.say(len(suites) == len(serial), f"junit: {len(suites)} testsuites "
          f"for {len(serial)} logs")
    for suite, path in zip(suites, serial):
        log = logs[path]
        p, f, s = log.counts()
        got = junit_counts(suite)
        c.say(got == (p, f, s),
              f"junit: {path.name}: the suite's test cases pass, fail "
              f"and skip as the log's results ({p} {f} {s})", str(got))


def check_report(c, serial, logs, out_dir):
    html = out_dir / "report.html"
    rc, out, err = run(TOOL + ["report", "-o", str(html)]
                       + [str(p) for p in serial])
    if not html.exists():
        c.say(False, f"report: no page written (exit {rc})", err)
        return
    try:
        dom = browser.dump_dom(html)
    except browser.BrowserError as e:
        c.say(False, f"report: headless Chromium could not render it: {e}")
        return
    c.say("<svg" in dom, "report: Chromium rendered the page, with SVG "
          "plots", dom[:400])
    for path in serial:
        log = logs[path]
        label = common.log_label(log)
        c.say(browser.text_in_dom(dom, label),
              f"report: the page shows {label}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", required=True, type=Path)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    out_dir = a.out or a.logs / "lab"
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = sorted(p for p in a.logs.glob("**/*.log")
                   if out_dir not in p.parents)
    serial = [p for p in paths if not p.name.endswith(".volume.log")
              and p.parent == a.logs]
    c = Checks()
    if not paths:
        c.say(False, f"no logs under {a.logs}: run the matrix first")
        return 1
    logs = {p: pmulog.parse_file(p) for p in paths}

    def per_log(path):
        check_prove(c, path, logs[path])
        check_parse(c, path, logs[path])
        if path in serial:
            check_compare_self(c, path, logs[path])

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(per_log, paths))
        captured = same_volume_boots(a.logs)
        list(pool.map(lambda p: check_capture(c, p, out_dir), captured))
    if not captured:
        c.say(False, "capture: no boot of tools/matrix.yaml left a serial "
              "and a volume log to compare")
    check_junit(c, serial, logs, out_dir)
    check_report(c, serial, logs, out_dir)
    print(f"# lab: passed={c.passed} failed={c.failed}")
    return 0 if c.failed == 0 and c.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
