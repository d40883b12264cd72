"""build: the build's shell helpers (run by path); a package only for their
Python tests, in tests/."""
