import pytest

from engine.cli.printable import escaped, printable


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("report\x1b[2J\x1b[31m.md", "report.md"),  # clear screen, colour
        ("a\x1b]0;owned\x07b", "ab"),  # window title
        ("x\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\y", "xlinky"),  # hyperlink
        ("bell\x07 back\x08space \x9b31m8-bit", "bell backspace 31m8-bit"),
        ("tabs\tand\nnewlines stay", "tabs\tand\nnewlines stay"),
        ("acentuação — ok", "acentuação — ok"),
    ],
)
def test_control_sequences_never_reach_the_terminal(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def test_bidi_characters_are_shown_as_escapes() -> None:
    assert printable("relatório\u202efdp.md") == "relatório\\u202efdp.md"
    assert printable("a\u2066b\u2069c\u200f") == "a\\u2066b\\u2069c\\u200f"


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("ok.md\nunreadable: ok.md: corrupted", "ok.md\\nunreadable: ok.md: corrupted"),
        ("tab\there\r", "tab\\there\\r"),
        ("esc\x1b[2Jx", "esc\\x1b[2Jx"),
        ("txt.\u202egpj.exe", "txt.\\u202egpj.exe"),
        ("line\u2028sep", "line\\u2028sep"),
        ("acentuação — ok", "acentuação — ok"),
    ],
)
def test_a_name_is_escaped_onto_one_line(name: str, shown: str) -> None:
    assert escaped(name) == shown
