"""What the writer is given and falls back to: the report written from verified claims only
(`verbatim`: the summary answering first, with `summary` and `comparison` composing its points
and changes computed in code, then sections quoting the claims, figures tables and
calculations), and the conflicts among the claims that a report must declare."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
