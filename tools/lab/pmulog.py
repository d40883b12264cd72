#!/usr/bin/env python3
"""pmulog: parse a pmu-harness log (TAP version 13, docs/log-format.md).

    from tools.lab import pmulog
    log = pmulog.parse_file("build/serial.log")   # or pmulog.parse(text)
    log.header("cpu").fields["family"]            # "5"
    for r in log.results: r.number, r.status, r.name, r.reason, r.yaml
    log.plan, log.summary, log.bail_outs, log.error_lines, log.comments
    log.summary.logfile_error                     # None, or what failed
    log.parse_errors                              # [] when the log is well formed
    p = pmulog.Parser(path, on_result=f, keep_results=False)
    for line in lines: p.feed(line)               # each result to f, none
    log = p.finish()                              # kept: any length of log

The input is a serial capture or the log file of the boot volume: anything
before "TAP version 13" is the firmware's and is skipped (OVMF's output may
share that line); lines may end in CR LF.  Parsing never raises on bad
input: every problem becomes a ParseError in log.parse_errors and the rest
of the log is still read.  It is incremental (Parser.feed, one line at a
time; parse_file reads the file so): a long log costs its results, and
its lines only with keep_lines (log.lines, log.tap_text).  In a YAML block
a line of serial noise costs only its own entry, and YAML anchors and
aliases (never written by the harness; an alias bomb) are rejected as
damage, never expanded.
The YAML the harness writes (lib/tap.c) is read without the YAML loader
(fast_block), to what the loader reads; any other YAML goes to it.
It reads within limits (MAX_LINE_CHARS, MAX_BLOCK_CHARS, MAX_YAML_DEPTH,
MAX_VALUES, MAX_VALUE_CHARS; docs/lab.md, "Limits"): a line or a YAML block
over one is damage named at its line, and such a block is never handed to
the YAML loader (which recurses) and reads as empty.

CLI (for debugging): `python3 -m tools.lab.pmulog LOG` prints the structure
as JSON; exit status 1 when the log has parse errors, 2 when it cannot be
read.
"""

import json
import re
import sys
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

import yaml

# libyaml's parser (Debian's python3-yaml has it) reads a log's YAML blocks
# ten times faster than PyYAML's own; the documents it builds are the same
# (the same SafeLoader constructors).  A block it refuses is read again
# by PyYAML's, so that an error says what PyYAML says.
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# Limits of what the parser reads (docs/lab.md, "Limits"), each far above
# anything the harness writes (measured on the 433 files of the golden
# logs and tools/testing/fixtures: the longest line 3,730 characters, the
# largest YAML block 11,127, nesting 2 levels, 290 values in one result,
# the longest value 222 characters).  A log over one is damage, named at
# its line, and the block is never handed to the YAML loader, which
# recurses (PyYAML's composer in Python, libyaml's through Cython: a list
# nested 100,000 deep is a segfault).
MAX_LINE_CHARS = 65536          # a line of the log (after TAP version 13)
MAX_BLOCK_CHARS = 1048576       # one result's YAML block, as written
MAX_YAML_DEPTH = 32             # lists and mappings inside one another
MAX_VALUES = 10000              # scalars, lists and mappings in one block
MAX_VALUE_CHARS = 65536         # one scalar value (a key too)


