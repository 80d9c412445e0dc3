"""What changed since the previous report of a brief: `changes_between` (pure) compares two
reports, `with_changes` makes the new one carry its changes, resealed, `explain_gone` tells
why each gone figure, finding or source is gone by re-reading its current source, and
`check_changes` is what `fonte verify` checks of them."""

from engine.changes.absences import explain_gone, gone_reason
from engine.changes.checks import ChangesCheck, change_problems, check_changes
from engine.changes.differences import changes_between, with_changes

__all__ = [
    "ChangesCheck",
    "change_problems",
    "changes_between",
    "check_changes",
    "explain_gone",
    "gone_reason",
    "with_changes",
]
