"""Classic and zero-shot baselines, each a `TripleScorer`."""
