"""gitcontext: keep the why of every instruction in agent context files, in git."""

__version__ = "0.1.0"
