"""Tests of tools/build/ (unittest; run by tools/testing/run.py)."""
