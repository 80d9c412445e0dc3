"""Models behind one protocol: the offline extractive model (no key) and Claude."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
