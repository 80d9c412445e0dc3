"""What a Slack request asks the bot to do, as typed steps a job can carry, and the pure
parsing of the text users type (mentions, `/research [template] question`, "aprofunde: …")."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bot.files import SharedFile
from bot.routines.schedule import Frequency, frequency_named
from engine import Language, Limits
from engine.planning import UnknownTemplate, find_template
from engine.text import collapse_whitespace, detect_language


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ask(_Step):
    """A new brief: a mention, a DM or `/research`. `thread_ts` is None for a slash command
    (the bot opens the thread with a message of its own)."""

    kind: Literal["ask"] = "ask"
    origin: str
    channel: str
    thread_ts: str | None
    user: str
    text: str
    is_dm: bool = False
    template: str | None = None
    response_url: str | None = None
    """A slash command's: where to answer when the bot cannot post in the channel."""
    language: Language | None = None
    """When the request says more than its question (a slash command's template word)."""
    assistant: bool = False
    """Asked in an assistant thread (the older messaging experience)."""
    agent: bool = False
    """Asked in the DM of the agent messaging experience (no assistant thread under it)."""
    follows: str | None = None
    """A new question in a thread whose report (this id) is done: that report is context."""
    in_thread: bool = False
    """Asked inside a thread of people's messages (no report in it): they are context."""
    action_token: str | None = None
    """The event's action token: what lets the bot search Slack as the asker
    (bot.sources.slack_search)."""
    watch: Frequency | None = None
    """`/research watch FREQUENCY QUESTION`: the report is also made a routine."""


class Answer(_Step):
    kind: Literal["answer"] = "answer"
    report_id: str
    user: str
    text: str = ""
    question: int | None = None
    option: int | None = None
    mentioned: bool = False
    """A message that named the bot (or came in a DM): it gets an answer, whatever it is."""
    action_token: str | None = None
    """The message event's action token, fresher than the brief's (it is short-lived): the
    one the research searches Slack with."""
    channel: str = ""


class Start(_Step):
    kind: Literal["start"] = "start"
    report_id: str
    user: str
    channel: str = ""


class Cancel(_Step):
    kind: Literal["cancel"] = "cancel"
    report_id: str
    user: str
    channel: str = ""


class Rate(_Step):
    """A feedback button on a delivered report."""

    kind: Literal["rate"] = "rate"
    report_id: str
    user: str
    version: int
    rating: Literal["up", "down"]
    channel: str = ""


class Say(_Step):
    """A short answer only `user` sees, where nothing else applies (an empty mention, a
    button whose value cannot be read)."""

    kind: Literal["say"] = "say"
    channel: str
    user: str
    thread_ts: str | None = None
    what: Literal[
        "empty_mention",
        "stale_button",
        "not_found",
        "slack_search_allowed",
        "slack_search_declined",
    ]
    language: Language = "pt"


class EditPlan(_Step):
    kind: Literal["edit"] = "edit"
    report_id: str
    user: str
    subquestions: list[str]
    limits: Limits


class Deepen(_Step):
    kind: Literal["deepen"] = "deepen"
    report_id: str
    user: str
    gap: str
    channel: str | None = None


class ShowPage(_Step):
    """The excerpt modal `view_id` opened text-only (a trigger_id lasts three seconds): show
    the cited page in it, if the claim's source can show one."""

    kind: Literal["page"] = "page"
    report_id: str
    version: int
    claim_id: str
    number: int
    view_id: str
    hash: str
    language: Language = "pt"


ExportFormat = Literal["pdf", "docx", "pptx", "html", "md"]


class Export(_Step):
    """The report's files again, in its thread: the report message's Files button, or
    "exportar" / "export" [format] typed there (bot.conversation.export.export_request).
    `version` None is the latest delivered; `format` None is every file."""

    kind: Literal["export"] = "export"
    report_id: str
    user: str
    version: int | None = None
    format: ExportFormat | None = None
    channel: str = ""
    thread_ts: str | None = None
    language: Language | None = None
    """Of the request, when it says (typed text); else the report's."""


class ShareFiles(_Step):
    """Files a user shared in a thread or a DM (a `message` of subtype `file_share`): keep
    them as sources of that conversation, say which were kept and which not, then run
    `then`, what the message's text asks (a question, an answer), so it sees the files."""

    kind: Literal["share"] = "share"
    origin: str
    channel: str
    user: str
    thread_ts: str
    """The thread the bot answers in: the message's thread, or the message itself."""
    ts: str
    is_dm: bool = False
    files: list[SharedFile]
    text: str = ""
    then: Annotated[Ask | Answer | Deepen, Field(discriminator="kind")] | None = None
    language: Language | None = None
    """Of the conversation, when known (a report in the thread); else read from the text."""


