"""WordNet noun hierarchy, word-sense disambiguation and the abstractions of events."""
