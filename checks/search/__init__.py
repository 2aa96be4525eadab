"""Searches that tell readings apart, and the gaps, conflicts and alternatives they find."""
