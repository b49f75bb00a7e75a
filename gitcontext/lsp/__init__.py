"""`git context lsp`: a language server for context files, for the people who read and edit them.

The analysis (`buffer`, `hover`, `refusals`, `findings`, `links`, `actions`) is plain Python over the
existing discovery, segmentation, note folding, `show` and hook code, and never imports pygls; only
`server` does, and only `git context lsp` imports `server`. Whys are shown to people here, in hovers;
nothing this server produces is loaded by an executing agent.
"""
