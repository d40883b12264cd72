#!/usr/bin/env python3
"""pmulog: parse a pmu-harness log (TAP version 13, docs/log-format.md).

    from tools.lab import pmulog
    log = pmulog.parse_file("build/serial.log")   # or pmulog.parse(text)
    log.header("cpu").fields["family"]            # "5"
    for r in log.results: r.number, r.status, r.name, r.reason, r.yaml
    log.plan, log.summary, log.bail_outs, log.error_lines, log.comments
    log.summary.logfile_error                     # None, or what failed
    log.parse_errors                              # [] when the log is well formed

The input is a serial capture or the log file of the boot volume: anything
before "TAP version 13" is the firmware's and is skipped (OVMF's output may
share that line); lines may end in CR LF.  Parsing never raises on bad
input: every problem becomes a ParseError in log.parse_errors and the rest
of the log is still read.

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


def load_yaml(text):
    """yaml.safe_load(text), through libyaml where it is there."""
    try:
        return yaml.load(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return yaml.safe_load(text)


def compose_yaml(text):
    """yaml.compose(text, SafeLoader): the node tree, through libyaml
    where it is there."""
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
        """"ok", "not ok" or "skip" (the harness's three outcomes)."""
        if self.directive == "SKIP":
            return "skip"
        return "ok" if self.ok else "not ok"


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
    headers: List[Header] = field(default_factory=list)
    results: List[Result] = field(default_factory=list)
    plan: Optional[int] = None
    plan_line: int = 0
    summary: Optional[Summary] = None
    bail_outs: List[Comment] = field(default_factory=list)
    error_lines: List[Comment] = field(default_factory=list)
    comments: List[Comment] = field(default_factory=list)
    parse_errors: List[ParseError] = field(default_factory=list)

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
    # Lines end in LF or CR LF; a lone CR (a terminal redraw) is kept.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l[:-1] if l.endswith("\r") else l for l in lines]


def parse(text: str, path: Optional[str] = None) -> Log:
    """Parses a whole capture (str).  Never raises on bad input."""
    log = Log(path=path)
    err = log.parse_errors.append
    at = text.find(TAP_VERSION)
    if at < 0:
        err(ParseError(0, f"no '{TAP_VERSION}' line: the harness did not "
                          "start or wrote nothing"))
        log.prefix = text
        return log
    log.found_version = True
    log.prefix = text[:at]
    log.first_line = text.count("\n", 0, at) + 1
    log.lines = _split_lines(text[at:])
    if log.lines[0] != TAP_VERSION:
        err(ParseError(log.first_line, f"text after '{TAP_VERSION}': "
                                       f"{log.lines[0]!r}"))

    yaml_open = None        # (result, start line, collected lines)
    seen_result = False

    def close_yaml(lineno, terminated):
        nonlocal yaml_open
        res, start, body = yaml_open
        yaml_open = None
        res.yaml_text = "\n".join(body) + ("\n" if body else "")
        if not terminated:
            err(ParseError(lineno, f"YAML block of result {res.number} "
                                   f"(opened on line {start}) is not closed "
                                   "by '  ...'"))
        try:
            doc = load_yaml(res.yaml_text) if body else {}
        except yaml.YAMLError as e:
            err(ParseError(start, f"YAML block of result {res.number}: "
                                  + " ".join(str(e).split())))
            return
        if doc is None:
            doc = {}
        if not isinstance(doc, dict):
            err(ParseError(start, f"YAML block of result {res.number} is "
                                  f"not a mapping: {doc!r}"))
        res.yaml = doc

    for i, line in enumerate(log.lines[1:], start=1):
        lineno = log.first_line + i
        if yaml_open is not None:
            if line == "  ...":
                close_yaml(lineno, True)
                continue
            if line.startswith("  ") and line != "  ---":
                yaml_open[2].append(line[2:])
                continue
            close_yaml(lineno, False)
        if line == TAP_VERSION:
            err(ParseError(lineno, f"second '{TAP_VERSION}' line: the "
                                   "harness started again"))
            continue
        if line == "  ---":
            if not log.results or log.results[-1].yaml_text is not None:
                err(ParseError(lineno, "YAML block without a result line "
                                       "before it"))
                yaml_open = (Result(None, False, "(none)"), lineno, [])
            else:
                yaml_open = (log.results[-1], lineno, [])
            continue
        m = RESULT_LINE.match(line)
        if m:
            seen_result = True
            _result(log, m, lineno, err)
            continue
        m = PLAN_LINE.match(line)
        if m:
            if log.plan is not None:
                err(ParseError(lineno, f"second plan {line!r} (first on "
                                       f"line {log.plan_line})"))
            else:
                log.plan, log.plan_line = int(m.group(1)), lineno
            continue
        m = _BAIL.match(line)
        if m:
            log.bail_outs.append(Comment(m.group(1), lineno))
            continue
        if line.startswith("#"):
            _comment(log, line, lineno, seen_result, err)
            continue
        if not line.strip():
            err(ParseError(lineno, "empty line"))
        else:
            err(ParseError(lineno, f"not a TAP line: {line!r}"))
    if yaml_open is not None:
        close_yaml(log.first_line + len(log.lines) - 1, False)
    if log.summary is None:
        err(ParseError(0, "no '# summary:' line: the log is incomplete"))
    if log.plan is None:
        err(ParseError(0, "no plan '1..N': the log is incomplete"))
    return log


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
    expect = len(log.results) + 1
    num = int(number) if number is not None else None
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
    log.results.append(Result(num, not not_ok, name, directive, reason,
                              line=lineno))


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


def parse_file(path) -> Log:
    """Parses the file at path.  A file that cannot be read gives a Log
    whose parse_errors say why."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        log = Log(path=str(path), read_error=f"cannot read {path}: "
                                             f"{e.strerror or e}")
        log.parse_errors.append(ParseError(0, log.read_error))
        return log
    return parse(data.decode("utf-8", errors="replace"), str(path))


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
