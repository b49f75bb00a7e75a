"""One module per audit check (see gitcontext.audit.registry for the table)."""
