"""Tests of the developer tooling (``scoring/devtools/``): the league generator, the
benchmark, the parallel-workers race, and the rule that production code never imports
the tooling. Helpers only these tests need live here too (``canonical``)."""
