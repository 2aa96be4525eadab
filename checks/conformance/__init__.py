"""Conformance: vectors, the adapter protocol, and the differential search."""
