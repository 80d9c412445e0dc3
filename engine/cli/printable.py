"""Text fit for the user's terminal, whatever a page or a file name carried."""

from __future__ import annotations

import re

# Escape sequences (CSI, OSC and other ESC forms, 7- and 8-bit) and every other control
# character but tab and newline: a file name or a page must not drive the user's terminal.
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, screen clears
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window titles, hyperlinks
    r"|\x1b[@-_]?"  # any other ESC
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


def printable(text: str) -> str:
    """`text` without terminal control sequences or control characters."""
    return _CONTROL.sub("", text)
