"""Whether what OCR read where an excerpt sits says the same as the excerpt (pure).

Both sides are cut into words the way the matcher reads them (NFKC, casefolded, dashes and
quotes folded, `engine.text.normalise`), and only letters and digits count within a word.
The words are aligned in order (`difflib`, no junk heuristic); then each difference is
judged:

- a NUMBER must be read exactly: every run of digits of the excerpt, with its separators,
  is in what was read, in the same order, and what was read holds no other number between
  the excerpt's first and last word. "1,204" against "1,294", "1.204" or "1204" is not seen.
- a word may be misread by OCR: a group of words of the excerpt read as another group
  (split or joined words, "rn" read as "m") agrees when their letters are within
  `MAX_EDIT_SHARE` of edits of each other (at least one edit is always allowed) and no
  edit removes or adds a run of more than `MAX_GAP` letters (a hidden "not" inside a word
  glued by the text layer is three letters no OCR noise explains).
- a word of the excerpt that nothing was read for is not seen (the hidden word of an
  excerpt: "did not" where the page shows "did"), unless it is one letter (OCR drops
  stray ones); a word read that the excerpt does not have is noise only when it is at most
  `MAX_NOISE_CHARS` long and holds no digit, or when it is a fragment at the edge of a
  strip (`edges`: the crop of a line may graze the glyph beside it).

Why these thresholds: Tesseract on text rendered at 300 DPI misreads one or two letters in
a hundred (its own benchmarks put the fast English model near 2% character error on clean
print); one edit per five letters leaves room for a misread word while a replaced word
("profit" for "loss") is far past it.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_EDIT_SHARE = 0.2
"""Edits allowed per letter when a group of words was misread."""
MAX_GAP = 2
"""The longest run of letters an OCR misreading may drop or add inside a group of words."""
MAX_NOISE_CHARS = 2
"""A word read that the excerpt lacks is noise (a speck, a rule) up to this length."""
NOTHING = "nothing of it is drawn there"
_SLACK = 3
_MAX_PART = 8
"""Words either side of a window on a page read whole."""

_LOOK_ALIKES = str.maketrans({"l": "1", "i": "1", "o": "0"})
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_FOLD = str.maketrans(
    dict.fromkeys("‐‑‒–—―−﹣－", "-") | dict.fromkeys("‘’‚‛′", "'") | dict.fromkeys("“”„‟″", '"')
)


@dataclass(frozen=True)
class Word:
    """A word read: its text, and whether it stands at the edge of a strip of the crop."""

    text: str
    edge: bool = False


def words_of(text: str) -> list[str]:
    """The words of `text` as compared: NFKC, casefolded, each with its punctuation, empty
    ones (punctuation only) left out."""
    folded = unicodedata.normalize("NFKC", text).translate(_FOLD).casefold()
    return [word for word in folded.split() if core(word)]


def disagreement(
    excerpt: str, read: Sequence[Word], markers: Mapping[int, str] | None = None
) -> str | None:
    """Why what was read does not say `excerpt` (one line), or None when it does.

    `markers`: the words of `excerpt` (by their index in `words_of`) that end in a footnote
    marker the page draws small and raised (`footnote_markers`), each as a reader reads it
    without the marker ("" for a marker standing alone). The excerpt then agrees too when
    what was read says it so: the marker dropped, or read as a quote mark, or read right."""
    wanted = words_of(excerpt)
    if not wanted:
        return None
    got = [Word(word, item.edge) for item in read for word in words_of(item.text)]
    if not got:
        return NOTHING
    problem = _disagreement(wanted, got)
    if problem is None or _same_letters(wanted, got):
        return None
    if not markers:
        return problem
    unmarked = [w for i, word in enumerate(wanted) for w in words_of(markers.get(i, word))]
    read_plain = [Word(w, item.edge) for item in got for w in _unmarked(item.text, wanted, markers)]
    return problem if _disagreement(unmarked, read_plain) else None


def _unmarked(read: str, wanted: Sequence[str], markers: Mapping[int, str]) -> list[str]:
    """A word read as a reader reads it when it is a marked word of the excerpt with its
    marker read right, in part, or not at all ("operational'3" for "Operational1,3")."""
    shown = core(read)
    for index, plain in markers.items():
        stem, whole = "".join(core(w) for w in words_of(plain)), core(wanted[index])
        digits = whole[len(stem) :]
        marked = whole.startswith(stem) and shown.startswith(stem) and shown != stem
        if marked and _within(shown[len(stem) :], digits):
            return words_of(plain)
    return [read]


def _within(part: str, digits: str) -> bool:
    """Whether `part` is `digits` with some of them left out."""
    remaining = iter(digits)
    return all(char in remaining for char in part)


def _same_letters(wanted: Sequence[str], got: Sequence[Word]) -> bool:
    """Whether what was read holds exactly the excerpt's letters and digits, in order, and
    its numbers with their separators, once stray fragments at the ends are left out: words
    the text layer glued ("Sharesauthorized3,100;Sharesissued:2,300") that the word
    alignment cannot pair with what a reader sees ("Shares authorized 3,100; Shares issued:
    2,300")."""
    start, end = 0, len(got)
    while start < end and _stray(got[start]):
        start += 1
    while end > start and _stray(got[end - 1]):
        end -= 1
    shown = [w.text for w in got[start:end]]
    if "".join(core(w) for w in wanted) != "".join(core(w) for w in shown):
        return False
    return _numbers_differ(wanted, shown) is None


def _stray(word: Word) -> bool:
    found = core(word.text)
    return word.edge and len(found) <= MAX_NOISE_CHARS and not _digits(found)


def _disagreement(wanted: Sequence[str], got: Sequence[Word]) -> str | None:
    matcher = difflib.SequenceMatcher(
        None, [core(w) for w in wanted], [core(w.text) for w in got], autojunk=False
    )
    opcodes = matcher.get_opcodes()
    first = next((i for i, op in enumerate(opcodes) if op[0] != "insert"), None)
    last = next((i for i in range(len(opcodes) - 1, -1, -1) if opcodes[i][0] != "insert"), None)
    if first is None or last is None:
        return NOTHING
    matched: list[str] = []
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "insert":
            if first <= index <= last:
                problem = _noise(got[j1:j2])
                if problem:
                    return problem
            continue
        if tag == "delete":
            missing = [w for w in wanted[i1:i2] if len(core(w)) > 1 or _digits(w)]
            if missing:
                return f"the page does not show {' '.join(missing)!r} there"
            continue
        if tag == "replace":
            j1, j2 = _best_part(wanted[i1:i2], got, j1, j2)
            if _look_alike(wanted[i1:i2], [w.text for w in got[j1:j2]]):
                matched += wanted[i1:i2]  # "(l)" or "(i)" read as "(1)": the excerpt's text
                continue
            problem = _misread(wanted[i1:i2], [w.text for w in got[j1:j2]])
            extra = [w for w in got[opcodes[index][3] : j1]] + [
                w for w in got[j2 : opcodes[index][4]]
            ]
            problem = problem or (None if index in (first, last) else _noise(extra))
            if problem:
                return problem
        matched += [w.text for w in got[j1:j2]]
    return _numbers_differ(wanted, matched)


def _noise(words: Sequence[Word]) -> str | None:
    for word in words:
        found = core(word.text)
        if word.edge and len(found) <= MAX_NOISE_CHARS:
            continue
        if len(found) > MAX_NOISE_CHARS or _digits(found):
            return f"the page shows {word.text!r} where the excerpt has nothing"
    return None


def _best_part(wanted: Sequence[str], got: Sequence[Word], j1: int, j2: int) -> tuple[int, int]:
    """The part of `got[j1:j2]` closest to the words `wanted` (words either side of it are
    then extra words read, judged as noise or as the strip's surroundings)."""
    if j2 - j1 > _MAX_PART:
        return j1, j2
    said = "".join(core(w) for w in wanted)
    best = (j1, j2)
    best_cost = _edits(said, "".join(core(w.text) for w in got[j1:j2]))[0]
    for start in range(j1, j2):
        for end in range(start + 1, j2 + 1):
            cost = _edits(said, "".join(core(w.text) for w in got[start:end]))[0]
            if cost < best_cost:
                best, best_cost = (start, end), cost
    return best


def _look_alike(wanted: Sequence[str], got: Sequence[str]) -> bool:
    """Whether the words read differ from the excerpt's only where a letter of the excerpt
    looks like a digit ("l", "i", "I" read as "1"; "o", "O" as "0"): a list marker "(l)" or
    a roman "(i)" that OCR read as "(1)" is the same text, not a number the page shows."""
    said = "".join(core(w) for w in wanted)
    shown = "".join(core(w) for w in got)
    return said != shown and said.translate(_LOOK_ALIKES) == shown.translate(_LOOK_ALIKES)


def _misread(wanted: Sequence[str], got: Sequence[str]) -> str | None:
    said, shown = "".join(core(w) for w in wanted), "".join(core(w) for w in got)
    if _digits(said) != _digits(shown):
        return f"the page shows {' '.join(got)!r} where the excerpt says {' '.join(wanted)!r}"
    distance, gap = _edits(said, shown)
    if distance > max(1, round(MAX_EDIT_SHARE * len(said))) or gap > MAX_GAP:
        return f"the page shows {' '.join(got)!r} where the excerpt says {' '.join(wanted)!r}"
    return None


def _numbers_differ(wanted: Sequence[str], matched: Sequence[str]) -> str | None:
    said = [n for w in wanted for n in _NUMBER.findall(w)]
    shown = [n for w in matched for n in _NUMBER.findall(w)]
    at = 0
    for number in said:
        taken = _read_as(number, shown[at:])
        if taken == 0:
            seen = shown[at] if at < len(shown) else "no number"
            return f"the page shows {seen} where the excerpt says {number}"
        at += taken
    if at < len(shown):
        return f"the page shows {shown[at]} where the excerpt has no number"
    return None


def _read_as(number: str, shown: Sequence[str]) -> int:
    """How many numbers read at the start of `shown` make `number` exactly (0: none do).
    One number, or several that OCR split where `number` has a separator ("4 869" for
    "4,869": the comma read as a gap); never other digits nor another separator."""
    built = ""
    for count, part in enumerate(shown, start=1):
        if built:
            separator = number[len(built) : len(built) + 1]
            if separator not in (".", ","):
                return 0
            built += separator
        built += part
        if built == number:
            return count
        if not number.startswith(built):
            return 0
    return 0


def _edits(a: str, b: str) -> tuple[int, int]:
    """Levenshtein distance of `a` and `b`, and the longest run of insertions or deletions
    on a cheapest path (of those, the one with the shortest such run)."""
    # Each cell: (distance, longest run so far, run ending here).
    previous = [(j, j, j) for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        current = [(i, i, i)]
        for j in range(1, len(b) + 1):
            diagonal, up, left = previous[j - 1], previous[j], current[j - 1]
            options = (
                (diagonal[0] + (a[i - 1] != b[j - 1]), diagonal[1], 0),
                (up[0] + 1, max(up[1], up[2] + 1), up[2] + 1),
                (left[0] + 1, max(left[1], left[2] + 1), left[2] + 1),
            )
            current.append(min(options))
        previous = current
    return previous[-1][0], previous[-1][1]


def core(word: str) -> str:
    """The letters and digits of `word`: what is compared of it."""
    return "".join(char for char in word if char.isalnum())


def _digits(text: str) -> str:
    return "".join(char for char in text if char.isdigit())


def windows(excerpt: str, read: Sequence[Word], tries: int = 3) -> list[list[Word]]:
    """Where on a whole page read by OCR the excerpt may sit: the runs of `read` as long as
    the excerpt (and a few words either side, marked as edges) whose start most of its
    words agree with, best first. For a page read whole (a scan), not a strip."""
    wanted = [core(w) for w in words_of(excerpt)]
    flat = [Word(word) for item in read for word in words_of(item.text)]
    cores = [core(w.text) for w in flat]
    if not wanted or not cores:
        return []
    matcher = difflib.SequenceMatcher(None, wanted, cores, autojunk=False)
    votes: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        if block.size:
            votes[block.b - block.a] = votes.get(block.b - block.a, 0) + block.size
    found = []
    for offset, _ in sorted(votes.items(), key=lambda item: -item[1])[:tries]:
        start, end = max(0, offset - _SLACK), min(len(flat), offset + len(wanted) + _SLACK)
        found.append(
            [
                Word(w.text, edge=not offset <= start + i < offset + len(wanted))
                for i, w in enumerate(flat[start:end])
            ]
        )
    return found
