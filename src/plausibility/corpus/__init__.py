"""Raw text to subject-verb-object triples: readers, parsers, the extraction rule, filters, negatives."""
