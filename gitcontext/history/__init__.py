"""History replay and the paper's analytics: versions, lives, growth, rewrites, hazard."""
