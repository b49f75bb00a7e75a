"""click lives here and only here: thin commands that call plain functions."""
