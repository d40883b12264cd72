"""pmu-harness report (tools/lab/report.py, svg.py) and the headless
Chromium runner (tools/lab/browser.py): the page as Chromium renders it
(DOM dump), its exit statuses, and that nothing in it reaches outside.

Chromium is required: make check installs it; without it the rendering
tests fail with the reason (they never skip).
"""

import os
import shutil
import struct
import tempfile
import unittest
from html.parser import HTMLParser
from pathlib import Path

from tools.testing.support import (FIXTURES, PY, PMU_HARNESS, harness,
                                   run_tool)

from tools.lab import browser, svg

LAB = FIXTURES / "lab"
TOOL = [PY, str(PMU_HARNESS), "report"]
MODEL = "model counts, not hardware counts"

# A log written to attack the page: markup and quotes in the machine name,
# a test name, a skip reason, YAML values and a counter's configuration.
EVIL = """TAP version 13
# harness: pmu-harness 0.1.0
# cpu: vendor=GenuineIntel family=6 model=94 stepping=3 signature=0x506e3 name="Evil'><script>alert(4)</script>\x1b[2J"
# pmu: kind=p6 counters=2 width=40 present=yes
# backend: hw reason="<img src=x onerror=alert(5)>"
not ok 1 - evil/<script>alert(1)</script>
  ---
  failed_checks: 1 of 1
  failures:
    - "<img src=x onerror=alert(3)>"
  cpl3_ctr0_config: "<script>alert(6)</script>"
  cpl3_ctr0: 7
  cpl3_ctr0_oracle: 9
  ...
ok 2 - evil/skip" onmouseover="alert(7) # SKIP <img src=x onerror=alert(2)>
# time: run=5 ms slowest=evil/x 1 ms timeout=60 s run_timeout=3600 s
1..2
# summary: passed=0 failed=1 skipped=1
"""

# Marked-up names from EVIL that must come out as text.
EVIL_TEXTS = ("evil/<script>alert(1)</script>", 'evil/skip" onmouseover="alert(7)',
              "<script>alert(4)</script>", "<script>alert(6)</script>")


def garbage_log():
    """p54c-model.log with firmware garbage between two results and cut
    inside a YAML block; returns (text, the garbage's line numbers)."""
    lines = (LAB / "p54c-model.log").read_text().split("\n")
    at = lines.index("ok 5 - apic/lvtpc-nmi-self-ipi")
    junk = ["\x1b[2J<b>garbage</b> \x00\x01 from the firmware",
            "BdsDxe: loading Boot0001"]
    lines[at:at] = junk
    cut = lines.index("ok 40 - oracle/indirect-jump") + 3
    text = "\n".join(lines[:cut]) + "\n  kind: ar"
    return text, [at + 1, at + 2]


# ------------------------------------------------------- a DOM for asserts

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text()
                       for c in self.children)

    def all(self, tag=None, **attrs):
        """Descendants with that tag and attribute values (class_ matches
        one of the classes)."""
        out = []
        for c in self.children:
            if isinstance(c, str):
                continue
            if (tag is None or c.tag == tag) and c.matches(attrs):
                out.append(c)
            out.extend(c.all(tag, **attrs))
        return out

    def one(self, tag=None, **attrs):
        found = self.all(tag, **attrs)
        if len(found) != 1:
            raise AssertionError(f"{len(found)} <{tag}> with {attrs}")
        return found[0]

    def matches(self, attrs):
        for k, v in attrs.items():
            if k == "class_":
                if v not in (self.attrs.get("class") or "").split():
                    return False
            elif self.attrs.get(k.replace("_", "-")) != v:
                return False
        return True

    def classes(self):
        return set((self.attrs.get("class") or "").split())

    def child_tags(self, tag):
        return [c for c in self.children
                if not isinstance(c, str) and c.tag == tag]


class TreeBuilder(HTMLParser):
    """Chromium's DOM dump has every end tag; a stack is enough."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def tree(html):
    b = TreeBuilder()
    b.feed(html)
    b.close()
    return b.root


# ---------------------------------------------------- external references

URL_ATTRS = {"src", "href", "xlink:href", "action", "formaction", "poster",
             "srcset", "data", "background", "cite", "longdesc", "ping",
             "manifest", "codebase", "archive", "usemap", "profile"}


class Refs(HTMLParser):
    """Every element, every URL-bearing attribute and all CSS of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.urls, self.css, self.events = [], [], [], []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in_style = tag == "style"
        for k, v in attrs:
            if k in URL_ATTRS:
                self.urls.append((tag, k, v))
            if k == "style":
                self.css.append(v or "")
            if k.startswith("on"):
                self.events.append((tag, k, v))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.css.append(data)


