"""pmu-harness compare: PLACEHOLDER, replaced by the helper building it."""

from . import common


def add_parser(sub):
    p = sub.add_parser("compare", help="(not built yet)")
    p.set_defaults(run=run)
    return p


def run(args):
    common.warn("compare", "not built yet")
    return common.EXIT_USAGE
