"""Human-judged benchmark sets of events: Pep-3k and 20Q, each in a valid and a test half."""
