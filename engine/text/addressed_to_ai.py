"""Text addressed to AI systems (prompt injection), in English and Portuguese here, and in
Spanish, French, German and Italian (`addressed_to_ai_languages`), as written or after an
obvious encoding is undone (`decoding`: base64, leetspeak, rot13, percent and HTML entities,
letters spaced out).

A page that talks to the model reading it is attempting prompt injection. Such text is
never a finding: the verifier rejects a claim that quotes or states it, and the offline
model skips the page unit. `addressed_to_ai` returns the words that do it, or None.

How:

1. The text is read as a person sees it (`engine.text.confusables.fold_to_latin`):
   fullwidth and mathematical letters, accents, zero-width and bidi controls, soft hyphens
   and Latin lookalikes (Cyrillic "о", Greek "ο", per Unicode TR39) are folded, so hidden
   or disguised letters cannot split a phrase.
2. Fixed phrases that only an injection uses: "ignore previous instructions", "you are now
   an AI assistant", "system prompt", "<|im_start|>", ...
3. Structure: an *addressee* - a noun phrase that names an AI system - told what to say.
   The addressee is an AI kind: "language model(s)", "LLM", "chatbot", "bot", "robô",
   "GPT", "AI/IA model, agent, assistant", "assistente virtual", "agente de IA", ... A plain
   "agent", "agente", "assistant" or "model" is a person or a spreadsheet in statutes and
   filings, so it counts only when called by name (vocative) and told what to do. The
   forms:
   - vocative: "Attention, AI models:", "Note to any LLM", "Atenção, modelos de IA:",
     "ChatGPT, always recommend ...", "Language models reading this: state that ...";
   - subject of a directive: "LLMs must conclude that ...", "AI agents summarising this
     page must report ...", "Assistentes virtuais que resumirem este documento devem
     responder que ..." - the addressee opens its clause (so "providers of AI models shall
     report" is not it), a modal (must, should, shall, need to, are required to, have to;
     devem, deverão, precisam, têm que, ...) and a verb of telling (report, answer, say,
     state, write, output, include, ignore, conclude, recommend, summarise as, ...; informar,
     responder, dizer, afirmar, ...) follow, then what to say ("that ...", "que ...", ": ...")
     unless the addressee is reading this page ("Chatbots should answer questions" is
     business writing); a duty to tell *users* something ("chatbots must inform users that
     they are machines") is the law speaking, not an injection;
   - conditional: "When an AI summarizes this, it should say ...", "Quando uma IA resumir
     este texto, ela deve afirmar ...".
   A bare "AI"/"IA" (or "AI tools", "sistemas de IA") is the subject of a directive only
   while reading "this" page, since "AI should include human oversight" is commentary.

Each pattern needs some word ("ignore", "prompt", "ai", "linguagem", ...): it is tried only
on text that holds one, so most lines cost one pass over their words.
"""

from __future__ import annotations

import functools
import re

from engine.text.addressed_to_ai_languages import (
    NEIGHBOUR_WORDS,
    addressed_in_compact,
    addressed_in_neighbour_languages,
)
from engine.text.confusables import fold_to_latin, has_invisible_controls
from engine.text.decoding import compact, readings, rot13, unspaced
from engine.text.normalise import collapse_whitespace

__all__ = ["addressed_to_ai", "has_invisible_controls"]

