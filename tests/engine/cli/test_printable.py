import pytest

from engine.cli.printable import printable


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
