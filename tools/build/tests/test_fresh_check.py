"""tools/build/fresh-check.sh --sources: the host's apt sources it reads
the mirror from (issue 46: read at run time, never written into the
repository).  Fake apt configurations in both formats apt reads
(sources.list(5): one-line entries and deb822 .sources paragraphs)."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tools" / "build" / "fresh-check.sh"

ONE_LINE = """\
# a comment
deb http://mirror.example/debian bookworm main contrib
deb-src http://mirror.example/debian bookworm main
deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm-updates main
deb http://mirror.example/debian trixie main
deb http://security.example/debian-security bookworm-security main # trailing
"""

DEB822 = """\
Types: deb deb-src
URIs: http://a.example/debian http://b.example/debian
Suites: bookworm bookworm-backports
Components: main

# disabled
Enabled: no
Types: deb
URIs: http://off.example/debian
Suites: bookworm
Components: main

Types: deb-src
URIs: http://src.example/debian
Suites: bookworm
Components: main
"""


class Sources(unittest.TestCase):
    def run_sources(self, files):
        etc = Path(tempfile.mkdtemp(prefix="pmu-apt-"))
        self.addCleanup(shutil.rmtree, etc, True)
        (etc / "sources.list.d").mkdir()
        for name, text in files.items():
            (etc / name).write_text(text)
        env = dict(os.environ, FRESH_APT_ETC=str(etc))
        p = subprocess.run([str(SCRIPT), "--sources"], env=env,
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.splitlines()

    def test_one_line_entries(self):
        self.assertEqual(self.run_sources({"sources.list": ONE_LINE}), [
            "http://mirror.example/debian bookworm main contrib",
            "http://mirror.example/debian bookworm-updates main",
            "http://security.example/debian-security bookworm-security "
            "main"])

    def test_deb822_paragraphs(self):
        # every URI with every bookworm suite of an enabled deb paragraph
        self.assertEqual(
            self.run_sources({"sources.list.d/debian.sources": DEB822}),
            ["http://a.example/debian bookworm main",
             "http://b.example/debian bookworm main"])

    def test_both_in_apt_order(self):
        lines = self.run_sources({
            "sources.list": "deb http://one.example/d bookworm main\n",
            "sources.list.d/x.sources": DEB822})
        self.assertEqual(lines[0], "http://one.example/d bookworm main")
        self.assertEqual(len(lines), 3)

    def test_none(self):
        self.assertEqual(self.run_sources({}), [])


if __name__ == "__main__":
    unittest.main()
