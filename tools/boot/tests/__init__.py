"""Tests of tools/boot/ (unittest; run by tools/testing/run.py)."""
