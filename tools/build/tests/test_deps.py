"""tools/build/deps.sh: which of the packages it is given count as
installed.  A fake dpkg-query answers from a list (one line per installed
package, as `dpkg-query -W -f='${Package}:${Architecture}
${db:Status-Abbrev}\\n'` prints), a fake dpkg names the native
architecture, and a fake id makes the caller not root, so deps.sh only
says what is missing (status 1) and never installs."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEPS = ROOT / "tools" / "build" / "deps.sh"

FAKES = {
    "dpkg-query": "#!/bin/sh\ncat \"$FAKE_DPKG_STATUS\"\n",
    "dpkg": "#!/bin/sh\n[ \"$1\" = --print-architecture ] && echo amd64\n"
            "[ \"$1\" = --print-foreign-architectures ] && echo i386\n"
            "exit 0\n",
    "id": "#!/bin/sh\necho 1000\n",
}

STATUS = ("gcc:amd64 ii \n"
          "ovmf:all ii \n"
          "libpfm4:i386 ii \n"
          "libpfm4:amd64 rc \n"
          "mtools:i386 ii \n")


class Deps(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-deps-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        for name, text in FAKES.items():
            f = self.tmp / name
            f.write_text(text)
            f.chmod(0o755)
        (self.tmp / "status").write_text(STATUS)

    def deps(self, *pkgs):
        env = dict(os.environ, PATH=f"{self.tmp}:{os.environ['PATH']}",
                   FAKE_DPKG_STATUS=str(self.tmp / "status"))
        p = subprocess.run([str(DEPS), *pkgs], capture_output=True,
                           text=True, env=env, timeout=30)
        return p.returncode, p.stderr

    def test_all_installed(self):
        self.assertEqual(self.deps("gcc", "ovmf", "libpfm4:i386"), (0, ""))

    def test_missing_ones_are_named(self):
        rc, err = self.deps("gcc", "libpfm4", "mtools", "chromium",
                            "ovmf")
        self.assertEqual(rc, 1)
        # libpfm4: only removed (rc) natively; mtools: only the i386 one
        self.assertIn("needs these Debian packages: libpfm4 mtools "
                      "chromium\n", err)

    def test_a_name_is_not_a_pattern(self):
        # "gc" is not gcc, "g.c" matches nothing
        rc, err = self.deps("gc", "g.c")
        self.assertEqual(rc, 1)
        self.assertIn("packages: gc g.c\n", err)


if __name__ == "__main__":
    unittest.main()
