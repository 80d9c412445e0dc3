"""Text fit for the user's terminal, whatever a page or a file name carried.

`printable` is for messages (it keeps their tabs and newlines); `escaped` is for a name or
a title shown inside one: it writes every control, newline and bidi character as an escape,
so a file named "ok.md\\nunreadable: …" cannot forge a line of output.
"""

from __future__ import annotations

import re

from engine.text.escapes import escaped

# Escape sequences (CSI, OSC and other ESC forms, 7- and 8-bit) and every other control
# character but tab and newline: a file name or a page must not drive the user's terminal.
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, screen clears
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window titles, hyperlinks
    r"|\x1b[@-_]?"  # any other ESC
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)
# Bidirectional marks, embeddings, overrides and isolates: they reorder the text around
# them (a name "txt.\u202eexe" shown as "txt.exe…"), so they are shown as escapes instead.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

__all__ = ["escaped", "printable"]


def printable(text: str) -> str:
    """`text` without terminal control sequences or control characters, its bidi
    characters written as escapes."""
    return _BIDI.sub(lambda match: escaped(match.group()), _CONTROL.sub("", text))