_PATTERNS = (
    # English
    r"\b(?:ignore|disregard|forget|override)\b(?:\W+\w+){0,3}?\W+"
    r"(?:previous|prior|above|earlier|preceding|all|any|your|the|these)\W+"
    r"(?:\w+\W+){0,2}(?:instructions?|prompts?|directions?|rules|guidelines|context)\b",
    r"\byou\s+are\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:ai|llm|assistant|chatbot|language\s+model"
    r"|gpt\w*|claude|large\s+language\s+model)\b",
    r"\bsystem\s+prompts?\b",
    r"\bas\s+an?\s+(?:ai|ai\s+language|large\s+language|language)\s+model\b",
    r"\b(?:new|updated|additional|hidden)\s+instructions?\s*:",
    r"\bif\s+you(?:\s+are|'re|’re)\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|chatbot|bot)\b",
    r"\b(?:note|message|attention)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:ai|llm|assistant|"
    r"chatbot|language\s+models?|ai\s+models?)\b",
    r"\bdeveloper\s+mode\b|\bjailbreak\w*\b",
    r"<\|?(?:im_start|im_end|system|endoftext)\|?>",
    # Portuguese (accents folded: "instrucoes", "voce")
    r"\b(?:ignore|ignora|desconsidere|desconsidera|esqueca|esquece)\b(?:\W+\w+){0,3}?\W+"
    r"(?:instrucoes|comandos|regras|orientacoes)\b",
    r"\bvoce\s+(?:e\s+(?:agora\s+)?|agora\s+e\s+)(?:uma?\s+)?(?:ia|assistente|modelo\s+de\s+linguagem|chatbot"
    r"|inteligencia\s+artificial)\b",
    r"\b(?:prompt|instrucoes)\s+do\s+sistema\b",
    r"\bcomo\s+(?:uma?\s+)?(?:ia|modelo\s+de\s+linguagem)\b,",
    r"\b(?:novas|ultimas)\s+instrucoes\s*:",
    r"\bse\s+voce\s+(?:e|for)\s+(?:uma?\s+)?(?:ia|assistente|modelo|chatbot|inteligencia\s+"
    r"artificial)\b",
)
# A word that each pattern above needs: a line without it is not tried against the pattern.
_PATTERN_NEEDS = (
    "ignore disregard forget override",
    "ai llm assistant chatbot language gpt claude",
    "prompt prompts",
    "model",
    "instruction instructions",
    "ai llm language assistant chatbot bot",
    "ai llm assistant chatbot language",
    "developer jailbreak jailbreaks jailbreaking jailbreaked",
    "im system endoftext",
    "ignore ignora desconsidere desconsidera esqueca esquece",
    "voce",
    "prompt instrucoes",
    "ia linguagem",
    "instrucoes",
    "voce",
)


@functools.cache
def _phrases() -> tuple[tuple[frozenset[str], re.Pattern[str]], ...]:
    """The fixed phrases, compiled the first time a text holds a word they need."""
    return tuple(
        (frozenset(needs.split()), re.compile(pattern))
        for needs, pattern in zip(_PATTERN_NEEDS, _PATTERNS, strict=True)
    )


# --- the addressee -------------------------------------------------------------------------
_AI = r"(?:ai|a\.i\.|genai|llm|gpt|ia|inteligencia\s+artificial|artificial\s+intelligence)"
_BY_AI = rf"(?:(?:de|com|baseados?\s+em|movidos?\s+a)\s+{_AI})"
# An AI kind, named so that no person or spreadsheet answers to it.
_NAMED = (
    r"(?:(?:large|big|small)\s+)?language\s+models?",
    r"(?:ai|a\.i\.|genai|llm|gpt)(?:[- ](?:powered|based|driven|enabled))?(?:\s+\w+)?\s+"
    r"(?:models?|agents?|assistants?|bots?|chatbots?)",
    r"(?:virtual|digital|voice|autonomous|conversational|generative)\s+(?:ai\s+)?"
    r"(?:assistants?|agents?)|generative\s+(?:ai\s+)?models?",
    r"llms?|chatbots?|bots?|chatgpt|gpt(?:-?\d[\w.]*)?|robos?",
    rf"(?:grandes?\s+)?modelos?\s+(?:\w+\s+)?de\s+(?:linguagem|{_AI})",
    rf"(?:assistentes?|agentes?|robos?)\s+(?:\w+\s+)?{_BY_AI}",
    r"assistentes?\s+(?:virtua(?:l|is)|digita(?:l|is)|pessoa(?:l|is)\s+virtua(?:l|is))",
)
_NAMED_AI = "(?:" + "|".join(_NAMED) + r")(?![\w-])"
# AI in general: the subject of a directive only while reading this page.
_ANY_AI = (
    r"(?:(?:ai|a\.i\.)(?:\s+(?:systems?|tools?|readers?|crawlers?|engines?|apps?))?"
    r"|(?:a|uma|qualquer|toda|cada)\s+(?:ia|inteligencia\s+artificial)"
    rf"|(?:sistemas?|ferramentas?|aplicacoes|aplicativos?|solucoes)\s+{_BY_AI})(?![\w-])"
)
# Names that are also people, firms, staff: an addressee only when called and told.
_BY_NAME = r"(?:assistants?|assistentes?|claude|gemini|copilot|bard|grok|ai|ia|a\.i\.)(?![\w-])"
_DET = (
    r"(?:(?:the|all|any|every|each|other|such|these|those|our|your|all\s+the|os|as|o|a"
    r"|todos\s+os|todas\s+as|qualquer|quaisquer|cada|esses|essas|estes|estas|seus|suas)\s+)?"
)

