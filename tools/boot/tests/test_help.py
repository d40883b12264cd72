"""Every script of tools/boot/ answers -h and --help with its own usage
text (the comment block at its top), exit status 0, and runs nothing
else (issue 43: `--help` on every script under tools/boot/)."""

import subprocess
import unittest

from tools.testing.support import BOOT


class Help(unittest.TestCase):
    def test_every_script(self):
        scripts = sorted(BOOT.glob("*.sh"))
        self.assertGreaterEqual(len(scripts), 7)
        for script in scripts:
            for flag in ("--help", "-h"):
                with self.subTest(script=script.name, flag=flag):
                    r = subprocess.run([str(script), flag],
                                       capture_output=True, text=True,
                                       stdin=subprocess.DEVNULL, timeout=30)
                    self.assertEqual((r.returncode, r.stderr), (0, ""))
                    lines = r.stdout.splitlines()
                    self.assertTrue(lines[0].startswith(script.name),
                                    lines[:1])
                    self.assertGreaterEqual(len(lines), 5)
                    # The text, not the code after it.
                    self.assertNotIn("set -e", r.stdout)
                    self.assertNotIn("#!/bin", r.stdout)


if __name__ == "__main__":
    unittest.main()
