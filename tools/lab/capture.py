"""pmu-harness capture: PLACEHOLDER, replaced by the helper building it."""

from . import common


def add_parser(sub):
    p = sub.add_parser("capture", help="(not built yet)")
    p.set_defaults(run=run)
    return p


def run(args):
    common.warn("capture", "not built yet")
    return common.EXIT_USAGE
