import os
import subprocess
import sys
from pathlib import Path

from engine.text.confusables import INVISIBLE_CHARACTERS, without_invisible_controls

ROOT = Path(__file__).resolve().parents[3]


def test_every_invisible_character_is_removed_and_nothing_else() -> None:
    invisible = "".join(sorted(INVISIBLE_CHARACTERS))
    assert without_invisible_controls(f"ge{invisible}ração") == "geração"
    neighbours = {chr(ord(c) + step) for c in INVISIBLE_CHARACTERS for step in (-1, 1)}
    kept = "".join(sorted(neighbours - INVISIBLE_CHARACTERS))
    assert without_invisible_controls(kept) == kept


def test_ascii_text_is_returned_as_it_is() -> None:
    text = "plain text"
    assert without_invisible_controls(text) is text


def test_portuguese_with_punctuation_folds_without_the_lookalike_table() -> None:
    """What NFKD leaves of Portuguese is punctuation (§ – “ ”), which the lookalike table
    does not hold: it is not built (nor its source imported) to fold it."""
    code = (
        "import sys\n"
        "from engine.text.confusables import _latin_skeleton, fold_to_latin\n"
        "folded = fold_to_latin('Art. 1º – “Geração” § 2º: potência ≤ 75 kW')\n"
        "assert folded == 'art. 1o – “geracao” § 2o: potencia ≤ 75 kw', folded\n"
        "assert _latin_skeleton.cache_info().currsize == 0\n"
        "assert 'confusable_homoglyphs' not in sys.modules\n"
        "assert fold_to_latin('Ｉgn\\u043ere') == 'ignore'\n"
        "assert _latin_skeleton.cache_info().currsize == 1\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
