"""Where text comes from: search and read protocols and their implementations, and the kind
of source each one is (`SourceKind`, its parts `Origin`s: engine/sources/kinds.py)."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
