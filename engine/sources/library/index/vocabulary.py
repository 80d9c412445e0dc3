"""The library index's one vocabulary: token -> term id, append-only.

Segments store term ids, so ids never change: a new token gets the next id, a token no
document uses any more keeps its id. Saved as UTF-8 text, one token a line (tokens hold no
whitespace), which loads far faster than JSON.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.disk import write_atomically


class Vocabulary:
    def __init__(self, tokens: list[str] | None = None) -> None:
        self.tokens: list[str] = list(tokens or [])
        self.ids: dict[str, int] = {token: number for number, token in enumerate(self.tokens)}

    def __len__(self) -> int:
        return len(self.tokens)

    def id_of(self, token: str) -> int:
        """The id of `token`, a new one when it is new."""
        number = self.ids.get(token)
        if number is None:
            number = self.ids[token] = len(self.tokens)
            self.tokens.append(token)
        return number

    def ids_of(self, tokens: tuple[str, ...]) -> npt.NDArray[np.int64]:
        """The ids of `tokens`, new ones given to the tokens not yet known."""
        found = list(map(self.ids.get, tokens))  # a C loop: this runs once per indexed file
        if None in found:
            found = [
                self.id_of(token) if number is None else number
                for token, number in zip(tokens, found, strict=True)
            ]
        return np.array(found, dtype=np.int64)

    def save(self, path: Path) -> None:
        write_atomically(path, "\n".join(self.tokens).encode("utf-8"))

    @classmethod
    def load(cls, path: Path, size: int) -> Vocabulary | None:
        """The first `size` tokens saved at `path`; None when the file holds fewer."""
        if size == 0:
            return cls()
        try:
            tokens = path.read_bytes().decode("utf-8").split("\n")
        except (OSError, UnicodeDecodeError):
            return None
        if len(tokens) < size:
            return None
        return cls(tokens[:size])
