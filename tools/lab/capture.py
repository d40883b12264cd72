"""pmu-harness capture: the serial logs of a row of machines.

    pmu-harness capture --port /dev/ttyUSB0 --port /dev/ttyUSB1 \\
        [--baud 115200] [--timeout S] [--idle S] [--out DIR]
        [--progress auto|always|never]

Each --port is read in its own thread until the harness's "# summary:"
line, the end of a file, --timeout (seconds, for the whole capture), or
--idle seconds without a byte from the port (a hung machine; default
IDLE_DEFAULT_S, 0 = no limit).
A port is a serial device or pty (read with pyserial, Debian's
python3-serial), a pyserial URL ("socket://host:port", "rfc2217://..."),
or a regular file or FIFO (read as a file).

Per port, in --out: NAME.raw, every byte as received (written and flushed
as it arrives), and NAME.log, the harness's log (lab.serialclean: the
firmware's output before "TAP version 13", CRs and escape sequences
removed; what the boot volume's log file holds).  NAME is
"<machine>-<YYYYMMDD-HHMMSS>" once the "# cpu:" line names the machine
(lab.common.machine_name, made filename-safe), "port-<port>-<time>"
until then and when it never comes; "-2", "-3"... when the name is taken
(nothing is overwritten).

Progress: on a terminal (or --progress always) one status line per port,
redrawn in place; otherwise one line per port at the start.  At the end,
one line per port: the log and its counts (stdout), or why the capture is
incomplete or the port could not be opened (stderr).

Each complete log is judged as every lab tool judges it
(tools/lab/verdict.py); its line ends with the verdict.  Exit status,
the worst over the ports: the run's status of each log's verdict (0
PASSED, 1 FAILED, BAIL OUT or NO TESTS, 4 ERRORS, 77 UNTESTED, 3 HUNG, CUT
or DAMAGED); 3 also for a capture incomplete (timeout, end of file or
port closed before the summary; the partial log is kept); 2 bad
arguments or a port that could not be opened (the other ports are still
captured); 130 ^C (docs/lab.md, "Verdicts and exit statuses").
"""

import errno
import os
import re
import select
import stat
import sys
import threading
import time
from pathlib import Path

from . import common, pmulog, verdict as lverdict
from . import parse as lparse
from .serialclean import Cleaner

PROG = "capture"
POLL_S = 0.2                # longest wait in one read: how soon a timeout
                            # or ^C is noticed
READ_MAX = 65536
EXIT_INTERRUPTED = 130      # as lab.cli on ^C
IDLE_DEFAULT_S = 300        # --idle: five times the harness's default
                            # per-test limit (timeout=60), so a slow test
                            # without verbose=1 is not taken for a hang


# ---------------------------------------------------------------- ports

class PortError(Exception):
    """A port that cannot be opened or read (the message says why)."""


class PortDisconnected(PortError):
    """The device went away: an unplugged USB adapter, a closed pty."""


def _reason(e) -> str:
    """The OS's words for an error: "No such file or directory"."""
    if isinstance(e, OSError) and e.errno and not _is_serial_exc(e):
        return e.strerror or os.strerror(e.errno)
    if _is_serial_exc(e) and e.errno:
        if "exclusively lock" in str(e):
            return "in use by another program (its lock is held)"
        return os.strerror(e.errno)
    m = re.match(r"Could not configure port: \((\d+), '(.*)'\)$", str(e))
    if m:       # termios refused: not a tty
        return f"cannot configure it as a serial port: {m.group(2)}"
    return str(e)


def _is_serial_exc(e) -> bool:
    serial = sys.modules.get("serial")
    return bool(serial) and isinstance(e, serial.SerialException)


