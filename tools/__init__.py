"""tools: pmu-harness's host tools, one folder per product (tools/README.md).

The Python is one package: a tool runs as a module from the repository's
root (`python3 -m tools.check.matrix`); the lab command's wrapper,
tools/lab/pmu-harness, does that from any directory.  No module changes
the module search path.
"""
