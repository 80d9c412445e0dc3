"""Whether a published sentence is whole: it neither starts nor ends mid-sentence.

A statement cut out of a page too early ("… ($35 million net of") or too late ("$406 million
in 2018, compared to …" after "increased working capital by") reads as a fragment. What the
text alone can tell is decided here:

- an end: a sentence closes on ". ! ?" (a closing quote or bracket may follow, and a citation
  marker "[1]"); a legal list item on ";" or ":" or "; e" / "; ou" / "; and" / "; or"; a
  table row the extractive model builds ("Revenue — 2019: $42,879; 2018: $42,151") or prints
  ("Gross profit 2,725 2,820") on its last figure; a heading or label on its last word. An
  ellipsis, a comma, an open bracket or a word that needs a next one ("of", "the", "de", "e")
  end nothing.
- a start: a lowercase first letter (a name such as "iPhone" aside, and a list marker "a)",
  "ii."), or punctuation that continues something (", ; : ) …  —").

A start that reads well but follows an unfinished sentence on its page ("$406 million in
2018, …") can only be told with the page: `ends_a_sentence` says whether the text before a
unit ends one. Pure functions.
"""

from __future__ import annotations

import re

from engine.text.normalise import collapse_whitespace

# Words that cannot end a sentence: articles, prepositions, conjunctions (en, pt).
# fmt: off
DANGLING_WORDS = frozenset(
    {
        # English
        "a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "from", "with", "into",
        "onto", "over", "under", "than", "as", "and", "or", "nor", "but", "that", "which",
        "whose", "who", "whom", "whether", "if", "because", "while", "including", "excluding",
        "between", "among", "per", "via", "such", "its", "their", "our", "his", "her", "this",
        "these", "those", "is", "are", "was", "were", "be", "been", "has", "have", "had",
        "will", "would", "not", "net", "compared", "versus", "vs", "plus", "minus", "about",
        "approximately", "through", "during", "within", "without", "against", "toward",
        "towards", "upon", "where", "when",
        # Portuguese
        "o", "os", "um", "uma", "uns", "umas", "de", "do", "da", "dos", "das", "em",
        "no", "na", "nos", "nas", "ao", "aos", "à", "às", "por", "pelo", "pela", "pelos",
        "pelas", "para", "com", "sem", "sob", "sobre", "entre", "e", "ou", "mas", "que",
        "qual", "quais", "cujo", "cuja", "se", "seu", "sua", "seus", "suas", "num",
        "numa", "dum", "duma", "até", "após", "desde", "conforme", "mediante", "perante",
        "é", "são", "foi", "será", "ser", "mais", "menos",
    }
)
# fmt: on

_CITATION = re.compile(r"\s*(?:\[\^?\d+(?:\s*[,–-]\s*\d+)*\]|\(\d+\))\s*$")
_CLOSERS = "\"'”’»)]}"
_OPENERS = "\"'“‘«([{"
_SENTENCE_END = re.compile(r"[.!?](?:[" + re.escape(_CLOSERS) + r"])*$")
_ELLIPSIS = re.compile(r"(?:\.\.\.|…)[" + re.escape(_CLOSERS) + r"]*$")
# A legal item's end: "...;", "...:", "...; e", "...; ou", "...; and", "...; or".
_LIST_ITEM_END = re.compile(r"(?:[;:]|;\s+(?:e|ou|and|or))$", re.IGNORECASE)
# "Label — period: value; period: value", the row statement the extractive model builds.
_ROW_STATEMENT = re.compile(r"^[^\n—]+ — [^;:]+: [^;]+(?:; [^;:]+: [^;]+)*$")
_FIGURE = re.compile(r"^\(?[-−]?(?:R\$|US\$|[$€£])?\d(?:[\d,.]*\d)?\)?%?$")
_CELL_FILLERS = frozenset({"$", "—", "–", "-", "%", "€", "£", "R$", "US$"})
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?")
# A list marker before a lowercase item: "a)", "(b)", "ii.", "iv)", "(i)".
_LIST_MARKER = re.compile(r"^(?:\(?[a-z]{1,4}[).]|\([a-z]{1,4}\))\s", re.IGNORECASE)
_NAME_WITH_LOWER_START = re.compile(r"^[a-z]+[A-Z]")  # iPhone, eBay, iOS
_BULLET = re.compile(r"^(?:[-*•]\s+)+")
_CONTINUING_START = re.compile(r"^(?:[,;:)\]}]|\.\.\.|…|[—–](?!\s*\d))")
MAX_HEADING_WORDS = 12
MAX_ROW_LABEL_WORDS = 10


