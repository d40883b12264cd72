"""lab: the modules behind tools/pmu-harness (docs/lab.md)."""
