"""Text addressed to AI systems: "ignore previous instructions", "you are now an assistant",
"system prompt", and the like, in English and Portuguese.

A page that talks to the model reading it is attempting prompt injection. Such text is
never a finding: the verifier rejects a claim that quotes or states it, and the report notes
that the page contains it. The patterns name the act of instructing a model, not topics:
a market report that mentions "AI assistants" is not caught.
"""

from __future__ import annotations

import re

from engine.text.tokens import fold_accents

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
    r"\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|chatbot|bot)\b",
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
_ADDRESSED_TO_AI = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE)


def addressed_to_ai(text: str) -> str | None:
    """The words by which `text` addresses an AI system (accents folded), or None."""
    found = _ADDRESSED_TO_AI.search(fold_accents(text))
    return " ".join(found.group(0).split()) if found else None
