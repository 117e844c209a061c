"""Plain `nn.Module` nets that turn triples into one plausibility logit each, usable without Lightning."""
