"""pmu-harness report (tools/lab/report.py, svg.py) and the headless
Chromium runner (tools/lab/browser.py): the page as Chromium renders it
(DOM dump), its exit statuses, and that nothing in it reaches outside.

Chromium is required: make check installs it; without it the rendering
tests fail with the reason (they never skip).
"""

import os
import re
import shutil
import struct
import tempfile
import unittest
from html.parser import HTMLParser
from pathlib import Path

from tools.testing.support import (FIXTURES, PY, PMU_HARNESS, harness,
                                   run_tool)

from tools.lab import browser, report, svg

LAB = FIXTURES / "lab"
TEMPLATES = Path(report.__file__).parent / "templates"
# The command line (tools/lab/cli.py) in a Python where jinja2 cannot be
# imported, as on a machine without python3-jinja2.
NO_JINJA = ("import sys; sys.modules['jinja2'] = None; "
            "from tools.lab import cli; sys.exit(cli.main(sys.argv[1:]))")
TOOL = [PY, str(PMU_HARNESS), "report"]
MODEL = "model counts, not hardware counts"
# The summary table's columns: #, verdict, log, CPU, PMU, backend, then
# passed, failed, skipped.
PASSED_COL = 6

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


# HTML's optional end tags that the report leaves out: a <td>/<th> ends
# at the next cell or row, a <tr> at the next row, an <li> at the next
# item of its list (HTML, "Optional tags").
IMPLIED = {"td": {"td", "th"}, "th": {"td", "th"},
           "tr": {"tr", "td", "th"}, "li": {"li"}}
BOUNDARY = {"table", "thead", "tbody", "ul", "ol"}


