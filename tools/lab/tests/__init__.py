"""Tests of tools/lab/ (unittest; run by pytest, make check: docs/check.md)."""
