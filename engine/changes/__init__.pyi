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
