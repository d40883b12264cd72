"""Tests of tools/check/ (unittest; run by tools/testing/run.py)."""