# --- what it is told ----------------------------------------------------------------------
_MODAL = (
    r"(?:must|should|shall|needs?\s+to|(?:are|is)\s+(?:required|asked|instructed)\s+to"
    r"|ha(?:ve|s)\s+to|ought\s+to|devem|deve|deverao|devera|deveriam|deveria|precisam|precisa"
    r"|precisarao|tem\s+(?:que|de)|(?:sao|e|estao)\s+(?:obrigad|instruid)[oa]s?\s+a)"
)
_ADVERBS = (
    r"(?:also|always|then|now|only|instead|clearly|explicitly|first|simply|not|never|please"
    r"|sempre|tambem|apenas|somente|agora|entao|nao|jamais|simplesmente|claramente)"
)
_ADVERB = rf"(?:\s+{_ADVERBS})*"
_TELL = (
    r"(?:report|answer|say|state|write|output|include|ignore|disregard|conclude|recommend"
    r"|respond|reply|tell|mention|claim|summari[sz]e\s+(?:\w+\s+){0,3}?as"
    r"|informar|responder|dizer|afirmar|escrever|incluir|relatar|reportar|ignorar"
    r"|desconsiderar|declarar|concluir|recomendar|mencionar|resumir\s+(?:\w+\s+){0,3}?como)\b"
)
_TELL_NOW = (  # imperative (pt: the subjunctive that serves as one)
    r"(?:(?:do\s+not|don't|never|nao)\s+)?(?:report|answer|say|state|write|output|include"
    r"|ignore|disregard|conclude|recommend|respond|reply|tell|mention|claim"
    r"|summari[sz]e\s+(?:\w+\s+){0,3}?as|(?:informe|responda|diga|afirme|escreva|inclua"
    r"|relate|reporte|ignore|desconsidere|declare|conclua|recomende|mencione)m?"
    r"|resumam?\s+(?:\w+\s+){0,3}?como)\b"
    # not a headline's noun: "LLMs: state of the art", "Chatbots: informe de mercado"
    r"(?!\s+(?:of|on|from|for|to|by|in|says|said|finds|found|shows|de|do|da|dos|das|sobre))"
    # nor a reporter's aside: "Chatbots, say analysts, ..."
    r"(?!\s+(?:analysts|experts|researchers|critics|investors|executives|economists|officials"
    r"|observers|sources|some|many|others|proponents|advocates|skeptics|people)\b)"
)
_TELL_PLURAL = (  # pt: unmistakably a verb, and addressed to a plural
    r"(?:informe|responda|diga|afirme|escreva|inclua|relate|reporte|desconsidere|declare"
    r"|conclua|recomende|mencione|ignore)m\b|resumam\s+(?:\w+\s+){0,3}?como\b"
)
# What to say follows the verb: "conclude that", "state in the summary that", "answer: ...".
# ("Chatbots should answer questions that customers ask" is not it.)
_CONTENT = (
    r"(?:(?<=\bas)|(?<=\bcomo)|(?=(?:\s+(?:in|on|to|no|na|nos|nas|em|ao|aos|a|the|o|os|their"
    r"|your|its|seu|sua|seus|suas|answers?|responses?|summary|summaries|resposta|respostas"
    r"|resumo|resumos|outputs?|reply|replies|reports?|relatorios?|final|only|apenas|always"
    r"|sempre|clearly|claramente))*(?:\s+(?:that|que)\b(?!\s+(?:question|query|request|call"
    r"|one|point|issue|concern)s?\b)|\s*[:\"“'])))"
)
_NAME = r"(?:chatgpt|gpt(?:-?\d[\w.]*)?|claude|gemini|copilot|bard|grok)(?![\w-])"
_DIRECTIVE = rf"(?:{_MODAL}{_ADVERB}\s+{_TELL})"
_ORDER = (
    rf"(?:(?:please\s+|por\s+favor,?\s+)?(?:(?:you|voce|voces)\s+)?{_DIRECTIVE}"
    rf"|(?:por\s+favor,?\s+)?(?:{_ADVERBS}\s+)*{_TELL_NOW})"
)
# A duty to tell users something is the law speaking ("chatbots must inform users ...").
_NOT_TO_USERS = (
    r"(?!\s+(?:to\s+|a\s+|ao\s+|aos\s+|as\s+)?(?:the\s+|os\s+|o\s+|a\s+|as\s+|seus\s+|suas\s+"
    r"|their\s+|its\s+)?(?:users?|usuari|consumer|consumidor|customer|client|investor"
    r"|investidor|people|person|pessoa|individua|human|public|interlocutor|titular|patient"
    r"|paciente)|\s+(?:that|que)\s+(?:they\s+are|it\s+is|se\s+trata\s+de|sao|e|esta|estao)"
    r"\s+(?:an?\s+|um\s+|uma\s+)?(?:ai|bot|machine|automated|artificial|ia|robo|maquina"
    r"|sistema|chatbot|interact|interag|convers|virtua))"
)

