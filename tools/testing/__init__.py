"""testing: what the Python tests of every tools/*/tests/ share: the runner
of make check's py stage (run.py), helpers (support.py) and fixture logs
(fixtures/, see its README.md)."""