def _core(text: str) -> str:
    text = collapse_whitespace(text)
    text = _CITATION.sub("", text)
    return _BULLET.sub("", text).strip()


def starts_mid_sentence(text: str) -> bool:
    """What the text alone tells of its start: a lowercase first letter (not a name like
    "iPhone", not a list marker "a)"), or punctuation that continues a sentence."""
    text = _core(text)
    if not text or _CONTINUING_START.match(text):
        return bool(text)
    if _LIST_MARKER.match(text):
        return False
    opened = text.lstrip(_OPENERS + " ")
    if not opened or _CONTINUING_START.match(opened):
        return bool(opened)
    first = opened[0]
    return first.isalpha() and first.islower() and not _NAME_WITH_LOWER_START.match(opened)


def is_table_line(text: str) -> bool:
    """A label and the figures of its row: "Gross profit 2,725 2,820", "Effective tax rate
    22.9%", "Capital spending (4,625) (4,240)"."""
    words = text.split()
    figures = 0
    while words and (words[-1] in _CELL_FILLERS or _FIGURE.match(words[-1])):
        figures += words.pop() not in _CELL_FILLERS
    if not figures or not words or not _LETTER.search(" ".join(words)):
        return False
    if words[-1].lower().strip(",") in DANGLING_WORDS or words[-1].endswith(","):
        return False
    return figures >= 2 or len(words) <= MAX_ROW_LABEL_WORDS


def _is_heading(text: str) -> bool:
    """A title or label: few words, each content word capitalised ("Consolidated Statements
    of Cash Flows", "CAPÍTULO II — DA GUARDA DE REGISTROS", "Item 7. Management's …")."""
    words = _WORD.findall(text)
    if not words or len(text.split()) > MAX_HEADING_WORDS:
        return False
    content = [w for w in words if w.lower() not in DANGLING_WORDS]
    return words[0][0].isupper() and all(w[0].isupper() for w in content)


def ends_mid_sentence(text: str) -> bool:
    """What the text alone tells of its end: no closing punctuation, and it is neither a
    legal list item, a table row nor a heading."""
    text = _core(text)
    if not text:
        return True
    if _ELLIPSIS.search(text):
        return True
    if _SENTENCE_END.search(text) or _LIST_ITEM_END.search(text):
        return False
    if _ROW_STATEMENT.match(text) or is_table_line(text):
        return False
    last = text.split()[-1]
    if last[-1] in ",(–—-/" or last.lower() in DANGLING_WORDS:
        return True
    return not _is_heading(text)


def is_fragment(text: str) -> bool:
    """A published sentence that starts or ends mid-sentence, told from its text alone."""
    return starts_mid_sentence(text) or ends_mid_sentence(text)


def ends_a_sentence(before: str) -> bool:
    """Whether the page text `before` a unit ends a sentence or a block, so that the unit
    starts one: nothing before, end punctuation (or ";" ":" of a list), a blank line, or a
    line that stands alone (a heading, a table row) rather than one wrapped mid-sentence."""
    stripped = before.rstrip(" \t\u00a0")
    if not stripped.strip():
        return True
    if stripped.endswith("\n"):
        body = stripped.rstrip()
        if "\n\n" in stripped[len(body) :]:
            return True
        last_line = body.rsplit("\n", 1)[-1].strip()
        return not continues_on_next_line(last_line)
    tail = stripped.rstrip(_CLOSERS)
    return tail.endswith((".", "!", "?", ";", ":")) and not _ELLIPSIS.search(stripped)


def continues_on_next_line(line: str) -> bool:
    """A line wrapped mid-sentence: it ends on a comma, an open bracket or a word that needs
    a next one, or it is prose with no closing punctuation."""
    if not line:
        return False
    if _SENTENCE_END.search(line) or line.endswith((";", ":")):
        return False
    last = line.split()[-1]
    if last[-1] in ",(–—-/" or last.lower() in DANGLING_WORDS:
        return True
    return not (_is_heading(line) or is_table_line(line) or _ROW_STATEMENT.match(line))


def capitalised(text: str) -> str:
    """`text` with its first letter upper case, as a sentence opens."""
    return text[:1].upper() + text[1:]
