"""Tests of tools/lab/ (unittest; run by tools/testing/run.py)."""
