"""`escaped`: every control and bidi character a name or a title carries is shown as an
escape, and nothing else changes."""

from __future__ import annotations

import pytest

from engine.text import escaped

UNSHOWABLE = [
    *map(chr, range(0x00, 0x20)),  # C0
    "\x7f",
    *map(chr, range(0x80, 0xA0)),  # C1
    *map(chr, range(0x202A, 0x202F)),  # embeddings and overrides
    *map(chr, range(0x2066, 0x206A)),  # isolates
    "\u200e",
    "\u200f",
    "\u061c",
    "\u2028",
    "\u2029",
]


@pytest.mark.parametrize("char", UNSHOWABLE, ids=lambda char: f"U+{ord(char):04X}")
def test_each_control_and_bidi_character_is_written_as_its_escape(char: str) -> None:
    code = ord(char)
    escape = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    )
    assert escaped(f"contrato{char}fdp.exe") == f"contrato{escape}fdp.exe"


def test_letters_accents_and_punctuation_stay_as_they_are() -> None:
    name = "Relatório anual — 2024 (versão final) «ok» 財務.pdf"
    assert escaped(name) == name
