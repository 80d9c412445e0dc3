"""Web search providers behind the Search protocol, and the chain that falls back among them.

`search_from_env(os.environ)` is the entry point; see `config` for the variables.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