class SerialInput:
    """A serial device, pty or pyserial URL, through pyserial."""

    def __init__(self, port, baud):
        try:
            import serial
        except ImportError as e:
            raise PortError(f"cannot open {port}: pyserial is missing "
                            f"(apt install python3-serial): {e}")
        self._serial = serial
        kw = dict(baudrate=baud, timeout=POLL_S)
        try:
            if "://" in port:
                self._port = serial.serial_for_url(port, **kw)
            else:       # exclusive: a second capture of it is refused
                self._port = serial.Serial(port, exclusive=True, **kw)
        except (serial.SerialException, OSError, ValueError) as e:
            raise PortError(f"cannot open {port}: {_reason(e)}")

    def read(self):
        """Bytes received (b"" when none came in POLL_S); raises
        PortError when the port went away."""
        try:
            data = self._port.read(1)
            waiting = self._port.in_waiting if data else 0
            if waiting:
                data += self._port.read(min(waiting, READ_MAX))
            return data
        except (self._serial.SerialException, OSError) as e:
            # pyserial's words when select() says readable and read()
            # gets nothing: the device is gone (serialposix.Serial.read)
            if "returned no data" in str(e):
                raise PortDisconnected(str(e))
            raise PortError(f"port closed ({e})")

    def close(self):
        try:
            self._port.close()
        except (self._serial.SerialException, OSError):
            pass


class FileInput:
    """A regular file (read to its end) or a FIFO (read until its writer
    closes it, once one has written)."""

    def __init__(self, path, fifo):
        self._fifo = fifo
        self._seen_data = False
        flags = os.O_RDONLY | (os.O_NONBLOCK if fifo else 0)
        try:
            self._fd = os.open(path, flags)
        except OSError as e:
            raise PortError(f"cannot open {path}: {_reason(e)}")

    def read(self):
        """Bytes read; b"" when none yet; None at the end."""
        if self._fifo:
            ready, _, _ = select.select([self._fd], [], [], POLL_S)
            if not ready:
                return b""
        try:
            data = os.read(self._fd, READ_MAX)
        except BlockingIOError:
            return b""
        except OSError as e:
            raise PortError(f"read failed: {_reason(e)}")
        if data:
            self._seen_data = True
            return data
        if self._fifo and not self._seen_data:
            time.sleep(POLL_S / 4)  # no writer yet: it reads as the end
            return b""
        return None

    def close(self):
        os.close(self._fd)


def open_port(port, baud):
    """The reader for a --port value: SerialInput or FileInput."""
    if "://" in port:
        return SerialInput(port, baud)
    try:
        st = os.stat(port)
    except OSError as e:
        raise PortError(f"cannot open {port}: {_reason(e)}")
    if stat.S_ISCHR(st.st_mode):
        return SerialInput(port, baud)
    if stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return FileInput(port, stat.S_ISFIFO(st.st_mode))
    raise PortError(f"cannot open {port}: not a serial device, a file or "
                    "a FIFO")


# ---------------------------------------------------------------- names

_NAMES = threading.Lock()   # the threads of one run choose names in turn


def slug(text, keep_case=False) -> str:
    """A filename-safe form: letters, digits, '.', '-' and '_' kept, runs
    of anything else one '-'."""
    s = text if keep_case else text.lower()
    pattern = r"[^A-Za-z0-9._]+" if keep_case else r"[^a-z0-9.]+"
    s = re.sub(pattern, "-", s).strip("-.")
    return s[:80].rstrip("-.") or "unknown"


def port_stem(port) -> str:
    """"port-ttyS0" for /dev/ttyS0, "port-pts-3" for /dev/pts/3,
    the file's name for a file."""
    p = port.split("://", 1)[-1]
    if p.startswith("/dev/"):
        p = p[len("/dev/"):]
    elif "://" not in port:
        p = os.path.basename(p.rstrip("/")) or p
    return "port-" + slug(p, keep_case=True)


def _pair(out, stem, n):
    base = stem if n == 1 else f"{stem}-{n}"
    return out / f"{base}.log", out / f"{base}.raw"


