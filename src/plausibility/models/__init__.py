"""Plausibility models over a Hugging Face encoder: nets, the Lightning system, data and checkpoints."""
