"""Tolerance files of `pmu-harness compare` (docs/lab.md, "compare").

    tol = compare_tolerances.load(path)        # raises ToleranceError (one line)
    rule = tol.value_rule(test, key, config)   # first match, or None
    tol.default                        # the counters' default Rule
    tol.status_policy(test, "skipped") # "regression" or "info"
    tol.header_ignored("console", "logfile")

The file is YAML (python3-yaml), a mapping with these keys, all optional:

    defaults: {abs: N, rel: F, skipped: regression|info,
               missing: regression|info}
    values:   [{test: GLOB, key: GLOB, event: GLOB,
                abs: N, rel: F, ignore: BOOL, regression: BOOL}, ...]
    tests:    [{test: GLOB, skipped: regression|info,
                missing: regression|info}, ...]
    headers:  {ignore: [HEADER or HEADER.FIELD globs]}
    addresses: [WORD, ...]   a hex number right after WORD (" ", "=" or
               ": " between) inside a text value is an address: compared
               as "<address>" (tol.mask_addresses(text))

Errors name the file, the line and the rule ("values rule 3").
"""

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import List, Optional

import yaml

POLICIES = ("regression", "info")
_TOP = ("defaults", "values", "tests", "headers", "addresses")
_DEFAULT_KEYS = ("abs", "rel", "skipped", "missing")
_VALUE_KEYS = ("test", "key", "event", "abs", "rel", "ignore", "regression")
_TEST_KEYS = ("test", "skipped", "missing")


class ToleranceError(Exception):
    """A tolerance file that cannot be used; str() is the whole message,
    "FILE:LINE: what"."""


@dataclass
class Rule:
    """One entry of `values:` (or the defaults, number 0)."""
    number: int = 0                 # 1-based in `values:`; 0: the default
    line: int = 0
    test: Optional[str] = None      # globs; None matches anything
    key: Optional[str] = None
    event: Optional[str] = None
    abs: Optional[float] = None
    rel: Optional[float] = None
    ignore: bool = False
    regression: bool = False

    @property
    def name(self) -> str:
        return f"values rule {self.number}" if self.number else "defaults"

    def allowed(self, base) -> float:
        """The largest |B - A| this rule allows around A's value base."""
        a = self.abs or 0
        r = (self.rel or 0) * abs(base or 0)
        return max(a, r)

    def text(self, base) -> str:
        """"tolerance 0", "tolerance 16 (rel 0.05)"."""
        allowed = self.allowed(base)
        s = f"tolerance {_num(allowed)}"
        if self.rel:
            s += f" (rel {_num(self.rel)}"
            s += f", abs {_num(self.abs)})" if self.abs else ")"
        return s

    def matches(self, test, key, config) -> bool:
        if self.test is not None and not fnmatchcase(test, self.test):
            return False
        if self.key is not None and not fnmatchcase(key, self.key):
            return False
        if self.event is not None and (config is None or
                                       not fnmatchcase(config, self.event)):
            return False
        return True


@dataclass
class TestRule:
    number: int
    line: int
    test: Optional[str] = None
    skipped: Optional[str] = None
    missing: Optional[str] = None


@dataclass
class Tolerances:
    path: str = "(built in)"
    default: Rule = None
    values: List[Rule] = None
    tests: List[TestRule] = None
    skipped: str = "regression"
    missing: str = "regression"
    header_ignore: List[str] = None
    address_words: List[str] = None
    _address_rx: Optional[re.Pattern] = None

    def mask_addresses(self, text):
        """text (a str, else as is) with every hex number that follows an
        `addresses:` word replaced by "<address>"."""
        if not isinstance(text, str) or not self.address_words:
            return text
        if self._address_rx is None:
            words = "|".join(re.escape(w) for w in
                             sorted(self.address_words, key=len,
                                    reverse=True))
            self._address_rx = re.compile(
                r"(?<![\w])(" + words + r")(\s*[=:]?\s*)0x[0-9a-fA-F]+\b")
        return self._address_rx.sub(r"\1\2<address>", text)

    def value_rule(self, test, key, config) -> Optional[Rule]:
        """The first `values:` rule that matches, or None."""
        for r in self.values:
            if r.matches(test, key, config):
                return r
        return None

    def status_policy(self, test, what) -> str:
        """What ok -> skip ("skipped") or a test missing in B ("missing")
        is: "regression" or "info"; the first `tests:` rule that matches
        the test and says, else the default."""
        for r in self.tests:
            p = getattr(r, what)
            if p is not None and (r.test is None or
                                  fnmatchcase(test, r.test)):
                return p
        return getattr(self, what)

    def header_ignored(self, key, field=None) -> bool:
        name = key if field is None else f"{key}.{field}"
        return any(fnmatchcase(name, g) for g in self.header_ignore)


