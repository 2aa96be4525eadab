"""The questions asked of the rules (readings, gaps, conflicts, claims, FAQ, conformance)."""