def refs(html):
    r = Refs()
    r.feed(html)
    r.close()
    return r


def make_report(paths, out, extra=()):
    """pmu-harness report -o out paths... in this process
    (support.harness): (status, stdout+stderr).
    Statuses.test_output_required runs the command itself."""
    r = harness("report", "-o", out, *paths, *extra)
    return r.returncode, r.output


class Page(unittest.TestCase):
    """The HTML file itself, read without a browser."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="pmu-report-"))
        evil = cls.tmp / "evil<i>x\".log"
        evil.write_text(EVIL)
        cls.paths = [LAB / "skylake-model.serial.log", LAB / "p54c-model.log",
                     LAB / "p5-inject-fails.log", LAB / "p54c-hw-ranges.log",
                     evil]
        cls.out = cls.tmp / "report.html"
        cls.status, cls.output = make_report(cls.paths, cls.out)
        cls.html = cls.out.read_text() if cls.out.exists() else ""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_written_exit_0(self):
        # failed tests are on the page, not an error of the report
        self.assertEqual(self.status, 0, self.output)
        self.assertEqual(self.output, "")
        self.assertTrue(self.html.startswith("<!DOCTYPE html>"))

    def test_no_external_references(self):
        r = refs(self.html)
        self.assertTrue(r.urls, "the page has no links at all")
        for tag, attr, value in r.urls:
            self.assertTrue(value and value.startswith("#"),
                            f"<{tag} {attr}={value!r}> leaves the page")
        for banned in ("script", "link", "img", "iframe", "object",
                       "embed", "base", "image", "use", "font-face"):
            self.assertNotIn(banned, r.tags)
        self.assertEqual(r.events, [])
        css = "".join(r.css).lower()
        self.assertTrue(css, "no inline CSS")
        for banned in ("url(", "@import", "@font-face", "http:", "https:"):
            self.assertNotIn(banned, css)

    def test_log_markup_is_escaped(self):
        self.assertNotIn("<script", self.html.lower())
        self.assertNotIn("<img", self.html.lower())
        self.assertIn("evil/&lt;script&gt;alert(1)&lt;/script&gt;", self.html)
        self.assertIn('evil/skip&quot; onmouseover=&quot;alert(7)', self.html)
        self.assertNotIn("\x1b", self.html)
        self.assertIn("\\x1b[2J", self.html)

    def test_size_reasonable(self):
        # 5 logs: the page stays well under a megabyte
        self.assertLess(len(self.html), 600_000)


class Statuses(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-report-"))
        self.out = self.tmp / "r.html"

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_damaged_logs_exit_3_with_lines(self):
        text, junk = garbage_log()
        bad = self.tmp / "garbage.log"
        bad.write_text(text)
        status, out = make_report([LAB / "truncated-kill.log", bad,
                                   LAB / "p54c-model.log"], self.out)
        self.assertEqual(status, 3, out)
        self.assertNotIn("Traceback", out)
        for line in junk:
            self.assertIn(f"pmu-harness report: {bad}:{line}: not a TAP line",
                          out)
        self.assertIn("truncated-kill.log: no plan '1..N'", out)
        page = tree(self.out.read_text())
        banner = page.one("section", id="damage")
        self.assertIn(f"line {junk[0]}: not a TAP line", banner.text())
        self.assertIn("\\x1b[2J<b>garbage</b> \\x00\\x01", banner.text())
        self.assertIn("no plan '1..N': the log is incomplete", banner.text())
        # the readable part is shown: the 40 results before the cut
        row = page.one("tr", id="log-2")
        self.assertIn("damaged", row.classes())
        self.assertEqual(row.all("td")[5].text(), "40")

    def test_unreadable_log_exit_2_page_written(self):
        missing = self.tmp / "missing.log"
        status, out = make_report([LAB / "p54c-model.log", missing,
                                   self.tmp], self.out)
        self.assertEqual(status, 2, out)
        self.assertNotIn("Traceback", out)
        self.assertIn(f"{missing}: cannot read {missing}: No such file", out)
        self.assertIn("Is a directory", out)
        text = tree(self.out.read_text()).one("div", id="damage-2").text()
        self.assertIn("cannot be read", text)

    def test_only_unreadable(self):
        status, out = make_report([self.tmp / "none.log"], self.out)
        self.assertEqual(status, 2, out)
        self.assertEqual(len(out.strip().splitlines()), 1, out)

    def test_output_required(self):
        # the command itself, in a process of its own
        status, out = run_tool(TOOL + [str(LAB / "p54c-model.log")])
        self.assertEqual(status, 2, out)
        self.assertIn("usage:", out)
        self.assertIn("-o", out)
        self.assertNotIn("Traceback", out)

    def test_output_unwritable(self):
        status, out = make_report([LAB / "p54c-model.log"],
                                  self.tmp / "no" / "dir" / "r.html")
        self.assertEqual(status, 2, out)
        self.assertIn("cannot write", out)
        self.assertNotIn("Traceback", out)
        self.assertEqual(list(self.tmp.iterdir()), [])


class Plot(unittest.TestCase):
    """svg.py without a browser: geometry and escaping."""

    def rows(self, **kw):
        base = dict(log=1, stem="a", key="cpl3_ctr0", value=1402,
                    raw="1402", lo=806, hi=1318, oracle_text="increment",
                    config="", model=False)
        base.update(kw)
        return [svg.PlotRow(**base)]

    def test_value_outside_band(self):
        t = tree(svg.count_plot(self.rows()))
        g = t.one("g")
        self.assertIn("off", g.classes())
        rect, dot = g.one("rect"), g.one("circle")
        right = float(rect.attrs["x"]) + float(rect.attrs["width"])
        self.assertGreater(float(dot.attrs["cx"]), right + 1)
        self.assertIn("1402 \u00b7 oracle 806..1318", g.text())

    def test_exact_mark_on_the_dot(self):
        t = tree(svg.count_plot(self.rows(value=323, raw="323", lo=323,
                                          hi=323, model=True)))
        g = t.one("g")
        self.assertEqual(g.classes(), {"r", "m", "in"})
        rect, dot = g.one("rect"), g.one("circle")
        self.assertAlmostEqual(float(rect.attrs["x"]) + 1,
                               float(dot.attrs["cx"]), delta=0.11)
        self.assertIn(MODEL, g.one("title").text())

    def test_log_scale(self):
        rows = self.rows(value=0, raw="0", lo=0, hi=0) + \
            self.rows(value=99, raw="99", lo=99, hi=99, key="k2") + \
            self.rows(value=9999, raw="9999", lo=9999, hi=9999, key="k3")
        xs = [float(c.attrs["cx"]) for c in tree(svg.count_plot(rows))
              .all("circle")]
        self.assertAlmostEqual(xs[0], svg.PLOT_X, delta=0.1)
        self.assertAlmostEqual(xs[2], svg.PLOT_X + svg.PLOT_W, delta=0.1)
        self.assertAlmostEqual(xs[1] - xs[0], xs[2] - xs[1], delta=0.1)

    def test_esc(self):
        self.assertEqual(svg.esc("<a href='x'>\"&\x00\x9b\ud800"),
                         "&lt;a href=&#x27;x&#x27;&gt;&quot;&amp;"
                         "\\x00\\x9b\\ud800")


# ------------------------------------------------------------- Chromium

class Rendered(unittest.TestCase):
    """The report of six logs as headless Chromium renders it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="pmu-report-"))
        evil = cls.tmp / "evil<i>x.log"
        evil.write_text(EVIL)
        garbage, cls.junk = garbage_log()
        (cls.tmp / "garbage.log").write_text(garbage)
        cls.paths = [LAB / "skylake-model.serial.log",       # 1
                     LAB / "p54c-model.log",                 # 2
                     LAB / "p5-inject-fails.log",            # 3
                     LAB / "p54c-hw-ranges.log",             # 4
                     LAB / "truncated-kill.log",             # 5
                     cls.tmp / "garbage.log",                # 6
                     evil]                                   # 7
        cls.out = cls.tmp / "report.html"
        cls.status, cls.output = make_report(cls.paths, cls.out)
        cls.error = None
        try:
            cls.dom = browser.dump_dom(cls.out)
            cls.page = tree(cls.dom)
        except browser.BrowserError as e:
            cls.error = f"headless Chromium is required: {e}"

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        if self.error:
            self.fail(self.error)

    def summary_row(self, n):
        return self.page.one("tr", id=f"log-{n}")

    def cell(self, test, n):
        row = self.page.one("tr", data_test=test)
        return row.child_tags("td")[n - 1]

    def test_exit_status_damaged(self):
        self.assertEqual(self.status, 3, self.output)

    def test_machine_names(self):
        labels = {1: "Core 6th gen (Skylake) 0x506e3 [skylake-model.serial]",
                  2: "Pentium (P54C) 0x525 [p54c-model]",
                  3: "Pentium with MMX technology (P55C) 0x543 "
                     "[p5-inject-fails]",
                  4: "Pentium (P54C) 0x525 [p54c-hw-ranges]"}
        for n, label in labels.items():
            self.assertEqual(self.summary_row(n).one("strong").text(), label)
            self.assertTrue(browser.text_in_dom(self.dom, label))

    def test_counts_per_machine(self):
        # passed, failed, skipped: as the fixtures' summary lines say;
        # the cut logs as far as they go
        want = {1: (119, 0, 15), 2: (136, 0, 71), 3: (0, 50, 97),
                4: (1, 1, 1), 5: (6, 0, 0), 6: (40, 0, 0), 7: (0, 1, 1)}
        for n, counts in want.items():
            tds = self.summary_row(n).child_tags("td")
            self.assertEqual(tuple(int(tds[i].text()) for i in (5, 6, 7)),
                             counts, f"log {n}")

    def test_matrix_cells(self):
        c = self.cell("p5/cc-010", 3)
        self.assertEqual((c.classes(), c.text()), ({"f"}, "\u2717"))
        self.assertIn("failed_checks: 2 of 8\n- init: RDMSR CESR (0x11) "
                      "raised vector 13", c.attrs["title"])
        c = self.cell("p5/cc-010", 2)
        self.assertEqual((c.classes(), c.text()), ({"p"}, "\u2713"))
        c = self.cell("p5/cc-010", 1)           # Skylake: not run
        self.assertEqual((c.classes(), c.text(), c.attrs), (set(), "", {}))
        c = self.cell("p5/event-0x02-ctr0", 2)
        self.assertEqual((c.classes(), c.text()), ({"s"}, "\u2013"))
        self.assertIn("DATA_TLB_MISS not modelled", c.attrs["title"])
        c = self.cell("p5/cc-011", 4)
        self.assertEqual(c.classes(), {"f"})
        self.assertIn("read 1402 (+1402 over its preset), oracle 806..1318",
                      c.attrs["title"])
        c = self.cell("arch/recover-gp", 1)
        self.assertEqual(c.classes(), {"p"})
        # groups are header rows of the matrix
        groups = [th.text().split(" (")[0] for tr in
                  self.page.all("tr", class_="grp") for th in tr.all("th")]
        self.assertIn("p5", groups)
        self.assertIn("perfmon", groups)

    def test_plot_range_and_exact(self):
        d = self.page.one("details", data_test="p5/cc-011")
        self.assertIn("off", d.classes())
        self.assertIn("open", d.attrs)
        hw = {g.attrs["data-key"]: g for g in d.all("g", data_log="4")}
        self.assertEqual(set(hw), {"cpl0_ctr0", "cpl0_ctr1", "cpl3_ctr0",
                                   "cpl3_ctr1"})
        off = hw["cpl3_ctr0"]
        self.assertEqual(off.classes(), {"r", "hw", "off"})
        self.assertIn("1402 \u00b7 oracle 806..1318", off.text())
        band, dot = off.one("rect", class_="band"), off.one("circle")
        self.assertGreater(float(dot.attrs["cx"]),
                           float(band.attrs["x"]) + float(band.attrs["width"]))
        ok = hw["cpl0_ctr0"]
        self.assertEqual(ok.classes(), {"r", "hw", "in"})
        band, dot = ok.one("rect", class_="band"), ok.one("circle")
        x0 = float(band.attrs["x"])
        self.assertTrue(x0 <= float(dot.attrs["cx"])
                        <= x0 + float(band.attrs["width"]))
        self.assertNotIn("model", ok.text())
        # the model's exact value for the same counter, marked as model
        m = d.one("g", data_log="2", data_key="cpl3_ctr0")
        self.assertEqual(m.classes(), {"r", "m", "in"})
        self.assertIn("806 \u00b7 oracle 806 model", m.text())
        self.assertIn(MODEL, m.one("title").text())
        self.assertIn(MODEL, d.one("summary").text())

    def test_plot_values_skylake(self):
        d = self.page.one("details", data_test="perfmon/event-branches")
        self.assertNotIn("off", d.classes())
        self.assertNotIn("open", d.attrs)
        g = d.one("g", data_log="1", data_key="cpl3_ctr0")
        self.assertEqual(g.classes(), {"r", "m", "in"})
        self.assertEqual(g.one("text", class_="v").text(),
                         "323 \u00b7 oracle 323 model")
        self.assertIn("Branch Instruction Retired",
                      d.all("text", class_="key")[0].text())

    def test_model_label(self):
        note = self.page.one("section", id="model-note")
        self.assertIn(MODEL, note.text())
        for n in (1, 2, 3):
            self.assertIn(MODEL, self.summary_row(n).text())
        self.assertNotIn(MODEL, self.summary_row(4).text())
        self.assertIn("hw", self.summary_row(4).text())

    def test_damage_banner(self):
        banner = self.page.one("section", id="damage")
        self.assertEqual({d.attrs["id"] for d in banner.all("div")},
                         {"damage-5", "damage-6"})
        t = banner.one("div", id="damage-6").text()
        self.assertIn(f"line {self.junk[0]}: not a TAP line", t)
        self.assertIn(f"line {self.junk[1]}: not a TAP line: "
                      "'BdsDxe: loading Boot0001'", t)
        self.assertIn("no '# summary:' line",
                      banner.one("div", id="damage-5").text())
        note = self.summary_row(6).one("a", class_="bad")
        self.assertIn(f"first at line {self.junk[0]}", note.text())

    def test_injected_markup_is_text(self):
        for tag in ("script", "img", "i", "b"):
            self.assertEqual(self.page.all(tag), [], f"<{tag}> in the DOM")
        for text in EVIL_TEXTS:
            self.assertTrue(browser.text_in_dom(self.dom, text), text)
        row = self.page.one("tr", data_test="evil/<script>alert(1)</script>")
        self.assertIn("<img src=x onerror=alert(3)>",
                      row.child_tags("td")[6].attrs["title"])
        row = self.page.one("tr", data_test='evil/skip" onmouseover="alert(7)')
        self.assertIn("<img src=x onerror=alert(2)>",
                      row.child_tags("td")[6].attrs["title"])
        for node in self.page.all():
            for k in node.attrs:
                self.assertFalse(k.startswith("on"), f"{node.tag} {k}")
        d = self.page.one("details", data_test="evil/<script>alert(1)</script>")
        self.assertIn("<script>alert(6)</script>",
                      d.all("text", class_="key")[0].text())
        self.assertIn("Evil'><script>alert(4)</script>\\x1b[2J",
                      self.summary_row(7).text())
        self.assertIn('evil<i>x', self.summary_row(7).one("strong").text())

    def test_screenshot(self):
        png = self.tmp / "page.png"
        browser.screenshot(self.out, png, width=1200, height=900)
        data = png.read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        w, h = struct.unpack(">II", data[16:24])
        self.assertEqual((w, h), (1200, 900))