def _num(x) -> str:
    if x is None:
        return "0"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class _Checker:
    """Validates the loaded document, with the lines of its nodes."""

    def __init__(self, path, node):
        self.path = path
        self.node = node

    def fail(self, line, what):
        where = f"{self.path}:{line}" if line else str(self.path)
        raise ToleranceError(f"{where}: {what}")

    @staticmethod
    def child(node, key):
        """The value node under key of a mapping node (or None)."""
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if getattr(k, "value", None) == key:
                    return v
        return None

    @staticmethod
    def key_line(node, key) -> int:
        """The line of key in a mapping node (0: not found)."""
        if isinstance(node, yaml.MappingNode):
            for k, _ in node.value:
                if getattr(k, "value", None) == key:
                    return k.start_mark.line + 1
        return 0

    @staticmethod
    def line(node) -> int:
        return node.start_mark.line + 1 if node is not None else 0

    def mapping(self, doc, node, keys, what):
        if not isinstance(doc, dict):
            self.fail(self.line(node), f"{what}: a mapping is needed, "
                                       f"not {_kind(doc)}")
        for k in doc:
            if k not in keys:
                self.fail(self.key_line(node, k) or self.line(node),
                          f"{what}: unknown key {k!r} (known: "
                          f"{', '.join(keys)})")

    def glob(self, doc, node, k, what):
        v = doc.get(k)
        if v is not None and not isinstance(v, str):
            self.fail(self.line(self.child(node, k)),
                      f"{what}: {k} must be a glob string, not {_kind(v)}")
        return v

    def number(self, doc, node, k, what):
        v = doc.get(k)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
            self.fail(self.line(self.child(node, k)),
                      f"{what}: {k} must be a number >= 0, not {v!r}")
        return v

    def flag(self, doc, node, k, what):
        v = doc.get(k, False)
        if not isinstance(v, bool):
            self.fail(self.line(self.child(node, k)),
                      f"{what}: {k} must be true or false, not {v!r}")
        return v

    def policy(self, doc, node, k, what):
        v = doc.get(k)
        if v is not None and v not in POLICIES:
            self.fail(self.line(self.child(node, k)),
                      f"{what}: {k} must be one of {', '.join(POLICIES)}, "
                      f"not {v!r}")
        return v

    def seq(self, doc, node, k):
        v = doc.get(k)
        n = self.child(node, k)
        if v is None:
            return [], []
        if not isinstance(v, list):
            self.fail(self.line(n), f"{k}: a list is needed, not {_kind(v)}")
        return v, list(n.value)


def _kind(v) -> str:
    return {dict: "a mapping", list: "a list", str: "a string",
            type(None): "nothing"}.get(type(v), type(v).__name__)


def _value_rule(c, i, doc, node):
    what = f"values rule {i}"
    c.mapping(doc, node, _VALUE_KEYS, what)
    r = Rule(number=i, line=c.line(node),
             test=c.glob(doc, node, "test", what),
             key=c.glob(doc, node, "key", what),
             event=c.glob(doc, node, "event", what),
             abs=c.number(doc, node, "abs", what),
             rel=c.number(doc, node, "rel", what),
             ignore=c.flag(doc, node, "ignore", what),
             regression=c.flag(doc, node, "regression", what))
    if r.abs is None and r.rel is None and not r.ignore and \
            not r.regression:
        c.fail(r.line, f"{what}: says nothing: give abs, rel, ignore: "
                       "true or regression: true")
    if r.ignore and (r.abs is not None or r.rel is not None or
                     r.regression):
        c.fail(r.line, f"{what}: ignore: true with a tolerance or "
                       "regression: choose one")
    return r


def _test_rule(c, i, doc, node):
    what = f"tests rule {i}"
    c.mapping(doc, node, _TEST_KEYS, what)
    r = TestRule(number=i, line=c.line(node),
                 test=c.glob(doc, node, "test", what),
                 skipped=c.policy(doc, node, "skipped", what),
                 missing=c.policy(doc, node, "missing", what))
    if r.skipped is None and r.missing is None:
        c.fail(r.line, f"{what}: says nothing: give skipped or missing")
    return r


def from_text(text, path="(text)") -> Tolerances:
    """Reads and validates a tolerance file's text."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        where = f"{path}:{line}" if line else str(path)
        raise ToleranceError(f"{where}: not valid YAML: "
                             + " ".join(str(e).split())) from None
    c = _Checker(path, node)
    doc = {} if doc is None else doc
    c.mapping(doc, node, _TOP, "the file")
    dnode = c.child(node, "defaults")
    d = doc.get("defaults") or {}
    c.mapping(d, dnode, _DEFAULT_KEYS, "defaults")
    tol = Tolerances(path=str(path),
                     default=Rule(abs=c.number(d, dnode, "abs", "defaults"),
                                  rel=c.number(d, dnode, "rel", "defaults"),
                                  line=c.line(dnode)),
                     skipped=c.policy(d, dnode, "skipped", "defaults")
                     or "regression",
                     missing=c.policy(d, dnode, "missing", "defaults")
                     or "regression")
    items, nodes = c.seq(doc, node, "values")
    tol.values = [_value_rule(c, i + 1, v, n)
                  for i, (v, n) in enumerate(zip(items, nodes))]
    items, nodes = c.seq(doc, node, "tests")
    tol.tests = [_test_rule(c, i + 1, v, n)
                 for i, (v, n) in enumerate(zip(items, nodes))]
    hnode = c.child(node, "headers")
    h = doc.get("headers") or {}
    c.mapping(h, hnode, ("ignore",), "headers")
    ign, _ = c.seq(h, hnode, "ignore")
    for g in ign:
        if not isinstance(g, str):
            c.fail(c.line(hnode), f"headers: ignore: {g!r} is not a glob "
                                  "string")
    tol.header_ignore = list(ign)
    words, _ = c.seq(doc, node, "addresses")
    for w in words:
        if not isinstance(w, str) or not w.strip():
            c.fail(c.line(c.child(node, "addresses")),
                   f"addresses: {w!r} is not a word")
    tol.address_words = list(words)
    return tol


def load(path) -> Tolerances:
    """Reads and validates the tolerance file at path."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ToleranceError(f"{path}: cannot read: "
                             f"{getattr(e, 'strerror', None) or e}") from None
    return from_text(text, path)
