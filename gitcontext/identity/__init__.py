"""Instruction identity across versions: matchers, ids and the instruction-level diff."""
