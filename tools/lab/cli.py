"""The pmu-harness command line: one subcommand per module of lab/.

Each subcommand module offers add_parser(subparsers) -> parser (with
set_defaults(run=FUNC)) and FUNC(args) -> exit status (lab.common's EXIT_*).
"""

import argparse
import importlib
import sys

from . import common

SUBCOMMANDS = ("capture", "parse", "junit", "report", "compare", "events",
               "detect")


class _Parser(argparse.ArgumentParser):
    def error(self, message):           # usage errors: exit status 2
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(common.EXIT_USAGE)


def build_parser(only=None):
    """The whole command line, or with only=NAME just that subcommand
    (the others' modules are not imported: a run pays for its own)."""
    p = _Parser(prog="pmu-harness",
                description="Host tools for pmu-harness logs: capture "
                "serial logs, parse, JUnit XML, an HTML report, compare "
                "runs; and the events the harness knows for a CPU.  Every "
                "subcommand judges a log alike (tools/lab/verdict.py).  "
                "Exit status: 0 all well, 1 a run failed or is no pass "
                "(compare: a regression), 77 a run tested no PMU, 3 a log "
                "that cannot be trusted (its readable part was still "
                "used), 2 bad arguments or unreadable input, 70 an "
                "internal error; which subcommand exits with which: "
                "docs/lab.md, \"Verdicts and exit statuses\".")
    sub = p.add_subparsers(dest="command", metavar="SUBCOMMAND",
                           parser_class=_Parser)
    for name in SUBCOMMANDS:
        if only in (None, name):
            importlib.import_module(f".{name}", __package__).add_parser(sub)
    return p


def main(argv):
    # A known subcommand first: only its module is imported (Python
    # compiles every module it imports when no .pyc can be written).
    p = build_parser(argv[0] if argv and argv[0] in SUBCOMMANDS else None)
    args = p.parse_args(argv)
    if not getattr(args, "run", None):
        p.print_help(sys.stderr)
        return common.EXIT_USAGE
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("pmu-harness: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return common.EXIT_OK
    except Exception as e:          # noqa: BLE001 -- a bug, said as one
        # Python's own status for an uncaught exception is 1, which here
        # means "a run failed" or "a regression": a crash must not read
        # as a verdict on the logs.
        print(f"pmu-harness {args.command}: internal error: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        return common.EXIT_INTERNAL


if __name__ == "__main__":      # tools/lab/pmu-harness runs this
    sys.exit(main(sys.argv[1:]))
