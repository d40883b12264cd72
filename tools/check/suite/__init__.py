"""make check as pytest tests (docs/check.md): the build, the boots of the
boot table, the SIGKILL points, the host suites, the event tables against
libpfm4, Intel PT, the layering rules and the lab tools, each a test or a
parametrized family of them.  tools/check/plugin.py is what makes them one
run: the build once for every worker, the boots' order, no SKIP, the
per-stage times."""
