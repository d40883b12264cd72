"""check: `make check` (docs/check.md): its pytest suite (suite/), the
plugin and queue that make it one run, and the checkers its tests run
(matrix, kill, lab, pt, layers, ...)."""
