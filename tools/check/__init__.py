"""check: `make check`'s stage scheduler (check.py) and the stages it runs
(docs/check.md)."""
