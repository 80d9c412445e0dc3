"""What changed since the previous report of a brief: `changes_between` (pure) compares two
reports, `with_changes` makes the new one carry its changes, resealed, `explain_gone` tells
why each gone figure, finding or source is gone by re-reading its current source, and
`check_changes` is what `fonte verify` checks of them."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
