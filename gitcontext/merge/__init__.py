"""The merge driver: notes union by eid, ledgers union by id, context files instruction by instruction."""
