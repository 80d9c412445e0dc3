"""What changed since the previous report of a brief: `changes_between` (pure) compares two
reports, `with_changes` makes the new one carry its changes, resealed, and `explain_gone`
tells why each gone figure, finding or source is gone by re-reading its current source."""

from engine.changes.absences import explain_gone, gone_reason
from engine.changes.differences import changes_between, with_changes

__all__ = ["changes_between", "explain_gone", "gone_reason", "with_changes"]