def create_files(out: Path, stem):
    """Creates STEM.log and STEM.raw (or STEM-N.*), never touching a file
    that exists; returns (log path, raw path, log file, raw file)."""
    with _NAMES:
        n = 1
        while True:
            log, raw = _pair(out, stem, n)
            n += 1
            if log.exists() or raw.exists():
                continue
            try:
                fl = open(log, "xb", buffering=0)
            except FileExistsError:
                continue
            try:
                fr = open(raw, "xb", buffering=0)
            except FileExistsError:
                fl.close()
                log.unlink()
                continue
            return log, raw, fl, fr


def rename_files(log, raw, stem):
    """Gives the open pair (log, raw) the name STEM (or STEM-N) in their
    directory; returns the new paths.  Links then unlinks, so a name
    taken meanwhile is never replaced."""
    with _NAMES:
        n = 1
        while True:
            new_log, new_raw = _pair(log.parent, stem, n)
            n += 1
            if new_log.exists() or new_raw.exists():
                continue
            try:
                _move(log, new_log)
            except FileExistsError:
                continue
            try:
                _move(raw, new_raw)
            except FileExistsError:
                _move(new_log, log)
                continue
            return new_log, new_raw


def _move(old, new):
    try:
        os.link(old, new)
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV,
                           errno.EMLINK):
            raise
        if new.exists():        # no hard links here (vfat...): check, move
            raise FileExistsError(errno.EEXIST, "exists", str(new))
        os.rename(old, new)
        return
    os.unlink(old)


# ---------------------------------------------------------------- lines

_SKIP = re.compile(r"#\s*SKIP", re.IGNORECASE)
_RUNNING = re.compile(r"^# running ([^\s:]+)")


class Watch:
    """What the clean lines tell while they arrive: the machine, results
    so far, the test in flight, the plan, the summary."""

    def __init__(self):
        self._partial = b""
        self.machine = None         # lab.common.machine_name
        self.results = self.failed = self.skipped = 0
        self.last = None            # "ok 37 - group/name"
        self.last_line = None       # the last whole line, whatever it is
        self.running = None         # the test announced, not yet ended
        self.plan = None
        self.summary = None         # the "# summary:" line's text

    def feed(self, clean: bytes):
        """Reads clean bytes; returns the length of the prefix of clean
        that ends with the summary line (the rest is not the log), or
        None while it has not come."""
        start, pos = len(self._partial), 0
        data = self._partial + clean
        while True:
            nl = data.find(b"\n", pos)
            if nl < 0:
                break
            self._line(data[pos:nl].decode("utf-8", "replace"))
            pos = nl + 1
            if self.summary is not None:
                self._partial = b""
                return pos - start
        self._partial = data[pos:]
        return None

    def _line(self, line):
        if line.strip():
            self.last_line = line
        if self.machine is None and line.startswith("# cpu:") \
                and not self.results:
            log = pmulog.parse(f"{pmulog.TAP_VERSION}\n{line}\n")
            self.machine = common.machine_name(log)
            return
        m = pmulog.RESULT_LINE.match(line)
        if m:
            self.results += 1
            if m.group(1) == "not ok":
                self.failed += 1
            elif _SKIP.search(m.group(3) or ""):
                self.skipped += 1
            self.last, self.running = line, None
            return
        m = _RUNNING.match(line)
        if m:
            self.running = m.group(1)
            return
        m = pmulog.PLAN_LINE.match(line)
        if m:
            self.plan = int(m.group(1))
        elif line.startswith("# summary:"):
            self.summary = line


# ---------------------------------------------------------------- capture

