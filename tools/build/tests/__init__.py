"""Tests of tools/build/ (unittest; run by pytest, make check: docs/check.md)."""
