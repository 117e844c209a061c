"""Where every model, lexicon and data file comes from: the offline defaults, or any id or path given.

One module per resource; each fails with a one-line error that says how to install what is missing.
"""
