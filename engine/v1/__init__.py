"""The v1 baseline: five roles in sequence (researcher, analyst, writer, reviewer, editor),
kept as an architecture to compare the final one with (`architecture="v1"` in the report)."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