class Watch(_Step):
    """A delivered report's Watch button (`frequency` None: ask how often), or one of the
    frequency buttons that question offers: make the report a routine."""

    kind: Literal["watch"] = "watch"
    report_id: str
    user: str
    channel: str = ""
    frequency: Frequency | None = None


class ListRoutines(_Step):
    """`/research routines`: the channel's routines, to whoever asked."""

    kind: Literal["routines"] = "routines"
    channel: str
    user: str
    language: Language = "pt"


RoutineAction = Literal["pause", "resume", "delete", "daily", "weekly", "monthly"]


class SteerRoutine(_Step):
    """A routine's button in the listing: pause, resume, delete, or a new frequency."""

    kind: Literal["routine"] = "routine"
    routine_id: str
    user: str
    channel: str = ""
    action: RoutineAction


class ForgetChannel(_Step):
    """The channel's data goes (the channel deleted, the bot removed from it)."""

    kind: Literal["forget"] = "forget"
    channel: str


Step = Annotated[
    Ask
    | Answer
    | Start
    | Cancel
    | EditPlan
    | Deepen
    | Rate
    | Say
    | ShowPage
    | Export
    | ShareFiles
    | Watch
    | ListRoutines
    | SteerRoutine
    | ForgetChannel,
    Field(discriminator="kind"),
]
STEP = TypeAdapter(Step)


def encode_step(step: Step) -> str:
    return STEP.dump_json(step).decode()


def decode_step(raw: str | bytes) -> Step:
    return STEP.validate_json(raw)


_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
_DEEPEN = re.compile(
    r"^\s*(?:aprofund[ea]r?|deepen|dig deeper(?: into)?)\s*[:,-]\s*(?P<gap>.+)$",
    re.IGNORECASE | re.DOTALL,
)


def strip_mentions(text: str) -> str:
    return collapse_whitespace(_MENTION.sub(" ", text))


def mentions(text: str, user_id: str | None) -> bool:
    return bool(user_id) and f"<@{user_id}" in text


def deepen_request(text: str) -> str | None:
    """The gap of "aprofunde: <gap>" / "deepen: <gap>", else None."""
    match = _DEEPEN.match(strip_mentions(text))
    return collapse_whitespace(match.group("gap")) if match else None


_CONNECTORS = frozenset("de do da dos das em no na nos nas of for in on".split())


class Command(BaseModel):
    model_config = ConfigDict(frozen=True)

    help: bool = False
    template: str | None = None
    question: str = ""
    language: Language = "pt"
    """Of the whole command: the template word is evidence too ("mercado energia solar")."""
    watch: Frequency | None = None
    """`/research watch weekly [template] question`: make it a routine."""
    watch_usage: bool = False
    """`/research watch` without a frequency or a question: say how it is used."""
    routines: bool = False
    """`/research routines`: list the channel's routines."""


_WATCH = {"watch": "en", "acompanhar": "pt", "acompanhe": "pt"}
_ROUTINES = {"routines": "en", "rotinas": "pt"}


def parse_research_command(text: str) -> Command:
    """`/research [template] question`, `/research help`, `/research watch FREQUENCY
    [template] question` and `/research routines`; a first word that names a template is
    the template, otherwise it is part of the question."""
    words = text.split()
    first = words[0].lower() if words else ""
    if first in _ROUTINES and len(words) == 1:
        return Command(routines=True, language="en" if _ROUTINES[first] == "en" else "pt")
    if first in _WATCH:
        frequency = frequency_named(words[1]) if len(words) > 1 else None
        watched = parse_research_command(" ".join(words[2:])) if frequency else None
        if watched is None or watched.help or watched.watch or watched.routines:
            said: Language = "en" if _WATCH[first] == "en" else "pt"
            return Command(watch_usage=True, language=said)
        return watched.model_copy(update={"watch": frequency})
    if not words or first in ("help", "ajuda", "?"):
        language: Language = "en" if first == "help" else "pt"
        return Command(help=True, language=language)
    language = detect_language(" ".join(words))
    try:
        template = find_template(words[0]).id
    except UnknownTemplate:
        return Command(question=" ".join(words), language=language)
    if len(words) > 1 and words[1].lower() in _CONNECTORS:
        # "mercado de energia solar" is a question
        return Command(question=" ".join(words), language=language)
    question = " ".join(words[1:])
    return Command(help=not question, template=template, question=question, language=language)