class TreeBuilder(HTMLParser):
    """Chromium's DOM dump has every end tag; the page as written leaves
    out the optional ones (IMPLIED)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        closes = IMPLIED.get(tag, ())
        n = self.cur
        while closes and n is not self.root and n.tag not in BOUNDARY:
            if n.tag in closes:
                self.cur = n.parent
            n = n.parent
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

    def test_written_exit_status_of_the_worst_verdict(self):
        # the page is written whatever the logs' verdicts; the status is
        # the worst one's: the evil log's ESC inside a line is damage (3)
        self.assertEqual(self.status, 3, self.output)
        self.assertEqual([l for l in self.output.splitlines()
                          if "evil" not in l], [])
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
        # jinja2's autoescape (markupsafe) writes a quote as &#34;
        self.assertIn('evil/skip&#34; onmouseover=&#34;alert(7)', self.html)
        self.assertNotIn('skip" onmouseover', self.html)
        self.assertNotIn("\x1b", self.html)
        self.assertIn("\\x1b[2J", self.html)

    def test_size_reasonable(self):
        # 5 logs: the page stays well under a megabyte
        self.assertLess(len(self.html), 600_000)

    def test_style_is_the_css_file(self):
        # templates/report.css inlined whole, as written (the template
        # includes it: jinja2 syntax in it would make the two differ)
        self.assertEqual("".join(refs(self.html).css).strip(),
                         (TEMPLATES / "report.css").read_text().strip())


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
        self.assertRegex(out, r"truncated-kill\.log:\d+: no plan '1\.\.N'")
        page = tree(self.out.read_text())
        banner = page.one("section", id="damage")
        self.assertIn(f"line {junk[0]}: not a TAP line", banner.text())
        self.assertIn("\\x1b[2J<b>garbage</b> \\x00\\x01", banner.text())
        self.assertIn("no plan '1..N': the log is incomplete", banner.text())
        # the readable part is shown: the 40 results before the cut
        row = page.one("tr", id="log-2")
        self.assertIn("damaged", row.classes())
        self.assertEqual(row.all("td")[PASSED_COL].text(), "40")

    def test_unreadable_log_exit_2_page_written(self):
        missing = self.tmp / "missing.log"
        status, out = make_report([LAB / "p54c-model.log", missing,
                                   self.tmp], self.out)
        self.assertEqual(status, 2, out)
        self.assertNotIn("Traceback", out)
        self.assertIn(f"{missing}: cannot read {missing}: No such file", out)
        self.assertIn("Is a directory", out)
        page = tree(self.out.read_text())
        text = page.one("div", id="damage-2").text()
        self.assertIn("cannot be read", text)
        # its verdict, first; its matrix cells blank, not "lost"
        v = page.one("section", id="verdicts").all("li", class_="v")
        self.assertEqual([li.attrs["data-verdict"] for li in v],
                         ["UNREADABLE", "UNREADABLE", "PASSED"])
        self.assertEqual(page.all("td", class_="l"), [])

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

    def test_without_jinja2(self):
        # a process of its own in which jinja2 cannot be imported: one
        # line that says what is missing, exit 2, no page
        status, out = run_tool([PY, "-c", NO_JINJA, "report", "-o",
                                str(self.out), str(LAB / "p54c-model.log")])
        self.assertEqual(status, 2, out)
        self.assertEqual(out, "pmu-harness report: no page: python3-jinja2 "
                         "is not installed (make deps-check, or apt-get "
                         "install python3-jinja2)\n")
        self.assertFalse(self.out.exists())

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
        """The matrix cell of test and log n (the n-th LOG argument): the
        columns are in the verdicts' order, each headed by a link to
        #log-n."""
        heads = [a.attrs["href"] for th in self.page.all("th", class_="lh")
                 for a in th.all("a")]
        row = self.page.one("tr", data_test=test)
        return row.child_tags("td")[heads.index(f"#log-{n}")]

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
            self.assertEqual(tuple(int(tds[i].text()) for i in
                                   (PASSED_COL, PASSED_COL + 1,
                                    PASSED_COL + 2)),
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
        # 7: the evil log's ESC inside its "# cpu:" line (control bytes
        # in a line are damage: docs/lab.md, parse, "garbage")
        self.assertEqual({d.attrs["id"] for d in banner.all("div")},
                         {"damage-5", "damage-6", "damage-7"})
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
        self.assertIn("<img src=x onerror=alert(3)>",
                      self.cell("evil/<script>alert(1)</script>", 7)
                      .attrs["title"])
        self.assertIn("<img src=x onerror=alert(2)>",
                      self.cell('evil/skip" onmouseover="alert(7)', 7)
                      .attrs["title"])
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


# A run with the runner's two limits (docs/log-format.md, "Results"): a
# test stopped at its time limit ("timed_out: true") and one the whole-run
# limit left no time for ("not_run: ...").
LIMITS = """TAP version 13
# cpu: vendor=GenuineIntel family=6 model=94 stepping=3 signature=0x506e3 name="Core 6th gen (Skylake)"
# pmu: kind=arch-perfmon version=4 counters=4 width=48
# backend: model reason="no counters"
not ok 1 - selftest-hang/cpl3
  ---
  timed_out: true
  limit_s: 3.000
  elapsed_s: 2.990
  ...
not ok 2 - selftest-hang/traced-benchmark
  ---
  not_run: the whole-run limit of 5 s (run_timeout=) was reached
  ...
ok 3 - arch/recover-gp
1..3
# summary: passed=1 failed=2 skipped=0
"""


def big_log(n, every):
    """A generated run of n results (the p54c-model header): every
    `every`-th has a counter (806 expected, read 800 + i % 9: off the
    oracle but when i % 9 == 6), every 1000th from 1 fails."""
    head = (LAB / "p54c-model.log").read_text().split("ok 1 - ")[0]
    out = [head]
    for i in range(1, n + 1):
        name = f"big{i % 7}/t{i}"
        if i % 1000 == 1:
            out.append(f"not ok {i} - {name}\n  ---\n  failures:\n"
                       '    - "x"\n  ...\n')
        elif i % every == 0:
            out.append(f"ok {i} - {name}\n  ---\n"
                       "  cpl0_ctr0_config: ES=0x16 CC=001 PC=0\n"
                       f"  cpl0_ctr0: {800 + i % 9}\n"
                       "  cpl0_ctr0_oracle: 806\n  ...\n")
        else:
            out.append(f"ok {i} - {name}\n")
    out.append(f"1..{n}\n# summary: passed={n - (n + 999) // 1000} "
               f"failed={(n + 999) // 1000} skipped=0\n")
    return "".join(out)


class Verdicts(unittest.TestCase):
    """What a lab lead sees first (docs/lab.md, "report"): a verdict per
    log, worst first, why, the test a hung run stopped in, the "# error:"
    lines, timeouts and tests not run; lost results apart from tests not
    chosen; the regressions against a baseline on top."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-report-"))
        self.out = self.tmp / "r.html"
        (self.tmp / "limits.log").write_text(LIMITS)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def page(self, paths, extra=(), want=None):
        status, out = make_report(paths, self.out, extra)
        self.assertNotIn("Traceback", out)
        if want is not None:
            self.assertEqual(status, want, out)
        self.html = self.out.read_text()
        return tree(self.html)

    def test_verdict_per_log_worst_first(self):
        paths = [LAB / "p54c-model.log",            # 1 PASSED
                 LAB / "refused-hw.log",            # 2 "# error:" line 7
                 self.tmp / "limits.log",           # 3 FAILED
                 LAB / "truncated-kill.log",        # 4 HUNG at line 98
                 FIXTURES / "truncated.log",        # 5 no plan, no summary
                 FIXTURES / "no-summary.log",       # 6 a plan, no summary
                 LAB / "bail-out.log"]              # 7 Bail out! line 14
        page = self.page(paths, want=3)
        items = page.one("section", id="verdicts").all("li", class_="v")
        self.assertEqual([(li.attrs["data-log"], li.attrs["data-verdict"])
                          for li in items],
                         [("4", "HUNG"), ("5", "CUT"), ("6", "DAMAGED"),
                          ("7", "BAIL OUT"), ("3", "FAILED"),
                          ("2", "ERRORS"), ("1", "PASSED")])
        # only the passing run is green
        badges = {li.attrs["data-log"]: li.one("span").classes()
                  for li in items}
        self.assertEqual(badges["1"], {"vd", "good"})
        self.assertEqual(badges["4"], {"vd", "bad"})
        hung = items[0]
        self.assertEqual(hung.one("strong", class_="hung").text(),
                         "apic/pmi-during-trace-cpl0")
        self.assertIn("line 98 has no result after it", hung.text())
        self.assertIn("the log stops at line 150 after 12 results",
                      items[1].text())
        self.assertIn("line 14: Bail out! unexpected #UD", items[3].text())
        # timeouts and tests not run are called out by name
        self.assertIn("of 3 tests: 1 timed out (selftest-hang/cpl3); 1 not "
                      "run: the whole-run limit was reached "
                      "(selftest-hang/traced-benchmark)", items[4].text())
        # the # error: lines, with their line numbers
        self.assertEqual([li.text() for li in
                          items[5].one("ul", class_="err").all("li")],
                         ["line 7: # error: option inject=: refused: the "
                          "backend is hw, and faults are injected into the "
                          "reference model only, never on real hardware"])
        # the machines table is in the same order, with the verdict
        rows = page.one("table", class_="sum").all("tr", class_="log")
        self.assertEqual([r.attrs["id"] for r in rows],
                         [f"log-{li.attrs['data-log']}" for li in items])
        self.assertEqual(rows[0].child_tags("td")[1].text(), "HUNG")

    def test_lost_in_flight_and_not_chosen_cells(self):
        page = self.page([LAB / "skylake-model.serial.log",
                          LAB / "truncated-kill.log",
                          self.tmp / "limits.log"])
        heads = [a.attrs["href"] for th in page.all("th", class_="lh")
                 for a in th.all("a")]

        def cell(test, n):
            row = page.one("tr", data_test=test)
            return row.child_tags("td")[heads.index(f"#log-{n}")]
        # the cut run stopped in this test (its line 98)
        c = cell("apic/pmi-during-trace-cpl0", 2)
        self.assertEqual((c.classes(), c.text()), ({"h"}, "!"))
        self.assertIn("line 98", c.attrs["title"])
        # a test after the cut: lost, not "not applicable"
        c = cell("arch/recover-gp", 2)
        self.assertEqual((c.classes(), c.text()), ({"l"}, "?"))
        # a finished run that did not choose it: blank
        c = cell("apic/pmi-during-trace-cpl0", 3)
        self.assertEqual((c.classes(), c.text(), c.attrs), (set(), "", {}))
        # timed out, not run for the whole-run limit, skipped
        c = cell("selftest-hang/cpl3", 3)
        self.assertEqual((c.classes(), c.text()), ({"t"}, "\u25f4"))
        c = cell("selftest-hang/traced-benchmark", 3)
        self.assertEqual((c.classes(), c.text()), ({"n"}, "\u2205"))

    def test_verdicts_on_the_first_screen(self):
        """Issue 43 item 4: with 60 regressions against the baseline the
        verdicts still show without scrolling in a 1400 x 900 window, as
        Chromium lays the page out (a copy of the page with a script
        that writes where #verdicts ends)."""
        base = self.tmp / "base"
        base.mkdir()
        shutil.copyfile(LAB / "p54c-model.log", base / "p54c-model.log")
        now, n = (LAB / "p54c-model.log").read_text(), 0
        lines = now.split("\n")
        for i, line in enumerate(lines):
            if n < 60 and re.match(r"ok \d+ - p5/", line) and \
                    "# SKIP" not in line:
                lines[i], n = "not " + line, n + 1
        now = "\n".join(lines).replace("passed=136 failed=0",
                                       "passed=%d failed=%d" % (136 - n, n))
        cur = self.tmp / "p54c-model.log"
        cur.write_text(now)
        page = self.page([LAB / "skylake-model.serial.log", cur],
                         ["--baseline", base], want=1)
        self.assertIn(f"{n} regressions against",
                      page.one("section", id="regressions").text())
        probe = self.tmp / "probe.html"
        probe.write_text(self.html.replace(
            "</body>", "<script>document.documentElement.setAttribute("
            "'data-verdicts-bottom', Math.ceil(document.getElementById("
            "'verdicts').getBoundingClientRect().bottom));</script>"
            "</body>"))
        try:
            dom = browser.dump_dom(probe, window=(1400, 900))
        except browser.BrowserError as e:
            self.fail(f"Chromium: {e}")
        m = re.search(r'data-verdicts-bottom="(\d+)"', dom)
        self.assertIsNotNone(m, dom[:300])
        self.assertLessEqual(int(m.group(1)), 900)

    def test_baseline_regressions_on_top(self):
        base = self.tmp / "base"
        base.mkdir()
        shutil.copyfile(LAB / "p54c-model.log", base / "p54c-model.log")
        (base / "notes.txt").write_text("not a log")
        now = (LAB / "p54c-model.log").read_text().replace(
            "ok 51 - p5/cc-001\n", "not ok 51 - p5/cc-001\n")
        self.assertIn("not ok 51 - p5/cc-001\n", now)
        cur = self.tmp / "p54c-model.log"
        cur.write_text(now.replace("passed=136 failed=0",
                                   "passed=135 failed=1"))
        page = self.page([LAB / "skylake-model.serial.log", cur],
                         ["--baseline", base], want=1)     # cur failed
        sec = page.one("section", id="regressions")
        # the verdicts first, on the first screen (issue 43 item 4), the
        # regressions next
        self.assertEqual(self.html.index('<section'),
                         self.html.index('<section id="verdicts"'))
        self.assertLess(self.html.index('<section id="verdicts"'),
                        self.html.index('<section class="banner" '
                                        'id="regressions"'))
        self.assertIn("1 regression against the baseline", sec.text())
        lis = sec.child_tags("ul")[0].child_tags("li")
        self.assertEqual([li.attrs["data-log"] for li in lis], ["2", "1"])
        self.assertIn(f"1 regression against {base / 'p54c-model.log'}",
                      lis[0].text())
        self.assertEqual([x.text() for x in lis[0].all("li")],
                         ["p5/cc-001: ok -> not ok REGRESSION"])
        self.assertIn("no baseline log of this machine", lis[1].text())
        # a baseline that is not a directory: exit 2, said why
        status, out = make_report([cur], self.out,
                                  ["--baseline", self.tmp / "none"])
        self.assertEqual(status, 2)
        self.assertIn("--baseline", out)

    def test_regressed_without_a_failure(self):
        base = self.tmp / "base"
        base.mkdir()
        shutil.copyfile(LAB / "p54c-model.log", base / "run.log")
        cur = self.tmp / "run.log"
        text = (LAB / "p54c-model.log").read_text()
        self.assertIn("  cpl0_ctr0: 806\n  cpl0_ctr0_oracle: 806\n", text)
        cur.write_text(text.replace("  cpl0_ctr0: 806\n  cpl0_ctr0_oracle: "
                                    "806\n", "  cpl0_ctr0: 807\n  "
                                    "cpl0_ctr0_oracle: 806\n", 1))
        page = self.page([cur], ["--baseline", base], want=1)
        li = page.one("section", id="verdicts").one("li", class_="v")
        self.assertEqual(li.attrs["data-verdict"], "REGRESSED")

    def test_large_input_folds(self):
        """100k results: the page lists the failures and folds the rest
        (before: 8.9 MB for this log, 136 MB when every result has a
        counter; now under 1 MB)."""
        n = 100_000
        p = self.tmp / "big.log"
        p.write_text(big_log(n, 100))
        page = self.page([p], want=1)             # 100 tests failed
        rows = page.one("table", class_="mx").all("tr")
        listed = [r for r in rows if "data-test" in r.attrs]
        # the 100 failing tests are listed, the others fold
        self.assertEqual(sorted(r.attrs["data-test"] for r in listed),
                         sorted(f"big{i % 7}/t{i}" for i in
                                range(1, n + 1, 1000)))
        folds = [r for r in rows if "fold" in r.classes()]
        self.assertEqual(sum(int(r.text().split()[0]) for r in folds),
                         n - len(listed))
        # plots: 1000 tests with a counter, off the oracle where
        # i % 9 != 6; only MAX_PLOTS of the off ones are drawn
        details = page.all("details")
        self.assertEqual(len(details), 300)
        self.assertTrue(all("off" in d.classes() for d in details))
        self.assertIn("700 of 1000 tests with counts are not drawn",
                      page.one("p", id="plots-folded").text())
        self.assertLess(len(self.html), 1_000_000)


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



class Glyphs(unittest.TestCase):
    """Every character the page draws a cell or its legend with is in a
    font this machine's Chromium has (fontconfig's fonts, DejaVu among
    them: make check's packages): issue 43 found the timed-out mark,
    U+23F1 STOPWATCH, drawn as an empty box."""

    def test_marks_have_a_font(self):
        import re
        import subprocess
        legend = (Path(report.__file__).parent / "templates" /
                  "report.html.j2").read_text()
        legend = re.search(r'<p class="legend">(.*?)</p>', legend).group(1)
        chars = set("".join(report._MARKS.values())) | \
            {c for c in re.sub(r"<[^>]*>", "", legend) if ord(c) > 0x7e}
        self.assertIn("\u2713", chars)
        for c in sorted(chars):
            with self.subTest(char=f"U+{ord(c):04X}"):
                r = subprocess.run(["fc-list", f":charset={ord(c):x}",
                                    "file"], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertTrue(r.stdout.strip(),
                                f"no installed font has U+{ord(c):04X}")


if __name__ == "__main__":
    unittest.main()