class Capture(threading.Thread):
    """One port's capture; after join(): outcome is "complete",
    "timeout", "idle" (nothing received for idle seconds), "eof",
    "closed", "interrupted", "open" (could not open) or "write" (the
    files failed), detail the message."""

    def __init__(self, port, baud, out, stamp, deadline, stop, idle=None):
        super().__init__(name=f"capture {port}", daemon=True)
        self.port, self.baud, self.out, self.stamp = port, baud, out, stamp
        self.deadline, self.stop, self.idle = deadline, stop, idle
        self.lines = 0              # line ends received
        self.watch = Watch()
        self.cleaner = Cleaner()
        self.received = 0
        self.log_path = self.raw_path = None
        self.outcome = None
        self.detail = ""
        self.opened = False
        self.t0 = time.monotonic()

    def run(self):
        try:
            reader = open_port(self.port, self.baud)
        except PortError as e:
            self.outcome, self.detail = "open", str(e)
            return
        self.opened = True
        files = ()
        try:
            self.log_path, self.raw_path, *files = create_files(
                self.out, f"{port_stem(self.port)}-{self.stamp}")
            self._loop(reader, *files)
        except OSError as e:
            self.outcome = "write"
            self.detail = f"{e.filename or self.out}: {_reason(e)}"
        except Exception as e:      # noqa: BLE001 -- a thread must report
            self.outcome = "write"
            self.detail = f"unexpected {type(e).__name__}: {e}"
        finally:
            reader.close()
            for f in files:
                f.close()

    def _loop(self, reader, log, raw):
        last_data = time.monotonic()
        while True:
            now = time.monotonic()
            if self.stop.is_set():
                self.outcome = "interrupted"
                return
            if self.deadline is not None and now >= self.deadline:
                self.outcome = "timeout"
                return
            if self.idle and now - last_data >= self.idle:
                self.outcome = "idle"
                return
            try:
                data = reader.read()
            except PortDisconnected:
                self.outcome = "closed"
                self.detail = (f"serial port {self.port} disconnected "
                               f"after {self.lines} lines")
                return
            except PortError as e:
                self.outcome, self.detail = "closed", str(e)
                return
            if data:
                last_data = time.monotonic()
            if data is None:
                self.outcome = "eof"
                return
            if data and self._take(data, log, raw):
                self.outcome = "complete"
                return

    def _take(self, data, log, raw) -> bool:
        """Writes a chunk; True when it completed the log."""
        _write_all(raw, data)
        self.received += len(data)
        self.lines += data.count(b"\n")
        clean = self.cleaner.feed(data)
        end = self.watch.feed(clean)
        _write_all(log, clean if end is None else clean[:end])
        if self.watch.machine and self.log_path.name.startswith("port-"):
            self.log_path, self.raw_path = rename_files(
                self.log_path, self.raw_path,
                f"{slug(self.watch.machine)}-{self.stamp}")
        return end is not None


def _write_all(f, data):
    """Writes data to an unbuffered file (FileIO.write may take part)."""
    view = memoryview(data)
    while view:
        view = view[f.write(view):]


# ---------------------------------------------------------------- progress

def _short_port(port):
    return port_stem(port)[len("port-"):]


def status_line(c: Capture, now) -> str:
    """The progress line of a capture."""
    w = c.watch
    parts = [_short_port(c.port)]
    if c.outcome == "open":
        return f"{parts[0]}  {c.detail}"
    if c.outcome is None:
        parts.append(f"{now - c.t0:.0f} s")
    if w.machine:
        parts.append(w.machine)
    if not c.cleaner.started:
        what = "waiting for the harness" if c.opened else "opening"
        if c.received:
            what += f" ({c.received} bytes of firmware output)"
        parts.append(what)
    else:
        done = f"{w.results}/{w.plan}" if w.plan is not None else \
            str(w.results)
        counts = f"{done} done"
        if w.failed:
            counts += f", {w.failed} failed"
        parts.append(counts)
        if c.outcome is None and w.running:
            parts.append(f"running {w.running}")
        elif c.outcome is None and w.last:
            parts.append(f"last: {w.last}")
    if c.outcome == "complete" and w.summary:
        parts.append(w.summary[2:])         # "summary: passed=..."
    elif c.outcome is not None:
        parts.append(_OUTCOME_WORDS.get(c.outcome, c.outcome))
    return "  ".join(parts)


_OUTCOME_WORDS = {"complete": "complete", "timeout": "timed out",
                  "idle": "idle: nothing received",
                  "eof": "end of file", "closed": "port closed",
                  "interrupted": "interrupted", "write": "write failed"}


