from engine.text.confusables import INVISIBLE_CHARACTERS, without_invisible_controls


def test_every_invisible_character_is_removed_and_nothing_else() -> None:
    invisible = "".join(sorted(INVISIBLE_CHARACTERS))
    assert without_invisible_controls(f"ge{invisible}ração") == "geração"
    neighbours = {chr(ord(c) + step) for c in INVISIBLE_CHARACTERS for step in (-1, 1)}
    kept = "".join(sorted(neighbours - INVISIBLE_CHARACTERS))
    assert without_invisible_controls(kept) == kept


def test_ascii_text_is_returned_as_it_is() -> None:
    text = "plain text"
    assert without_invisible_controls(text) is text