class Browser(unittest.TestCase):
    """browser.py's errors: a clear reason, never a hang."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-browser-"))
        self.page = self.tmp / "p.html"
        self.page.write_text("<!DOCTYPE html><html><body>x</body></html>")
        self.old = os.environ.get("CHROMIUM")

    def tearDown(self):
        if self.old is None:
            os.environ.pop("CHROMIUM", None)
        else:
            os.environ["CHROMIUM"] = self.old
        shutil.rmtree(self.tmp, ignore_errors=True)

    def fake(self, body):
        exe = self.tmp / "fake-chromium"
        exe.write_text(f"#!/bin/sh\n{body}\n")
        exe.chmod(0o755)
        os.environ["CHROMIUM"] = str(exe)

    def test_missing(self):
        os.environ["CHROMIUM"] = str(self.tmp / "nothing")
        with self.assertRaisesRegex(browser.BrowserError, "no such executable"):
            browser.dump_dom(self.page)

    def test_fails(self):
        self.fake("echo 'GPU process exploded' >&2; exit 5")
        with self.assertRaisesRegex(browser.BrowserError,
                                    "status 5.*GPU process exploded"):
            browser.dump_dom(self.page)

    def test_no_dom(self):
        self.fake("exit 0")
        with self.assertRaisesRegex(browser.BrowserError, "no DOM"):
            browser.dump_dom(self.page)

    def test_hang_killed(self):
        self.fake("sleep 60")
        with self.assertRaisesRegex(browser.BrowserError, "within 1 s"):
            browser.dump_dom(self.page, timeout=1)

    def test_real_chromium_dom(self):
        os.environ.pop("CHROMIUM", None)
        try:
            dom = browser.dump_dom(self.page)
        except browser.BrowserError as e:
            self.fail(f"headless Chromium is required: {e}")
        self.assertIn("<body>x</body>", dom)
        self.assertTrue(browser.text_in_dom(dom, "x"))
        self.assertFalse(browser.text_in_dom(dom, "body"))


if __name__ == "__main__":
    unittest.main()