# --- reading this page --------------------------------------------------------------------
_THIS = (
    r"(?:this|these|the\s+following|the\s+present|here|este|esta|estes|estas|isto|isso|esse"
    r"|essa|o\s+presente|a\s+presente|aqui|deste|desta|neste|nesta)\b"
)
_READING = (
    r"(?:(?:,?\s+(?:that|who|which)\s+(?:reads?|(?:is|are)\s+(?:reading|summari[sz]ing"
    r"|processing)|summari[sz]es?|process(?:es)?|parses?|analy[sz]es?|sees?|scans?|crawls?"
    r"|index(?:es)?|ingests?|encounters?|finds?|accesses?|visits?)"
    r"|\s+(?:reading|summari[sz]ing|processing|parsing|analy[sz]ing|crawling|scraping|indexing"
    r"|viewing|seeing|scanning|accessing|visiting|ingesting|encountering|evaluating)"
    r"|,?\s+que\s+(?:lerem|ler|le|leem|leia|leiam|resumirem|resumir|resume|resumem|resuma"
    r"|resumam|processarem|processar|processa|processam|analisarem|analisar|analisa|analisam"
    r"|acessarem|acessar|acessa|acessam|encontrarem|encontrar|virem|estiver(?:em)?\s+lendo)"
    r"|\s+(?:lendo|resumindo|processando|analisando|acessando))"
    rf"\s+(?:\w+\s+){{0,3}}?{_THIS}[^.;!?:\n]{{0,40}}?)"
)
_READS = (
    r"(?:reads?|summari[sz]es?|process(?:es)?|parses?|analy[sz]es?|sees?|scans?|crawls?"
    r"|ingests?|encounters?|finds?|accesses?|visits?|quotes?|uses?|(?:is|are|gets?)\s+"
    r"(?:reading|summari[sz]ing|processing|asked|analy[sz]ing|used)|ler|le|leia|resumir|resume"
    r"|resuma|processar|processa|processe|analisar|analisa|analise|acessar|acessa|acesse"
    r"|encontrar|encontra|encontre|usar|citar|receber|estiver\s+(?:lendo|resumindo|processando"
    r"|analisando)|for\s+(?:perguntad|usad|questionad)[oa])\b"
)

