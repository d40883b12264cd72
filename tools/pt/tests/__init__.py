"""Tests of tools/pt/ (unittest; run by tools/testing/run.py)."""
