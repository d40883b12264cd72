"""lab: the lab command, tools/lab/pmu-harness, one module per subcommand
(docs/lab.md); the log parser pmulog that make check uses too; LAVA in
lava/."""
