"""The audit: findings with stable ids over what each agent loads (views), from provenance and history."""
