"""The audit checks, one module each: `CHECK` (its stable id and name) and `run(ctx)` (its findings)."""
