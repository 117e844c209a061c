"""`plausibility serve`: loaded scorers over HTTP, a JSON API and a page to explore events, models and grids."""
