"""Tests of tools/pt/ (unittest; run by pytest, make check: docs/check.md)."""
