"""`git context demo`: a sample repository whose CLAUDE.md grew over several commits, and a walk of the flow."""
