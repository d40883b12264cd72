"""Tests of tools/check/ (unittest; run by pytest, make check: docs/check.md)."""
