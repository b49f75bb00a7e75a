"""The audit checks, one module each: `CHECK = Check(...)` and `run(ctx) -> Iterator[Finding]`."""
