"""Owner rulings and asks: an append-only decision ledger in `.context/` that refuses to re-ask settled questions."""
