"""The provenance store: notes, events, their fold, trailers, and the identity of live instructions."""