class Progress:
    """Status lines on stderr: redrawn in place (redraw=True) or one
    plain line per port at the start."""

    def __init__(self, captures, redraw, stream):
        self.captures, self.redraw, self.stream = captures, redraw, stream
        self._drawn = 0

    def start(self):
        if not self.redraw:
            for c in self.captures:
                print(f"pmu-harness {PROG}: capturing {c.port}",
                      file=self.stream, flush=True)

    def tick(self):
        if not self.redraw:
            return
        try:    # a line as wide as the terminal would wrap: cut it
            width = max(os.get_terminal_size(self.stream.fileno()).columns
                        - 1, 20)
        except (OSError, ValueError, AttributeError):
            width = None        # not a terminal (--progress always)
        now = time.monotonic()
        out = [f"\x1b[{self._drawn}A"] if self._drawn else []
        for c in self.captures:
            out.append("\r\x1b[2K" + status_line(c, now)[:width] + "\n")
        self.stream.write("".join(out))
        self.stream.flush()
        self._drawn = len(self.captures)


# ---------------------------------------------------------------- verdict

def _counts_text(log):
    n = len(log.results)
    failed = sum(1 for r in log.results if r.status == "not ok")
    text = f"{n} result{'s' if n != 1 else ''}"
    if failed:
        text += f" ({failed} failed)"
    return text


def _incomplete_why(c: Capture, timeout) -> str:
    if c.outcome == "timeout":
        return f"timed out after {timeout:g} s"
    if c.outcome == "idle":
        why = f"nothing received for {c.idle:g} s"
        last = c.watch.last_line
        return why + (f" after the machine's last line {last!r}" if last
                      else "")
    if c.outcome == "eof":
        return "end of file"
    if c.outcome == "closed":
        return c.detail
    if c.outcome == "interrupted":
        return "interrupted"
    if c.outcome == "write":
        return f"write failed: {c.detail}"
    return "unfinished"


def verdict(c: Capture, timeout):
    """(exit status, message, to stderr?) for a finished capture."""
    if c.outcome == "open":
        return common.EXIT_USAGE, c.detail, True
    if c.log_path is None:
        return common.EXIT_USAGE, f"{c.port}: {c.detail}", True
    a = lparse.analyse(c.log_path)
    log, v = a.log, lverdict.judge(a)
    where = f"{c.port}: {c.log_path}"
    if c.outcome != "complete":
        why = _incomplete_why(c, timeout)
        if not c.cleaner.started:
            what = (f"no '{pmulog.TAP_VERSION}' line "
                    f"({c.received} bytes received)")
        else:
            what = f"{_counts_text(log)}, no summary"
        status = EXIT_INTERRUPTED if c.outcome == "interrupted" else \
            common.EXIT_DAMAGED
        return status, f"{where}: incomplete: {why}: {what}: {v.word}", \
            True
    lparse.report_damage(PROG, a)
    s = log.summary
    text = f"passed={s.passed} failed={s.failed} skipped={s.skipped}" \
        if s else "summary unreadable"
    text += f": {v.word}" if v.green else f": {v.word}: {v.why}"
    return v.status, f"{where}: {text}", False


_RANK = {common.EXIT_OK: 0, common.EXIT_UNTESTED: 1, common.EXIT_ERRORS: 2,
         common.EXIT_FAIL: 3, common.EXIT_DAMAGED: 4, common.EXIT_USAGE: 5,
         EXIT_INTERRUPTED: 6}


# ---------------------------------------------------------------- command

