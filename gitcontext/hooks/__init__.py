"""Git hooks: a shell shim per hook calling `gitcontext.hooks.fast`, which dispatches to the checks."""
