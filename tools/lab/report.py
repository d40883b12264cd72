"""pmu-harness report: PLACEHOLDER, replaced by the helper building it."""

from . import common


def add_parser(sub):
    p = sub.add_parser("report", help="(not built yet)")
    p.set_defaults(run=run)
    return p


def run(args):
    common.warn("report", "not built yet")
    return common.EXIT_USAGE
