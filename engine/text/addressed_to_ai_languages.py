"""Text addressed to AI systems in the languages next to the report's: Spanish, French, German
and Italian (Portuguese and English are `addressed_to_ai`'s own), and phrases whose letters
were pulled apart (`engine.text.decoding.compact`).

The same forms as in Portuguese and English, over text folded to plain lower-case Latin
(`fold_to_latin`: "précédentes" is "precedentes", "müssen" "mussen"):

- fixed phrases only an injection uses: "ignora las instrucciones anteriores", "ignorez les
  instructions précédentes", "ignoriere alle vorherigen Anweisungen", "ignora le istruzioni
  precedenti"; "ahora eres un asistente", "tu es maintenant une IA", "du bist jetzt ein
  KI-Assistent", "ora sei un assistente"; the system prompt; "nuevas instrucciones:";
  "si eres una IA", "si vous êtes une IA", "wenn du eine KI bist", "se sei un'IA";
- an AI kind called and told ("Atención, modelos de lenguaje:", "Note aux IA :", "Hinweis
  für Sprachmodelle:", "Attenzione, modelli linguistici:");
- an AI kind, opening its clause, told what to say: "los modelos de lenguaje deben
  responder que ...", "les modèles de langage doivent répondre que ...", "Sprachmodelle
  müssen angeben, dass ...", "i modelli linguistici devono rispondere che ..." - the verb
  of telling followed by what to say ("que", "dass", "che", ":"), so a duty to inform
  *users* ("deben informar a los usuarios que ...") stays the law speaking;
- an AI kind reading "this" page, told: "Modelos de lenguaje que lean esta página: ...".

A plain "model", "assistant" or "agent" is a person or a spreadsheet here too: only AI kinds
named so that no person answers to them count. Pure code.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from engine.text.normalise import collapse_whitespace

__all__ = ["NEIGHBOUR_WORDS", "addressed_in_compact", "addressed_in_neighbour_languages"]

_AP = r"['’]\s*"
# AI kinds, per language (folded).
_KINDS = (
    # es
    r"modelos?\s+de\s+(?:lenguaje|ia)|asistentes?\s+(?:de\s+ia|virtua(?:l|les))"
    r"|agentes?\s+de\s+ia|sistemas?\s+de\s+ia",
    # fr
    rf"modeles?\s+de\s+langage|modeles?\s+d{_AP}ia|assistants?\s+(?:ia|d{_AP}ia|virtuels?)"
    rf"|agents?\s+(?:ia|d{_AP}ia)|intelligences?\s+artificielles?",
    # de
    r"sprachmodelle?n?|ki-(?:modelle?|assistent(?:en)?|agent(?:en)?|systeme?|sprachmodelle?)",
    # it
    r"modell[oi]\s+linguistic[oi]|modell[oi]\s+di\s+(?:ia|linguaggio)"
    r"|assistent[ei]\s+(?:ia|di\s+ia|virtual[ei])|agent[ei]\s+(?:ia|di\s+ia)",
    # shared
    r"chatbots?|llms?|ia|ki",
)
_KIND = "(?:" + "|".join(_KINDS) + r")(?![\w-])"
_DET = (
    r"(?:(?:los|las|el|la|todos\s+los|cualquier|les|le|la|l['’]|tous\s+les|toute|tout|die|der"
    r"|alle|jede|jedes|jeder|i|gli|il|lo|tutti\s+i|qualsiasi|ogni|aux|au|a\s+los|a\s+las|al"
    r"|a\s+la|an|fur|per|ai|agli)\s*)?"
)
_TELL = (
    r"(?:responder|decir|afirmar|informar|indicar|escribir|incluir|concluir|recomendar|ignorar"
    r"|declarar|repondre|dire|affirmer|indiquer|ecrire|inclure|conclure|recommander|ignorer"
    r"|declarer|signaler|rispondere|affermare|indicare|scrivere|includere|concludere"
    r"|raccomandare|dichiarare|riportare|antworten|sagen|angeben|berichten|schreiben|erklaren"
    r"|empfehlen|ignorieren|ausgeben|behaupten|melden|mitteilen)"
)
_MODAL = (
    r"(?:deben|debe|deberan|deberian|tienen\s+que|doivent|doit|devront|devraient|devrait"
    r"|devono|deve|dovranno|dovrebbero|mussen|muss|sollen|sollten|soll)"
)
_ADVERBS = (
    r"(?:\s+(?:siempre|tambien|solo|ahora|toujours|aussi|seulement|maintenant|sempre|anche"
    r"|solo|ora|immer|auch|stets|nur|jetzt|nun|bitte))*"
)
_WHAT = r"\s*(?:,\s*)?(?:que\b|qu['’]|dass\b|che\b|:)"
_THIS = (
    r"(?:este|esta|esto|estos|estas|ce|cet|cette|ceci|ces|diese|dieses|diesen|dieser|questo"
    r"|questa|questi|queste)\b"
)
_READ = (
    r"(?:lean|lea|leen|lee|resuman|resuma|procesen|procese|analicen|lisent|lit|lisez|resument"
    r"|resume|traitent|analysent|leggono|legge|leggete|riassumono|riassume|elaborano|elabora"
    r"|analizzano|lesen|liest|zusammenfassen|verarbeiten|verarbeitet|analysieren)"
)
_ORDER_NOW = (
    r"(?:responde|responda|respondan|di|diga|digan|afirma|afirme|escribe|escriba|incluye"
    r"|ignora|ignore|ignoren|repondez|reponds|dites|dis|affirmez|ecrivez|incluez|ignorez"
    r"|rispondi|rispondete|dite|scrivi|scrivete|includi|ignorate|antworte|antworten\s+sie"
    r"|sag|sagen\s+sie|schreibe|schreiben\s+sie|ignoriere|ignorieren\s+sie|gib|geben\s+sie)\b"
)
_CUE = (
    r"(?:atencion|nota|aviso|mensaje|attention|note|avis|message|achtung|hinweis|nachricht"
    r"|notiz|attenzione|avviso|messaggio|importante\s+para|important\s+pour|wichtig\s+fur"
    r"|importante\s+per|hola|bonjour|hallo|ciao|querido|querida|cher|chere|liebe|lieber"
    r"|caro|cara)"
)

# The patterns are compiled the first time a text holds a word they need (`_patterns`), as
# `addressed_to_ai`'s are.
_PHRASES = (
    # ignore the instructions
    r"\b(?:ignora|ignore|ignoren|ignorad|olvida|olvide|olviden|descarta|descarte|omite"
    r"|ignorez|oublie|oubliez|ignoriere|ignorieren|ignoriert|vergiss|vergessen|missachte"
    r"|missachten|ignorate|dimentica|dimenticate|trascura|trascurate)\b(?:\W+\w+){0,4}?\W+"
    r"(?:instrucciones|instruccion|indicaciones|consignes|instructions|anweisungen"
    r"|anweisung|instruktionen|vorgaben|istruzioni|indicazioni|direttive)\b",
    # you are now an AI
    r"\b(?:ahora\s+eres|eres\s+ahora|ahora\s+usted\s+es|tu\s+es\s+(?:maintenant|desormais)"
    r"|vous\s+etes\s+(?:maintenant|desormais)|du\s+bist\s+(?:jetzt|nun|ab\s+sofort)"
    r"|sie\s+sind\s+(?:jetzt|nun|ab\s+sofort)|ora\s+sei|sei\s+ora|adesso\s+sei)\s+"
    r"(?:una?\s+|une?\s+|eine?n?\s+|un['’]\s*)?(?:ia|ki|ki-\w+|asistente|assistant|assistente"
    r"|assistent|chatbot|llm|modelo\s+de\s+lenguaje|modele\s+de\s+langage|sprachmodell"
    r"|modello\s+linguistico|inteligencia\s+artificial|intelligence\s+artificielle"
    r"|intelligenza\s+artificiale|kunstliche\s+intelligenz)\b",
    # the system prompt
    r"\b(?:instrucciones|prompt|invite|instructions?|istruzioni)\s+(?:del|du|di|de)\s+"
    r"(?:sistema|systeme)\b|\bsystem-?prompts?\b|\bsystemanweisungen?\b",
    # new instructions:
    r"\b(?:nuevas|nouvelles|neue|nuove)\s+(?:instrucciones|instructions|anweisungen"
    r"|istruzioni)\s*:",
    # if you are an AI
    r"\b(?:si\s+(?:eres|usted\s+es|tu\s+es|vous\s+etes)|wenn\s+(?:du|sie)|se\s+sei)\s+"
    r"(?:una?\s+|une?\s+|eine?\s+|un['’]\s*)?(?:ia|ki|asistente|assistant|assistente"
    r"|chatbot|llm|modelo\s+de\s+lenguaje|modele\s+de\s+langage|sprachmodell"
    r"|modello\s+linguistico|inteligencia\s+artificial|intelligence\s+artificielle"
    r"|intelligenza\s+artificiale)\b(?:\s+(?:bist|sind))?",
)
# An AI kind called, then (optionally) told: "Atención, modelos de lenguaje:".
_VOCATIVE = (
    rf"\b{_CUE}\s*(?:,|:)?\s*(?:a|a\s+los|a\s+las|al|a\s+la|aux|au|a\s+l['’]|pour\s+les"
    rf"|pour\s+l['’]|an|fur|per|ai|agli|all['’]|para\s+los|para\s+las|para)?\s*{_DET}{_KIND}"
    r"\s*[,:!]"
)
# An AI kind that opens its clause, told what to say.
_SUBJECT = (
    rf"\b{_DET}{_KIND}(?:\s*,?\s+(?:que|qui|che|die)\s+(?:\w+\s+){{0,2}}?{_THIS}[^,:;.]{{0,40}},?)?"
    rf"\s+{_MODAL}{_ADVERBS}\s+(?:\w+\s+){{0,4}}?{_TELL}{_WHAT}"
)
# An AI kind reading this page, then a colon or an order.
_READING = (
    rf"\b{_DET}{_KIND}\s*,?\s+(?:que|qui|che|die)\s+{_READ}\s+(?:\w+\s+){{0,2}}?{_THIS}"
    rf"[^.;!?:\n]{{0,40}}?(?::|,\s*{_ORDER_NOW})"
)
# When an AI reads this page, it should say ...
_CONDITIONAL = (
    rf"\b(?:cuando|si|quand|lorsque|lorsqu['’]|wenn|sobald|falls|quando|se)\s*{_DET}"
    rf"(?:una?\s+|une?\s+|eine?\s+|un['’]\s*)?{_KIND}\s+(?:\w+\s+){{0,3}}?(?:{_READ}\s+"
    rf"(?:\w+\s+){{0,3}}?{_THIS}|{_THIS}[^,]{{0,40}}?{_READ})[^.;!?\n]{{0,60}}?,\s*"
    rf"(?:\w+\s+)?{_MODAL}\b"
)
_OPENERS = ".!?;:([{\"'“‘«*#>|•\n-–—"
# A duty to tell people something is the law speaking ("deben informar a los usuarios que").
_TO_PEOPLE = (
    r"\b(?:usuari|utilisateur|utent|nutzer|benutzer|verbraucher|consumidor|consommateur"
    r"|consumator|kund|client|person|public|public|publico|pubblico|ciudadan|citoyen|cittadin"
    r"|burger|paciente|patient|pazient|interlocut)\w*"
)


def _opens_clause(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in _OPENERS


# Words one of the patterns above needs: a text with none of them is not searched.
NEIGHBOUR_WORDS = frozenset(
    "instrucciones instruccion indicaciones consignes instructions anweisungen anweisung "
    "instruktionen vorgaben istruzioni indicazioni direttive prompt systemprompt "
    "systemanweisung systemanweisungen ia ki chatbot chatbots llm llms lenguaje langage "
    "sprachmodell sprachmodelle sprachmodellen linguistico linguistici linguaggio artificielle "
    "artificiale artificial asistente asistentes assistant assistants assistente assistenti "
    "assistent assistenten".split()
)
_WORD = re.compile(r"[a-z]+")


class _Patterns(NamedTuple):
    phrases: tuple[re.Pattern[str], ...]
    forms: tuple[tuple[re.Pattern[str], bool], ...]
    """(form, whether its match must open a clause)"""
    subject: re.Pattern[str]
    """The form whose match is let go when it tells people (`to_people`)."""
    to_people: re.Pattern[str]


@functools.cache
def _patterns() -> _Patterns:
    subject = re.compile(_SUBJECT)
    return _Patterns(
        tuple(map(re.compile, _PHRASES)),
        (
            (re.compile(_VOCATIVE), False),
            (re.compile(_READING), True),
            (subject, True),
            (re.compile(_CONDITIONAL), False),
        ),
        subject,
        re.compile(_TO_PEOPLE),
    )


def addressed_in_neighbour_languages(folded: str, words: set[str] | None = None) -> str | None:
    """The words by which folded `folded` addresses an AI system in Spanish, French, German
    or Italian, or None. `words`: its words, when the caller has them."""
    if NEIGHBOUR_WORDS.isdisjoint(words if words is not None else _WORD.findall(folded)):
        return None
    patterns = _patterns()
    for phrase in patterns.phrases:
        found = phrase.search(folded)
        if found is not None:
            return collapse_whitespace(found.group(0))
    for form, opens in patterns.forms:
        for found in form.finditer(folded):
            if opens and not _opens_clause(folded, found.start()):
                continue
            if form is patterns.subject and patterns.to_people.search(found.group(0)):
                continue
            return collapse_whitespace(found.group(0)).strip(" ,:")
    return None


_COMPACT = (
    r"(?:ignore|disregard|forget|ignora|ignorez|desconsidere|esqueca|ignoriere|vergiss|olvida)"
    r"(?:all|the|any|your|previous|prior|above|earlier|todas|as|los|las|les|toutes|alle"
    r"|vorherigen|anteriores|precedentes|precedenti|le|tutte){1,3}"
    r"(?:instructions|instrucoes|instrucciones|anweisungen|istruzioni|rules|prompts|regras)"
    r"|systemprompt|promptdosistema|youarenowan?(?:ai|assistant|llm)"
    r"|(?:noteto|attention|messageto|notice)(?:the|all|any)?(?:ai|llms?|languagemodels?"
    r"|aimodels?|aiassistants?|aiagents?)(?:must|should|shall|reading)"
)


@functools.cache
def _compact() -> re.Pattern[str]:
    return re.compile(_COMPACT)


def addressed_in_compact(letters: str) -> str | None:
    """An injection's fixed phrase in a text's letters alone (`decoding.compact`), or None."""
    found = _compact().search(letters)
    return found.group(0) if found is not None else None
