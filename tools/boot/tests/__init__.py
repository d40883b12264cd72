"""Tests of tools/boot/ (unittest; run by pytest, make check: docs/check.md)."""
