"""Every source path README.md and the docs name exists (issue 25: the
tree is the map, so the map must not name what is gone).

A path is a backticked word that starts with a folder of the tree and
ends in a source file's extension (build outputs and test names are
not paths of the tree); <placeholders>, {a,b} and UPPERCASE words stand
for any name, * is a glob.  Relative links between the documents must
lead to files too."""

import glob
import re
import unittest

from tools.testing.support import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted(ROOT.glob("tools/**/*.md")),
        *sorted(ROOT.glob("tests/**/*.md"))]
SOURCE_DIRS = ("arch", "bench", "boot", "docs", "harness", "lib", "pmu",
               "tests", "tools")
EXTENSIONS = (".c", ".h", ".S", ".py", ".sh", ".md", ".yaml", ".ld",
              ".mk", ".jinja2", ".xsd", ".cfg")
TICK = re.compile(r"`([^`\s]+)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PLACEHOLDER = re.compile(r"<[^>]+>|\{[^}]+\}|\b[A-Z][A-Z_]+\b")


def named_paths(text):
    for m in TICK.finditer(text):
        word = m.group(1).rstrip(".,;:")
        if word.split("/")[0] in SOURCE_DIRS and "/" in word and \
                word.endswith(EXTENSIONS + ("*",)):
            yield word


def exists(word):
    pattern = PLACEHOLDER.sub("*", word)
    if pattern != word or "*" in pattern:
        return bool(glob.glob(str(ROOT / pattern)))
    return (ROOT / word).exists()


class DocPaths(unittest.TestCase):
    def test_named_paths_exist(self):
        missing = [f"{d.relative_to(ROOT)}: {w}" for d in DOCS
                   for w in named_paths(d.read_text())
                   if not exists(w)]
        self.assertEqual(missing, [])

    def test_links_lead_to_files(self):
        broken = [f"{d.relative_to(ROOT)}: {m.group(1)}" for d in DOCS
                  for m in LINK.finditer(d.read_text())
                  if not m.group(1).startswith(("http:", "https:",
                                                "mailto:"))
                  and not (d.parent / m.group(1)).exists()]
        self.assertEqual(broken, [])

    def test_the_check_sees_a_missing_path(self):
        self.assertEqual(list(named_paths("see `pmu/p5/p5.h` and "
                                          "`build/x.img`")),
                         ["pmu/p5/p5.h"])
        self.assertFalse(exists("pmu/p5/p5.h"))
        self.assertTrue(exists("pmu/<gen>/generation.c"))
        self.assertTrue(exists("tests/host/pmu/pt/test_*.c"))


if __name__ == "__main__":
    unittest.main()
