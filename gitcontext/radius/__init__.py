"""Blast radius: churn of a change, its reach over the import graph, tiers and commit pressure."""