class LimitError(Exception):
    """YAML text over one of the limits; line is the 0-based line of the
    text where the limit is passed."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message


def check_limits(text):
    """Raises LimitError when the YAML text nests deeper than
    MAX_YAML_DEPTH, holds more than MAX_VALUES values or a scalar longer
    than MAX_VALUE_CHARS.  It reads the parser's events (libyaml's and
    PyYAML's parsers are state machines: no recursion) and stops at the
    first limit passed, so its cost is bounded by the limits; text that is
    not YAML stops it at the error (the loader then fails at the same
    place, having read no more)."""
    depth = values = 0
    try:
        for ev in yaml.parse(text, Loader=_FAST_LOADER):
            if isinstance(ev, yaml.CollectionStartEvent):
                depth += 1
                values += 1
                if depth > MAX_YAML_DEPTH:
                    raise LimitError(ev.start_mark.line,
                                     f"nested more than {MAX_YAML_DEPTH} "
                                     "deep, over the limit of "
                                     f"{MAX_YAML_DEPTH} (MAX_YAML_DEPTH)")
            elif isinstance(ev, yaml.CollectionEndEvent):
                depth -= 1
            elif isinstance(ev, yaml.ScalarEvent):
                values += 1
                if len(ev.value) > MAX_VALUE_CHARS:
                    raise LimitError(ev.start_mark.line,
                                     f"a value of {len(ev.value)} "
                                     "characters, over the limit of "
                                     f"{MAX_VALUE_CHARS} (MAX_VALUE_CHARS)")
            elif isinstance(ev, yaml.AliasEvent):
                values += 1
            if values > MAX_VALUES:
                raise LimitError(ev.start_mark.line,
                                 f"more than {MAX_VALUES} values, over the "
                                 f"limit of {MAX_VALUES} (MAX_VALUES)")
    except yaml.YAMLError:
        pass


def load_yaml(text):
    """yaml.safe_load(text), through libyaml where it is there; raises
    LimitError (check_limits) before loading text over a limit."""
    check_limits(text)
    try:
        return yaml.load(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return yaml.safe_load(text)


# The harness's own YAML (lib/tap.c quote_scalar, tap_yaml_kv,
# tap_yaml_list, tap_yaml_item) is a small part of YAML: "key: value"
# lines, "key:" followed by "  - item" lines, each value either plain
# printable ASCII that YAML reads as written (no '"', '\\', '#', ": ",
# no leading indicator but "-" before a digit, no space at either end)
# or double-quoted printable ASCII with \", \\ and \xNN escapes.  Blocks
# made only of such lines are read here, line by line, to exactly what
# load_yaml gives (the same resolver and constructors: "0x10" is 16,
# "yes" True, "~" None); anything else, or a block over a limit, returns
# None and goes to the YAML loader.  A block costs a few regular
# expressions instead of libyaml's events twice (check_limits, then the
# loader): a log of 370,000 results reads in a third of the time.
_FAST_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]{0,999}):(?: (.*))?\Z",
                       re.S)
_FAST_PLAIN = re.compile(r"(?:-[0-9]|[$()+./0-9;<=A-Z^_a-z~])"
                         r"[ !$-\[\]-~]*\Z")
_FAST_QUOTED = re.compile(r'"((?:[ !#-\[\]-~]|\\["\\]|\\x[0-9A-Fa-f]{2})*)"'
                          r"\Z")
_FAST_ESCAPE = re.compile(r'\\(["\\]|x[0-9A-Fa-f]{2})')
_FAST_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
              "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null")
_RESOLVERS = {c: [(tag, rx) for tag, rx in rs]
              for c, rs in yaml.resolver.Resolver.yaml_implicit_resolvers
              .items()}
# (PyYAML's resolve() tries the resolvers of no first character, None,
# after those of the value's first; there are none unless added)
_WILDCARD = _RESOLVERS.get(None, [])
_RESOLVERS = {c: rs + _WILDCARD for c, rs in _RESOLVERS.items()}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_FAST_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_DIGITS = frozenset("0123456789")
_FAST_KEYS = {}
_NO_VALUE = object()


def _fast_unescape(m):
    e = m.group(1)
    return e if len(e) == 1 else chr(int(e[1:], 16))


def _fast_scalar(text):
    """The value of a harness scalar as YAML reads it, or _NO_VALUE when
    text is not one the fast path reads."""
    if text[:1] == '"':
        m = _FAST_QUOTED.match(text)
        if m is None:
            return _NO_VALUE
        v = m.group(1)
        if "\\" in v:
            v = _FAST_ESCAPE.sub(_fast_unescape, v)
        return v if len(v) <= MAX_VALUE_CHARS else _NO_VALUE
    if _FAST_PLAIN.match(text) is None or ": " in text or \
            text[-1] in ": " or len(text) > MAX_VALUE_CHARS:
        return _NO_VALUE
    c = text[0]
    if c in _DIGITS:
        if text.isdigit() and (c != "0" or len(text) == 1):
            return int(text)        # decimal: what construct_yaml_int does
        if _FAST_HEX.match(text):
            return int(text, 16)
    elif c not in _RESOLVERS and not _WILDCARD:
        return text                 # no implicit resolver: a string
    return _fast_resolve(text)


def _fast_resolve(text):
    """A plain scalar through PyYAML's implicit resolvers and its safe
    constructors (what every YAML loader here does with it)."""
    for tag, rx in _RESOLVERS.get(text[0], _WILDCARD):
        if rx.match(text):
            if tag not in _FAST_TAGS:
                return _NO_VALUE        # a date, "<<", "=": the loader's
            node = yaml.ScalarNode(tag, text)
            return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node)
    return text


def _fast_key(text):
    """A key (a plain scalar: "yes" is True), remembered: a log's blocks
    use the same few hundred keys over and over."""
    key = _FAST_KEYS.get(text, _NO_VALUE)
    if key is _NO_VALUE:
        key = _fast_resolve(text)
        if len(_FAST_KEYS) > 65536:
            _FAST_KEYS.clear()
        _FAST_KEYS[text] = key
    return key


def fast_block(body):
    """The mapping of a YAML block, body its [(line, text)] (each text
    without the block's two spaces), when every line is one the harness
    writes and the block is within the limits: exactly what load_yaml
    gives.  None otherwise: the caller loads it."""
    doc = {}
    key = items = None      # the "key:" line before, waiting for items
    values = 1              # the mapping, as check_limits counts
    match = _FAST_KEY.match
    keys = _FAST_KEYS
    for _, text in body:
        if text[:4] == "  - ":
            if items is None:
                return None
            v = _fast_scalar(text[4:])
            if v is _NO_VALUE:
                return None
            items.append(v)
            values += 1
            if values > MAX_VALUES:
                return None
            continue
        if items is not None and not items:
            doc[key] = None         # "key:" and no item: null
        items = None
        m = match(text)
        if m is None:
            return None
        name, raw = m.groups()
        key = keys.get(name, _NO_VALUE)
        if key is _NO_VALUE:
            key = _fast_key(name)
            if key is _NO_VALUE:
                return None
        values += 2
        if values > MAX_VALUES:
            return None
        if raw is None:             # "key:": a list follows, or null
            items = []
            doc[key] = items
            continue
        v = _fast_scalar(raw)
        if v is _NO_VALUE:
            return None
        doc[key] = v
    if items is not None and not items:
        doc[key] = None
    return doc


def compose_yaml(text):
    """yaml.compose(text, SafeLoader): the node tree, through libyaml
    where it is there; raises LimitError as load_yaml does."""
    check_limits(text)
    try:
        return yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)

TAP_VERSION = "TAP version 13"

# "# key: rest".  Keys are lower case words with '-' or '_'.
_KEYED = re.compile(r"^# ([a-z][a-z0-9_-]*): ?(.*)$")
# "ok 3 - name # SKIP reason": TAP allows the number and the dash to be
# left out; the harness always writes both.
# Public: readers of single lines as they arrive (capture's progress) use
# the same patterns.
RESULT_LINE = re.compile(r"^(not ok|ok)\b(?: +(\d+))?(?: +-)?(?: +(.*))?$")
_DIRECTIVE = re.compile(r"^(.*?)\s*#\s*(SKIP|TODO)\S*(?:\s+(.*))?$",
                        re.IGNORECASE)
PLAN_LINE = re.compile(r"^1\.\.(\d+)(?:\s*#\s*(.*))?$")
# The counts, then key="value" fields (logfile_error="..." when the log
# file failed); logs written before the fields existed have none.
_SUMMARY = re.compile(r"^passed=(\d+) failed=(\d+) skipped=(\d+)(?: (.*))?$")
_BAIL = re.compile(r"^Bail out!\s*(.*)$")
# One key=value field; value "double quoted" (no escapes: the harness
# writes paths with backslashes) or a bare word.
_FIELD = re.compile(r'([A-Za-z_][A-Za-z0-9_.-]*)=(?:"([^"]*)"|([^"\s]\S*)?)')

# Comment keys that are not header lines wherever they appear.
_NOT_HEADERS = ("error", "running", "summary")


@dataclass
class ParseError:
    line: int           # 1-based line number in the input, 0 = whole input
    message: str

    def __str__(self):
        return f"line {self.line}: {self.message}" if self.line else \
            self.message


@dataclass
class Header:
    """A "# key: rest" line of the header block."""
    key: str
    text: str                                   # rest, as written
    words: List[str] = field(default_factory=list)   # bare words, in order
    fields: Dict[str, str] = field(default_factory=dict)  # key=value fields
    line: int = 0


@dataclass
class Result:
    number: Optional[int]   # as written (None when TAP's number is absent)
    ok: bool                # "ok" (True) or "not ok" (False)
    name: str
    directive: Optional[str] = None     # "SKIP", "TODO" or None
    reason: str = ""                    # the directive's text
    yaml: Any = None                    # the YAML block, parsed; None if none
    yaml_text: Optional[str] = None     # the YAML block as written
    line: int = 0

    @property
    def status(self) -> str:
        """"ok", "not ok" or "skip" (the harness's three outcomes), as
        TAP (and prove) reads the line: a SKIP directive skips only an
        ok line ("not ok ... # SKIP" is a failure), and a TODO result
        never fails (an expected failure, or an unexpected pass)."""
        if self.directive == "SKIP" and self.ok:
            return "skip"
        return "ok" if self.ok or self.directive == "TODO" else "not ok"


@dataclass
class Summary:
    passed: int
    failed: int
    skipped: int
    line: int = 0
    fields: Dict[str, str] = field(default_factory=dict)  # after the counts

    @property
    def logfile_error(self) -> Optional[str]:
        """What failed with the boot volume's log file, or None."""
        return self.fields.get("logfile_error")


@dataclass
class Comment:
    text: str           # without the leading "# "
    line: int = 0


@dataclass
class Log:
    path: Optional[str] = None
    read_error: Optional[str] = None    # why the file could not be read
    found_version: bool = False         # a "TAP version 13" line was found
    prefix: str = ""                    # text before "TAP version 13"
    lines: List[str] = field(default_factory=list)  # the TAP lines, no EOL
    first_line: int = 0                 # input line number of lines[0]
    last_line: int = 0                  # input line number of the last
                                        # TAP line (kept lines or not)
    headers: List[Header] = field(default_factory=list)
    results: List[Result] = field(default_factory=list)
    plan: Optional[int] = None
    plan_line: int = 0
    summary: Optional[Summary] = None
    bail_outs: List[Comment] = field(default_factory=list)
    error_lines: List[Comment] = field(default_factory=list)
    comments: List[Comment] = field(default_factory=list)
    parse_errors: List[ParseError] = field(default_factory=list)
    # The number the next result should have: one more than the last
    # result's (or the number a result without one stood for).
    next_number: int = 1
    # How many results and the line of the last, whether log.results
    # keeps them or not (Parser's keep_results).
    result_count: int = 0
    last_result_line: int = 0

    def header(self, key: str) -> Optional[Header]:
        """The header line "# key: ...", or None."""
        for h in self.headers:
            if h.key == key:
                return h
        return None

    @property
    def tap_text(self) -> str:
        """The harness's part of the input: LF line ends, one per line."""
        return "".join(l + "\n" for l in self.lines)

    def counts(self):
        """(passed, failed, skipped) counted from the results, the way the
        harness counts them (lib/tap.c)."""
        p = f = s = 0
        for r in self.results:
            st = r.status
            if st == "skip":
                s += 1
            elif st == "not ok":
                f += 1
            else:
                p += 1
        return p, f, s

    def to_dict(self):
        d = asdict(self)
        for k in ("next_number", "result_count", "last_result_line"):
            d.pop(k)                # the parser's state, not the log's
        for r, rd in zip(self.results, d["results"]):
            rd["status"] = r.status
        return d


def parse_fields(text: str):
    """Splits a header's rest into bare words and key=value fields.
    Returns (words, fields, problems)."""
    words, fields, problems = [], {}, []
    pos, n = 0, len(text)
    while pos < n:
        if text[pos] == " ":
            pos += 1
            continue
        m = _FIELD.match(text, pos)
        if m and (m.end() == n or text[m.end()] == " "):
            key, quoted, bare = m.groups()
            if key in fields:
                problems.append(f"field {key!r} given twice")
            else:
                fields[key] = quoted if quoted is not None else bare or ""
            pos = m.end()
            continue
        end = text.find(" ", pos)
        end = n if end < 0 else end
        word = text[pos:end]
        if '="' in word:
            problems.append(f"malformed quoted value in {word!r}")
        words.append(word)
        pos = end
    return words, fields, problems


def _header(key, rest, lineno):
    words, fields, problems = parse_fields(rest)
    return Header(key, rest, words, fields, lineno), problems


def _split_lines(text: str):
    """The lines of text, one at a time (a generator: the text is not
    copied into a list).  Lines end in LF or CR LF; a lone CR (a terminal
    redraw) is kept."""
    pos, n = 0, len(text)
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        yield text[pos:end - 1] if end > pos and text[end - 1] == "\r" \
            else text[pos:end]
        pos = end + 1


def _file_lines(f):
    """The lines of a binary file, decoded one at a time as it is read
    (LF or CR LF ends a line; bytes that are not UTF-8 become U+FFFD)."""
    for raw in f:
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        yield raw.decode("utf-8", errors="replace")


def parse(text: str, path: Optional[str] = None, keep_lines=True) -> Log:
    """Parses a whole capture (str).  Never raises on bad input."""
    log = parse_lines(_split_lines(text), path, keep_lines)
    at = text.find(TAP_VERSION)
    log.prefix = text if at < 0 else text[:at]     # line ends as written
    return log


def parse_lines(lines, path: Optional[str] = None, keep_lines=True) -> Log:
    """Parses the lines of a capture (an iterable of str without their line
    ends), one at a time: only the YAML block being read is held, plus
    what the Log keeps (log.lines only with keep_lines)."""
    p = Parser(path, keep_lines)
    for line in lines:
        p.feed(line)
    return p.finish()


# A YAML block's top-level entry starts with "key:" at its first column
# (lib/tap.h: tap_yaml_kv, tap_yaml_list); its list items are indented.
_YAML_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*:(?: |$)")


class Parser:
    """The incremental parser: feed() each line of the input in turn, then
    finish() for the Log.  A result's YAML block is parsed when its
    "  ..." (or whatever ends it) arrives, so log.results grows as the
    lines come (a capture in progress, a log too large to hold twice).

    on_result(result) is called with each result once it is complete:
    its YAML block parsed, or the next result line (or the end) came
    without one; in the log's order.  With keep_results=False the Log
    keeps no result (log.results stays empty; log.result_count and
    log.last_result_line say how many and where the last was) and, of
    the comments, only those after the last result and the "# time:"
    ones: a log of any length costs what on_result keeps of it."""

    def __init__(self, path: Optional[str] = None, keep_lines=True,
                 on_result=None, keep_results=True):
        self.log = Log(path=path)
        self.keep_lines = keep_lines
        self.keep_results = keep_results
        self.on_result = on_result
        self._prefix: List[str] = []
        self._input_line = 0
        # [result, start line, [(line, text)], characters, refused]:
        # refused, a block over a limit, is never loaded
        self._yaml = None
        self._seen_result = False
        self.last_result = None     # the Result of the last result line
        self._pending = None        # ... until on_result has it

    def _err(self, line, message):
        self.log.parse_errors.append(ParseError(line, message))

    def feed(self, line: str):
        self._input_line += 1
        log = self.log
        if not log.found_version:
            at = line.find(TAP_VERSION)
            if at < 0:
                self._prefix.append(line)
                return
            log.found_version = True
            self._prefix.append(line[:at])
            log.prefix = "\n".join(self._prefix)
            self._prefix = []
            log.first_line = self._input_line
            line = line[at:]
            if len(line) > MAX_LINE_CHARS:
                self._too_long(line)
                return
            if line != TAP_VERSION:
                self._err(self._input_line, f"text after '{TAP_VERSION}': "
                                            f"{line!r}")
            self._keep(line)
            return
        log.last_line = self._input_line
        if self.keep_lines:
            log.lines.append(line)
        if len(line) > MAX_LINE_CHARS:
            self._too_long(line)
            return
        y = self._yaml
        if y is not None and line[:2] == "  " and line != "  ..." \
                and line != "  ---":
            # a line of the open YAML block (the most common line)
            if y[4]:
                return
            y[3] += len(line) - 1
            if y[3] > MAX_BLOCK_CHARS:
                y[4] = True
                y[2].clear()
                self._err(self._input_line,
                          f"YAML block of result {y[0].number} (opened on "
                          f"line {y[1]}) is more than {MAX_BLOCK_CHARS} "
                          f"characters, over the limit of {MAX_BLOCK_CHARS}"
                          " (MAX_BLOCK_CHARS); not read")
                return
            y[2].append((self._input_line, line[2:]))
            return
        self._tap_line(line, self._input_line)

    def _too_long(self, line):
        """A line over MAX_LINE_CHARS: damage, and not read (a YAML block
        it is in is refused)."""
        self._err(self._input_line,
                  f"line of {len(line)} characters, over the limit of "
                  f"{MAX_LINE_CHARS} (MAX_LINE_CHARS); not read")
        if self._yaml is not None:
            self._yaml[4] = True

    def _keep(self, line):
        self.log.last_line = self._input_line
        if self.keep_lines:
            self.log.lines.append(line)

    def finish(self) -> Log:
        log = self.log
        if not log.found_version:
            self._err(0, f"no '{TAP_VERSION}' line: the harness did not "
                         "start or wrote nothing")
            log.prefix = "\n".join(self._prefix) + \
                ("\n" if self._prefix else "")
            return log
        if self._yaml is not None:
            self._close_yaml(self._input_line, False)
        self._emit()
        if log.summary is None:
            self._err(0, "no '# summary:' line: the log is incomplete")
        if log.plan is None:
            self._err(0, "no plan '1..N': the log is incomplete")
        return log

    def _emit(self):
        """Hands the pending result to on_result."""
        r, self._pending = self._pending, None
        if r is not None and self.on_result is not None:
            self.on_result(r)

    def _tap_line(self, line, lineno):
        log = self.log
        if self._yaml is not None:
            if line == "  ...":
                self._close_yaml(lineno, True)
                return
            if not _is_tap(line):
                # serial noise inside the block: the block goes on
                self._err(lineno, f"not a TAP line: {line!r} (inside the "
                                  f"YAML block of result "
                                  f"{self._yaml[0].number}, which goes on)")
                return
            self._close_yaml(lineno, False)
        if line == TAP_VERSION:
            self._err(lineno, f"second '{TAP_VERSION}' line: the harness "
                              "started again")
            return
        if line == "  ---":
            last = self.last_result
            if last is None or last.yaml_text is not None:
                self._err(lineno, "YAML block without a result line "
                                  "before it")
                self._yaml = [Result(None, False, "(none)"), lineno, [], 0,
                              False]
            else:
                self._yaml = [last, lineno, [], 0, False]
            return
        m = RESULT_LINE.match(line)
        if m:
            self._seen_result = True
            self._emit()
            r = _result(log, m, lineno, self._errf)
            log.result_count += 1
            log.last_result_line = lineno
            if self.keep_results:
                log.results.append(r)
            else:
                # only the comments a reader of the end needs: those
                # after the last result (the test in flight) and the
                # "# time:" line (common.run_time)
                if log.comments:
                    log.comments = [c for c in log.comments
                                    if c.text.startswith("time:")]
            self.last_result = self._pending = r
            return
        m = PLAN_LINE.match(line)
        if m:
            if log.plan is not None:
                self._err(lineno, f"second plan {line!r} (first on line "
                                  f"{log.plan_line})")
            else:
                log.plan, log.plan_line = int(m.group(1)), lineno
            return
        m = _BAIL.match(line)
        if m:
            log.bail_outs.append(Comment(m.group(1), lineno))
            return
        if line.startswith("#"):
            _comment(log, line, lineno, self._seen_result, self._errf)
            return
        if not line.strip():
            self._err(lineno, "empty line")
        else:
            self._err(lineno, f"not a TAP line: {line!r}")

    def _errf(self, e: ParseError):
        self.log.parse_errors.append(e)

    def _close_yaml(self, lineno, terminated):
        res, start, body, _, refused = self._yaml
        self._yaml = None
        res.yaml_text = "".join(t + "\n" for _, t in body)
        if not terminated:
            self._err(lineno, f"YAML block of result {res.number} (opened "
                              f"on line {start}) is not closed by '  ...'")
        if refused:         # over a limit (reported): read as empty
            res.yaml_text, res.yaml = "", {}
        else:
            res.yaml = _yaml_block(res, start, body, self._errf)
        if res is self._pending:
            self._emit()


def _is_tap(line):
    """Whether a line is one the harness writes outside a YAML block."""
    return line == TAP_VERSION or line == "  ---" or \
        line.startswith("#") or bool(RESULT_LINE.match(line) or
                                     PLAN_LINE.match(line) or
                                     _BAIL.match(line))


def _yaml_block(res, start, body, err):
    """The block's mapping.  Anchors and aliases (the harness never writes
    them; an alias bomb expands to gigabytes in whatever walks the
    values) are damage; a line that breaks the YAML costs only its own
    entry: the entries after it are read on their own."""
    text = res.yaml_text
    if not body:
        return {}
    doc = fast_block(body)
    if doc is not None:
        return doc
    if not _anchor(text):
        try:
            doc = load_yaml(text)
        except LimitError as e:
            err(ParseError(body[min(e.line, len(body) - 1)][0],
                           f"YAML block of result {res.number}: "
                           f"{e.message}; not read"))
            res.yaml_text = ""
            return {}
        except yaml.YAMLError as e:
            whole = " ".join(str(e).split())
        else:
            if doc is None:
                return {}
            if not isinstance(doc, dict):
                err(ParseError(start, f"YAML block of result {res.number} "
                                      f"is not a mapping: {doc!r}"))
            return doc
    else:
        whole = None
    entries, damaged = _entries(res, body, err)
    doc = {}
    for first, entry, lines in entries:
        value = _load_entry(res, first, entry, err, lines)
        if value is None:
            damaged = True
        else:
            doc.update(value)
    if not damaged and whole:
        err(ParseError(start, f"YAML block of result {res.number}: {whole}"))
    return doc


def _anchor(text):
    """The first anchor or alias of the YAML text ("&name", "*name"), or
    None.  Only text with '&' or '*' is scanned (libyaml's scanner reads
    an alias without expanding it, and stops at the first token that
    does not scan: loading the text then fails on its own)."""
    if "&" not in text and "*" not in text:
        return None
    try:
        for tok in yaml.scan(text, Loader=_FAST_LOADER):
            if isinstance(tok, yaml.AnchorToken):
                return "&" + tok.value
            if isinstance(tok, yaml.AliasToken):
                return "*" + tok.value
    except yaml.YAMLError:
        pass
    return None


def _entries(res, body, err):
    """The block's top-level entries, [(line of the key, [text lines],
    [their line numbers])],
    and whether a line was damage (one that neither starts an entry nor
    continues one)."""
    entries, damaged = [], False
    for lineno, text in body:
        if _YAML_KEY.match(text):
            entries.append((lineno, [text], [lineno]))
        elif text.startswith(" ") and entries:
            entries[-1][1].append(text)
            entries[-1][2].append(lineno)
        else:
            damaged = True
            err(ParseError(lineno, f"{_where(res, text)}: {text!r} is "
                                   "not 'key: value'; skipped"))
    return entries, damaged


# What serial noise leaves in a line: C0 controls but TAB, DEL, and
# U+FFFD for bytes that were not UTF-8.
_NOISE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ufffd]")


def _where(res, text):
    """Names the block; "garbage in ..." when text has serial noise (a
    damage kind of its own for tools.lab.parse)."""
    if _NOISE.search(text):
        return f"garbage in the YAML block of result {res.number}"
    return f"YAML block of result {res.number}"


def _load_entry(res, lineno, entry, err, lines=None):
    """One entry as a one-key mapping, or None (reported) when it is not
    YAML or holds an anchor or alias."""
    text = "".join(t + "\n" for t in entry)
    where = _where(res, text)
    token = _anchor(text)
    if token:
        err(ParseError(lineno, f"{where}: {token} is a YAML anchor or "
                               "alias (the harness never writes them): "
                               "rejected, not expanded"))
        return None
    try:
        doc = load_yaml(text)
    except LimitError as e:
        at = lines[min(e.line, len(lines) - 1)] if lines else lineno
        err(ParseError(at, f"{where}: {e.message}; its value is lost"))
        return None
    except yaml.YAMLError as e:
        err(ParseError(lineno, f"{where}: " + " ".join(str(e).split())
                       + "; its value is lost"))
        return None
    if not isinstance(doc, dict):
        err(ParseError(lineno, f"{where}: not 'key: value'"))
        return None
    return doc


def _result(log, m, lineno, err):
    not_ok, number, rest = m.group(1) == "not ok", m.group(2), m.group(3)
    rest = rest or ""
    directive, reason, name = None, "", rest
    d = _DIRECTIVE.match(rest)
    if d:
        name, directive, reason = d.group(1), d.group(2).upper(), \
            d.group(3) or ""
    elif "#" in rest:
        err(ParseError(lineno, f"unknown directive in {rest!r}"))
    # The number the result should have: one more than the one before it
    # (its own number, or for a result without one the number it stood
    # for).  So one result numbered out of order is one error, not one
    # for each result after it (a number given twice made 177 lines).
    expect = log.next_number
    num = int(number) if number is not None else None
    log.next_number = (num if num is not None else expect) + 1
    if num is None:
        err(ParseError(lineno, f"result without a number (expected {expect})"))
    elif num != expect:
        err(ParseError(lineno, f"result numbered {num}, expected {expect}"))
    if not name:
        err(ParseError(lineno, "result without a name"))
    if log.plan is not None:
        err(ParseError(lineno, "result after the plan"))
    if log.summary is not None:
        err(ParseError(lineno, "result after the summary"))
    return Result(num, not not_ok, name, directive, reason, line=lineno)


def _comment(log, line, lineno, seen_result, err):
    m = _KEYED.match(line)
    if not m:
        log.comments.append(Comment(line[1:].lstrip(" "), lineno))
        return
    key, rest = m.groups()
    if key == "summary":
        _summary(log, line, rest, lineno, err)
        return
    if key == "error":
        log.error_lines.append(Comment(rest, lineno))
        return
    if key in _NOT_HEADERS or seen_result or log.plan is not None:
        log.comments.append(Comment(line[2:], lineno))
        return
    h, problems = _header(key, rest, lineno)
    for p in problems:
        err(ParseError(lineno, f"header '{key}': {p}"))
    if log.header(key) is not None:
        err(ParseError(lineno, f"header '{key}' given twice"))
        return
    log.headers.append(h)


def _summary(log, line, rest, lineno, err):
    s = _SUMMARY.match(rest)
    words, fields, problems = parse_fields(s.group(4) or "") if s else \
        ([], {}, [])
    if not s or words or problems:
        err(ParseError(lineno, f"malformed summary {line!r}"))
    elif log.summary is not None:
        err(ParseError(lineno, "second summary line"))
    else:
        log.summary = Summary(*map(int, s.group(1, 2, 3)), line=lineno,
                              fields=fields)


def read_results(path, spots):
    """The results whose result lines start at these (byte offset, line
    number) spots of the file at path, read again (a reader that kept
    only where its results are, parse.analyse's result.offset, fetches
    the few it shows): [Result or None], None where the file no longer
    has a result there.  Each is read as the whole log read it: its line,
    then its YAML block."""
    out = []
    try:
        f = open(path, "rb")
    except OSError:
        return [None] * len(spots)
    with f:
        for offset, line in spots:
            got = []
            p = Parser(path, keep_lines=False, on_result=got.append,
                       keep_results=False)
            p.feed(TAP_VERSION)
            p._input_line = line - 1
            f.seek(offset)
            for raw in f:
                text = raw[:-1] if raw[-1:] == b"\n" else raw
                if text[-1:] == b"\r":
                    text = text[:-1]
                p.feed(text.decode("utf-8", errors="replace"))
                if got or p.last_result is None:
                    break
            else:
                p.finish()
            r = got[0] if got else None
            out.append(r if r is not None and r.line == line else None)
    return out


def parse_file(path, keep_lines=True) -> Log:
    """Parses the file at path, read a line at a time.  A file that cannot
    be read gives a Log whose parse_errors say why (a read that fails
    midway: the lines read so far are dropped)."""
    try:
        with open(path, "rb") as f:
            return parse_lines(_file_lines(f), str(path), keep_lines)
    except OSError as e:
        log = Log(path=str(path), read_error=f"cannot read {path}: "
                                             f"{e.strerror or e}")
        log.parse_errors.append(ParseError(0, log.read_error))
        return log


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print("usage: pmulog.py LOG   (prints the parsed log as JSON)",
              file=sys.stderr)
        return 2
    log = parse_file(argv[1])
    json.dump(log.to_dict(), sys.stdout, indent=1, default=str)
    sys.stdout.write("\n")
    for e in log.parse_errors:
        print(f"pmulog: {argv[1]}: {e}", file=sys.stderr)
    if log.read_error:
        return 2
    return 1 if log.parse_errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
