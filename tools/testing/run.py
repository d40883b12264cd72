"""Runs the Python tests of the host tools (tools/*/tests/test_*.py,
unittest) and prints one "ok - py: TEST" / "not ok - py: TEST" line per
test case, the failure's traceback as "# " lines under it.  Exits 0 only
when every test passed and at least one ran; a skipped test counts as a
failure (none may be skipped under make check).

    python3 -m tools.testing.run [PATTERN]    (default test_*.py; from the
                                               repository's root)
"""

import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class LineResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.passed = self.bad = 0

    def _line(self, ok, test, detail=""):
        print(f"{'ok' if ok else 'not ok'} - py: {test.id()}", flush=True)
        for l in detail.rstrip().splitlines():
            print(f"#   {l}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.bad += 1

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test, self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test, self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(False, test, f"skipped: {reason}")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line(False, test, "expected failure: not allowed here")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line(False, test, "unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._line(False, subtest, self._exc_info_to_string(err, test))


def main(argv):
    pattern = argv[1] if len(argv) > 1 else "test_*.py"
    suite = unittest.defaultTestLoader.discover(str(ROOT / "tools"),
                                                pattern=pattern,
                                                top_level_dir=str(ROOT))
    result = LineResult()
    suite.run(result)
    print(f"# py: passed={result.passed} failed={result.bad}")
    return 0 if result.bad == 0 and result.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
