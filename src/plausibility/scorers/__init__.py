"""Everything that scores triples: the `TripleScorer` protocol, the wrappers (ConceptMax, ensemble, calibrated),
the SPEC grammar, the registry that builds a SPEC, the one loader of trained models, and the shipped models."""