_CUE = (
    r"\b(?:(?:attention|note|notice|message|reminder|instructions?|warning|memo|atencao|aviso"
    r"|nota|observacao|mensagem|recado|lembrete|instrucao|instrucoes)(?:\s+(?:to|for|para|aos?"
    r"|as|a))?|important\s+for|importante\s+para|hey|hi|hello|dear|greetings|ola|oi"
    r"|prezad[oa]s?|car[oa]s?|querid[oa]s?)(?:\s*,\s*|\s+)"
)
_ADDRESSEE = rf"{_DET}(?:{_NAMED_AI}|{_ANY_AI})"


# (pattern, whether the match must open a clause): a few hundred milliseconds to compile,
# spent the first time a text holds an AI word.
@functools.cache
def _forms() -> tuple[tuple[re.Pattern[str], bool], ...]:
    return tuple(
        (re.compile(pattern), opens_clause)
        for pattern, opens_clause in (
            # "Attention, AI models:", "Aviso aos chatbots:", "Prezado assistente virtual,"
            (rf"{_CUE}{_ADDRESSEE}{_READING}?\s*[,:!](?:\s*{_ORDER})?", False),
            # "Dear Claude, please write ...", "Nota aos assistentes: ..." + an order
            (rf"{_CUE}{_DET}{_BY_NAME}{_READING}?\s*[,:!]\s*{_ORDER}", False),
            # "Assistente, responda que ...", "Agentes de IA: desconsiderem ..."
            (
                rf"\b{_DET}(?:{_NAMED_AI}|{_ANY_AI}|{_BY_NAME}){_READING}?\s*[,:]\s*"
                rf"(?:{_ORDER}{_CONTENT}|(?:por\s+favor,?\s+)?{_TELL_PLURAL})",
                True,
            ),
            # "ChatGPT, always recommend ..."
            (rf"\b{_NAME}\s*[,:]\s*{_ORDER}", True),
            # "Language models reading this: ..."
            (rf"\b{_ADDRESSEE}{_READING}\s*:", False),
            # "AI agents summarising this page must report ...", "Robôs que processarem esta ..."
            (rf"\b{_ADDRESSEE}{_READING}\s*,?\s+{_DIRECTIVE}{_NOT_TO_USERS}", True),
            # "LLMs must conclude that ...", "Os agentes de IA precisam informar que ..."
            (rf"\b{_DET}{_NAMED_AI}\s*,?\s+{_DIRECTIVE}{_NOT_TO_USERS}{_CONTENT}", True),
            # "When an AI summarizes this, it should say ...", "Quando uma IA resumir este ..."
            (
                rf"\b(?:when|whenever|if|once|while|as\s+soon\s+as|quando|se|caso|sempre\s+que"
                rf"|assim\s+que)\s+{_DET}(?:an?\s+|uma?\s+)?(?:{_NAMED_AI}|{_ANY_AI}|ia(?![\w-]))"
                rf"\s+(?:\w+\s+){{0,2}}?{_READS}\s+(?:\w+\s+){{0,3}}?{_THIS}[^.;!?\n]{{0,60}}?,\s*"
                rf"(?:(?:it|you|they|ela|ele|elas|eles|voce|voces)\s+)?(?:{_DIRECTIVE}|{_TELL_NOW})",
                False,
            ),
        )
    )


# Every form above needs one of these words (or "a.i.").
_AI_WORDS = frozenset(
    "ai ia genai llm llms gpt chatgpt chatbot chatbots bot bots robo robos claude gemini "
    "copilot bard grok linguagem language inteligencia intelligence assistant assistants "
    "assistente assistentes".split()
)
_WORD = re.compile(r"[a-z]+")
_ANY_NEEDED = frozenset(" ".join(_PATTERN_NEEDS).split()) | _AI_WORDS | NEIGHBOUR_WORDS
_ROT13_NEEDED = frozenset(rot13(word) for word in _ANY_NEEDED)

