"""Developer tooling: the league generator, the simulator and the benchmark.

Never imported by production code; only the tooling management commands and tests use it."""
