"""Headless Chromium for checking an HTML page as a browser renders it.

    find_chromium() -> path              or BrowserError
    dump_dom(html_path[, window]) -> str the DOM after loading, serialized
    screenshot(html_path, png_path)      a PNG of the page's first screen(s)
    text_in_dom(dom, text) -> bool       text is shown as text in the dump
    dom_text(dom) -> str                 all text of the dump, unescaped

Chromium is Debian's /usr/bin/chromium (`make check` installs it); the
environment variable CHROMIUM names another binary.  Each run gets a new
temporary profile, no network features, and a time limit; when it runs
past the limit its whole process group is killed.  Any failure (missing
binary, exit status, time limit, empty output) raises BrowserError with a
one-line reason.

CLI: python3 -m tools.lab.browser [--screenshot PNG] PAGE.html
     prints the DOM dump (exit 0), or the reason on stderr (exit 2).
"""

import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

NAMES = ("chromium", "chromium-browser")
# Flags that work as root in a container with no GPU and no network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio",
         "--disable-crash-reporter", "--disable-breakpad")
TIMEOUT = 120


class BrowserError(Exception):
    """Chromium is missing or did not render the page."""


def find_chromium() -> str:
    """The Chromium binary: $CHROMIUM, else chromium on PATH."""
    env = os.environ.get("CHROMIUM")
    if env:
        if shutil.which(env):
            return shutil.which(env)
        raise BrowserError(f"CHROMIUM={env}: no such executable")
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserError("headless Chromium is needed and not installed: no "
                       "'chromium' on PATH (Debian: apt-get install "
                       "chromium; make check installs it)")


def _run(extra, page, timeout):
    """Runs Chromium on page with extra flags; returns its stdout (bytes)."""
    page = Path(page).resolve()
    if not page.is_file():
        raise BrowserError(f"{page}: no such file")
    exe = find_chromium()
    profile = tempfile.mkdtemp(prefix="pmu-chromium-")
    argv = [exe, *FLAGS, f"--user-data-dir={profile}", *extra,
            page.as_uri()]
    try:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, cwd=profile)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(p)
            raise BrowserError(f"{exe} did not finish {page.name} within "
                               f"{timeout} s (killed)") from None
        finally:
            _kill_group(p)      # helpers it may have left behind
    except OSError as e:
        raise BrowserError(f"cannot run {exe}: {e.strerror or e}") from None
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if p.returncode != 0:
        raise BrowserError(f"{exe} exited with status {p.returncode} on "
                           f"{page.name}: {_last_lines(err)}")
    return out, err


def _kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if p.returncode is None:
        try:
            p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def _last_lines(err, n=3):
    lines = [l for l in err.decode("utf-8", "replace").splitlines()
             if l.strip()]
    return " | ".join(lines[-n:]) or "(no message)"


def dump_dom(page, timeout=TIMEOUT, window=None) -> str:
    """The page's DOM as Chromium serializes it after loading (--dump-dom),
    its scripts run; window: (width, height) of the viewport laid out."""
    extra = ["--dump-dom"]
    if window:
        extra.append(f"--window-size={window[0]},{window[1]}")
    out, err = _run(extra, page, timeout)
    dom = out.decode("utf-8", "replace")
    if "<html" not in dom:
        raise BrowserError(f"Chromium wrote no DOM for {Path(page).name}: "
                           f"{_last_lines(err)}")
    return dom


def screenshot(page, png, width=1400, height=2400, timeout=TIMEOUT) -> None:
    """Writes a PNG of the page's top width x height pixels to png."""
    png = Path(png).resolve()
    _run([f"--screenshot={png}", f"--window-size={width},{height}",
          "--hide-scrollbars"], page, timeout)
    if not png.is_file() or png.stat().st_size == 0:
        raise BrowserError(f"Chromium wrote no screenshot to {png}")


class _Text(HTMLParser):
    """Collects the text of a document (no <style>/<script> content)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


@functools.lru_cache(maxsize=2)
def dom_text(dom) -> str:
    """All text of a DOM dump, character references resolved (the last
    two are remembered: callers ask text_in_dom many times of one dump)."""
    p = _Text()
    p.feed(dom)
    p.close()
    return "".join(p.parts)


def text_in_dom(dom, text) -> bool:
    """text appears as text (not markup) in the DOM dump."""
    return text in dom_text(dom)


def main(argv):
    args = list(argv)
    png = None
    if len(args) == 3 and args[0] == "--screenshot":
        png = args[1]
        args = args[2:]
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: browser.py [--screenshot PNG] PAGE.html",
              file=sys.stderr)
        return 2
    try:
        if png:
            screenshot(args[0], png)
        else:
            sys.stdout.write(dump_dom(args[0]))
    except BrowserError as e:
        print(f"browser.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
