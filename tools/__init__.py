"""tools: pmu-harness's host tools, one folder per product (tools/README.md).

The Python is one package: run a tool as a module from the repository's
root, `python3 -m tools.check.matrix`, or through its wrapper,
tools/lab/pmu-harness.  Nothing here changes sys.path.
"""
