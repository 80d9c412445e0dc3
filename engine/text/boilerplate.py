"""Boilerplate: text a filing or a law prints that answers no question about its subject.

An auditor's opinion ("We have audited the accompanying consolidated balance sheets…"), the
signatures and the power of attorney ("…hereby constitute and appoint…"), the notice on
forward-looking statements, a table of contents, a footnote's explanation without a figure,
and a label line ("Operating income margin and earnings per share – diluted:") all pass an
excerpt check, since they are really on the page, and still fail the client quoted as a
finding. `boilerplate_kind` names which one a unit of text is; `asked_about` says when a
question is about that very thing (who audited the company, who signed the report), the one
case where it is the answer. Both languages. Pure.
"""

from __future__ import annotations

import functools
import re
from enum import StrEnum

from engine.text.normalise import collapse_whitespace
from engine.text.quantities import quantities_stated

__all__ = ["Boilerplate", "asked_about", "boilerplate_kind"]


class Boilerplate(StrEnum):
    audit_opinion = "audit opinion"
    signatures = "signatures or power of attorney"
    forward_looking = "forward-looking statements notice"
    contents = "table of contents"
    footnote = "footnote"
    label_line = "label line"


_AUDIT_OPINION = re.compile(
    r"\bwe have audited\b|\bwe conducted our audits?\b|\bour responsibility is to express an "
    r"opinion\b|\bpresent fairly,? in all material respects\b|\bin our opinion,? the "
    r"(?:consolidated )?financial statements\b|\breport of independent registered public "
    r"accounting firm\b|\bstandards of the public company accounting oversight board\b|"
    r"\bexaminamos as demonstrações\b|\bem nossa opinião,? as demonstrações\b|"
    r"\brepresentam adequadamente,? em todos os aspectos relevantes\b|"
    r"\brelatório do auditor independente\b|\breasonable assurance (?:that|regarding) "
    r"(?:transactions are recorded|the reliability of financial reporting)\b|"
    r"\bmaintained,? in all material respects,? effective internal control\b",
    re.IGNORECASE,
)
_SIGNATURES = re.compile(
    r"\bhereby (?:constitutes? and appoints?|appoints?)\b|\battorneys?-in-fact\b|"
    r"\bpower of substitution\b|\bknow all (?:men|persons) by these presents\b|"
    r"\bthis report has been signed (?:below )?by\b|\bduly caused this report to be signed\b|"
    r"(?:^|\s)/s/\s|\bpor (?:meio )?d?esta procuração\b|\bnomeia e constitui\b",
    re.IGNORECASE,
)
_FORWARD_LOOKING = re.compile(
    r"\bforward-looking (?:statements?|information)\b|\bprivate securities litigation reform "
    r"act\b|\bsafe harbou?r\b|\bdeclarações (?:prospectivas|sobre o futuro)\b|"
    r"\bconsiderações sobre (?:estimativas e )?projeções\b",
    re.IGNORECASE,
)
_CONTENTS = re.compile(
    r"\.{4,}\s*\d{1,4}\b|^(?:table of contents|contents|sumário|índice)\b", re.IGNORECASE
)
_ITEM = re.compile(r"\bitem\s+\d{1,2}[a-c]?\.", re.IGNORECASE)
_CONTENTS_HEADING_CHARS = 40
_FOOTNOTE_MARK = re.compile(r"^\s*(?:\(\s*(?:\d{1,2}|[a-z])\s*\)|\*{1,3}|[¹²³⁴⁵⁶⁷⁸⁹])\s+\S")
# What a question about the thing itself names: then it is the answer, not boilerplate.
_ASKED = {
    Boilerplate.audit_opinion: re.compile(
        r"\baudit(?:or|ors|or's|ed|ing)?\b|\bopinion\b|\bauditori[ao]\b|\bauditor(?:es)?\b|"
        r"\bparecer\b",
        re.IGNORECASE,
    ),
    Boilerplate.signatures: re.compile(
        r"\bsign(?:ed|s|atures?|atory|atories)\b|\battorney\b|\bassin(?:ou|aram|atura)\b|"
        r"\bprocura(?:ção|dor)\b",
        re.IGNORECASE,
    ),
    Boilerplate.forward_looking: re.compile(
        r"\bforward-looking\b|\bsafe harbou?r\b|\bprospectiv", re.IGNORECASE
    ),
    Boilerplate.contents: re.compile(r"\bcontents\b|\bsumário\b|\bíndice\b", re.IGNORECASE),
}


@functools.lru_cache(maxsize=8192)
def boilerplate_kind(text: str) -> Boilerplate | None:
    """Which boilerplate `text` (one quotable unit) is, or None when it may be a finding.
    Kept for the units read again: the offline model asks it twice of a unit it quotes, and
    of every unit of a page it reads again (another subagent's, another copy of a text)."""
    flat = collapse_whitespace(text)
    if _AUDIT_OPINION.search(flat):
        return Boilerplate.audit_opinion
    if _SIGNATURES.search(flat):
        return Boilerplate.signatures
    if _FORWARD_LOOKING.search(flat):
        return Boilerplate.forward_looking
    if _is_contents(flat):
        return Boilerplate.contents
    # A footnote or a label line states no figure; reading the figures is the costly part,
    # so it is done only for text that looks like one of them.
    marker = _FOOTNOTE_MARK.match(flat)
    if marker:  # "(1)" is no figure
        return None if quantities_stated(flat[marker.end() - 1 :]) else Boilerplate.footnote
    if flat.endswith(":") and not quantities_stated(flat):
        return Boilerplate.label_line
    return None


def asked_about(question: str, kind: Boilerplate) -> bool:
    """Whether `question` asks about the boilerplate itself (who audited, who signed), so
    that text of that kind answers it."""
    asked = _ASKED.get(kind)
    return bool(asked and asked.search(question))


def _is_contents(flat: str) -> bool:
    """A table of contents: dotted leaders to a page number, several "Item 7." entries, or
    its heading alone."""
    if _CONTENTS.search(flat) and (len(flat) <= _CONTENTS_HEADING_CHARS or "...." in flat):
        return True
    return len(_ITEM.findall(flat)) >= 3
