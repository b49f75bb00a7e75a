"""Rendering findings and changes for people (text, markdown) and machines (json, sarif, svg)."""
