"""Text rules everything else shares: tokens, query vocabulary, normalisation for matching,
numbers, and the language of a question. Pure functions; this package imports nothing else of
the engine."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