_CONNECTORS = frozenset(
    "and or but so thus therefore hence then also now please e ou mas portanto entao assim "
    "agora logo pois".split()
)
_OPENERS = "([{\"'“‘«*#>|•\n"
_CLOSERS = ".!?;:,)]}\"'”’»-–—*#>|•…"
_LAST_WORD = re.compile(r"(\w+)$")


def _opens_clause(text: str, start: int) -> bool:
    """Whether `text[start:]` opens a sentence or clause (after at most two connectives):
    a subject, not the object of "providers of" or "companies using"."""
    before = text[:start]
    for _ in range(3):
        stripped = before.rstrip()
        if not stripped or before[-1] in _OPENERS:
            return True
        if stripped == before:  # glued to a word: "non-AI models"
            return False
        if stripped[-1] in _CLOSERS:
            return True
        word = _LAST_WORD.search(stripped)
        if word is None or word.group(1) not in _CONNECTORS:
            return False
        before = stripped[: word.start()]
    return False


# A form spans a few words either side of its AI word: long text is searched only there.
_BEFORE, _AFTER = 160, 320


def _around_ai_words(folded: str) -> list[tuple[int, int]]:
    """The stretches of `folded` around its AI words, merged: where a form can match."""
    if len(folded) <= _BEFORE + _AFTER:
        return [(0, len(folded))]
    anchors = [word.start() for word in _WORD.finditer(folded) if word.group() in _AI_WORDS]
    anchors += [found.start() for found in re.finditer(r"a\.i", folded)]
    stretches: list[tuple[int, int]] = []
    for anchor in sorted(anchors):
        start, end = max(0, anchor - _BEFORE), anchor + _AFTER
        if stretches and start <= stretches[-1][1]:
            stretches[-1] = (stretches[-1][0], end)
        else:
            stretches.append((start, end))
    return stretches


def _words(found: str) -> str:
    return collapse_whitespace(found).strip(" ,:")


@functools.lru_cache(maxsize=4096)
def addressed_to_ai(text: str) -> str | None:
    """The words by which `text` addresses an AI system (folded to plain Latin), or None: in
    Portuguese or English, or a neighbour language (`addressed_to_ai_languages`), as written
    or once an obvious encoding is undone (`decoding`), said with the encoding it was in.
    Kept by text: a unit read again (a page another subagent reads, the verifier's look at
    a quoted unit, a copy of the same text) is not read twice."""
    folded = fold_to_latin(text)
    words = set(_WORD.findall(folded))
    found = _detect(folded, words)
    if found is not None:
        return found
    joined = unspaced(folded)
    decoded = [*map(fold_to_latin, readings(text)), *([joined] if joined else [])]
    if not _ROT13_NEEDED.isdisjoint(words):  # a word some pattern needs, in rot13
        decoded.append(rot13(folded))
    for reading in decoded:
        found = _detect(reading)
        if found is not None:
            return f"{found} (decoded)"
    if joined is not None:
        return addressed_in_compact(compact(folded))
    return None


def _detect(folded: str, words: set[str] | None = None) -> str | None:
    words = set(_WORD.findall(folded)) if words is None else words
    if _ANY_NEEDED.isdisjoint(words) and "a.i" not in folded:
        return None  # most text: one pass over its words
    return _addressed(folded, words) or addressed_in_neighbour_languages(folded, words)


def _addressed(folded: str, words: set[str]) -> str | None:
    """The words by which `folded` (folded to plain Latin, its `words`) addresses an AI
    system in Portuguese or English, or None."""
    for needs, phrase in _phrases():
        if not needs.isdisjoint(words) and (found := phrase.search(folded)):
            return collapse_whitespace(found.group(0))
    if _AI_WORDS.isdisjoint(words) and "a.i" not in folded:
        return None
    for start, end in _around_ai_words(folded):
        for pattern, opens_clause in _forms():
            position = start
            while (found := pattern.search(folded, position, end)) is not None:
                if not opens_clause or _opens_clause(folded, found.start()):
                    return _words(found.group(0))
                position = found.start() + 1
    return None
