"""lava: the LAVA job definitions and `make lava` (run.py, README.md)."""
