"""Golden cases are data, not tests: a sample repository's own test_*.py files must never be collected."""
collect_ignore_glob = ["*"]
