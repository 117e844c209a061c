"""Turning a trained model or an ensemble into a shipped artefact: its folder, figures, calibration and card."""