def add_parser(sub):
    p = sub.add_parser(
        "capture", help="capture serial logs of a row of machines",
        description="Reads each --port (a serial device, pty, pyserial URL, "
        "file or FIFO) until the harness's summary line, end of file, "
        "--timeout or --idle; writes per port NAME.raw (every byte "
        "received) and NAME.log (the harness's log: firmware output, CRs "
        "and escape sequences removed), NAME from the machine's '# cpu:' "
        "line and the start time; each log judged as every lab tool "
        "judges it.  Exit status, the worst over the ports: 0 every log "
        "PASSED, 1 a run FAILED (or BAIL OUT, NO TESTS), 4 ERRORS (nothing "
        "failed, but '# error:' lines: options not applied), 77 a run "
        "UNTESTED (nothing failed, no PMU test ran), 3 a capture "
        "incomplete (the partial log is kept) or a log that cannot be "
        "trusted (HUNG, CUT, DAMAGED), 2 bad arguments or a port that "
        "cannot be opened, 130 ^C.  The words and statuses: docs/lab.md, "
        "\"Verdicts and exit statuses\".")
    p.add_argument("--port", action="append", required=True, metavar="DEV",
                   help="serial device, pty, URL, file or FIFO (repeat "
                   "for a row of machines)")
    p.add_argument("--baud", type=int, default=115200,
                   help="serial speed (default 115200)")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="stop after S seconds in all (default: wait for "
                   "the summary)")
    p.add_argument("--idle", type=float, default=IDLE_DEFAULT_S,
                   metavar="S", help="stop a port after S seconds without "
                   "a byte from it: a hung machine (default "
                   f"{IDLE_DEFAULT_S}; 0 = no limit; keep it above the "
                   "harness's timeout= unless verbose=1)")
    p.add_argument("--out", default=".", metavar="DIR",
                   help="directory for the logs (default: the current one)")
    p.add_argument("--progress", choices=("auto", "always", "never"),
                   default="auto", help="status lines redrawn in place: "
                   "auto = when stderr is a terminal")
    p.set_defaults(run=run)
    return p


def _check_args(args):
    """An error message for bad arguments, or None."""
    if args.baud <= 0:
        return f"--baud {args.baud}: not a positive speed"
    if args.timeout is not None and not args.timeout > 0:
        return f"--timeout {args.timeout:g}: not a positive number of seconds"
    if not args.idle >= 0:
        return f"--idle {args.idle:g}: not a number of seconds (0: no limit)"
    seen = set()
    for p in args.port:
        if not p:
            return "--port: empty name"
        if p in seen:
            return f"--port {p}: given twice"
        seen.add(p)
    return None


def run(args) -> int:
    problem = _check_args(args)
    if problem:
        common.warn(PROG, problem)
        return common.EXIT_USAGE
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        common.warn(PROG, f"--out {args.out}: {_reason(e)}")
        return common.EXIT_USAGE
    stamp = time.strftime("%Y%m%d-%H%M%S")
    deadline = None if args.timeout is None else \
        time.monotonic() + args.timeout
    stop = threading.Event()
    caps = [Capture(p, args.baud, out, stamp, deadline, stop,
                    args.idle or None)
            for p in args.port]
    redraw = args.progress == "always" or (
        args.progress == "auto" and sys.stderr.isatty())
    progress = Progress(caps, redraw, sys.stderr)
    progress.start()
    for c in caps:
        c.start()
    _wait(caps, progress, stop)
    progress.tick()
    return _report(caps, args.timeout)


def _wait(caps, progress, stop):
    """Waits for the captures, redrawing; ^C stops them (files kept)."""
    # Sleeps rather than Thread.join(timeout): a ^C inside join() can
    # leave the thread looking finished while it runs on.
    try:
        while any(c.is_alive() for c in caps):
            progress.tick()
            time.sleep(POLL_S / 2)
    except KeyboardInterrupt:
        stop.set()
        while any(c.is_alive() for c in caps):
            time.sleep(POLL_S / 4)


def _report(caps, timeout) -> int:
    worst = common.EXIT_OK
    for c in caps:
        status, message, to_stderr = verdict(c, timeout)
        if to_stderr:
            common.warn(PROG, message)
        else:
            print(message, flush=True)
        if _RANK[status] > _RANK[worst]:
            worst = status
    return worst
