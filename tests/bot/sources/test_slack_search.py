"""Slack search's own rules (bot/sources/slack_search.py), on a scripted answer of
assistant.search.context: what may be shown where, the text each permalink reads as, the
query sent, the calls made, and that a workspace's address never reaches the web."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.sources.catalog import is_workspace_address
from bot.sources.slack_search import (
    CALLS_PER_SEARCHER,
    SearchRefused,
    SlackSearch,
    keyword_query,
    reason_for,
    shareable,
)
from engine.sources import FetchError, Origin

PUBLIC = "https://team.slack.com/archives/C5/p1690000001000100"
SECRET = "https://team.slack.com/archives/GBOARD/p1690000002000100"
DIRECT = "https://team.slack.com/archives/D9/p1690000003000100"
FILE = "https://team.slack.com/files/U2/F91/metas_2025"


@dataclass
class Asked:
    report_id: str = "r1"
    channel: str = "C5"
    is_dm: bool = False
    requester: str = "U1"
    action_token: str | None = "1.U1.act"
    language: str = "pt"
    slack_search_note: str | None = None


def message(channel: str, url: str, text: str) -> dict[str, Any]:
    return {
        "author_name": "Ana Lima",
        "author_user_id": "U2",
        "team_id": "T1",
        "channel_id": channel,
        "channel_name": channel.lower(),
        "message_ts": "1690000001.000100",
        "content": text,
        "is_author_bot": False,
        "permalink": url,
    }


ANSWER = {
    "ok": True,
    "results": {
        "messages": [
            message("C5", PUBLIC, "A usina Gama produz 31 megawatts."),
            message("GBOARD", SECRET, "A usina Gama vai a 40 megawatts, decidiu a diretoria."),
            message("D9", DIRECT, "Entre nós: a Gama chega a 45 megawatts."),
        ],
        "files": [
            {
                "file_id": "F91",
                "title": "Metas 2025",
                "file_type": "text/plain",
                "date_created": 1733260762,
                "permalink": FILE,
                "content": "Meta da usina Gama: 35 megawatts em 2025.",
            }
        ],
    },
    "response_metadata": {"next_cursor": ""},
}


class Scripted:
    def __init__(self, answer: dict[str, Any] | None = None, refuse: str | None = None) -> None:
        self.answer = answer or ANSWER
        self.refuse = refuse
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, arguments: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(arguments)
        if self.refuse is not None:
            raise SearchRefused(self.refuse)
        return self.answer


class Recorded:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    async def __call__(self, report_id: str, line: str) -> None:
        self.lines.append((report_id, line))


def searcher(call: Scripted, **asked: Any) -> tuple[SlackSearch, Recorded]:
    recorded = Recorded()
    return SlackSearch(call, Asked(**asked), recorded), recorded


@pytest.mark.parametrize(
    ("result_channel", "report_channel", "is_dm", "shown"),
    [
        ("C5", "C7", False, True),  # a public channel's message, in another channel
        ("GBOARD", "C7", False, False),  # a private group's, elsewhere: never
        ("D9", "C7", False, False),  # an IM's, elsewhere: never
        ("GBOARD", "GBOARD", False, True),  # in that private channel itself
        ("GBOARD", "D1", True, True),  # in the requester's DM with the bot
        ("", "C7", False, True),  # a file (no channel): Slack scoped it to public types
    ],
)
def test_a_result_is_shown_only_where_its_readers_could_read_it(
    result_channel: str, report_channel: str, is_dm: bool, shown: bool
) -> None:
    assert shareable(result_channel, report_channel, is_dm) is shown


async def test_in_a_public_channel_private_results_are_dropped_whatever_slack_returned() -> None:
    call = Scripted()
    search, _ = searcher(call)
    hits = await search.search("Quanto produz a usina Gama?")
    assert [hit.url for hit in hits] == [PUBLIC, FILE]
    with pytest.raises(FetchError):
        await search.fetch(SECRET)  # dropped results are not readable either
    in_dm, _ = searcher(Scripted(), channel="D1", is_dm=True)
    assert {hit.url for hit in await in_dm.search("usina Gama")} == {PUBLIC, SECRET, DIRECT, FILE}


async def test_a_permalink_reads_as_the_text_slack_returned() -> None:
    search, _ = searcher(Scripted())
    await search.search("usina Gama")
    snapshot = await search.fetch(f"{PUBLIC}")
    assert snapshot.text == "A usina Gama produz 31 megawatts."
    assert snapshot.content_type == "text/plain"  # seen as text by the seen check
    assert snapshot.title == "#c5 — Ana Lima"
    assert snapshot.published == "2023-07-22"
    assert (await search.fetch(FILE)).title == "Metas 2025"
    assert search.kind.sole is Origin.slack
    assert search.owns(PUBLIC)
    assert search.owns("https://team.slack.com/archives/C8/p1")
    assert not search.owns("https://example.com/archives/C8/p1")


async def test_the_query_is_keywords_and_the_call_asks_public_channels_with_the_token() -> None:
    call = Scripted()
    search, _ = searcher(call)
    await search.search("<@U1> Quanto *produz* a usina `Gama`?", limit=50)
    (sent,) = call.sent
    assert sent["query"] == "produz OR usina OR gama"
    assert sent["action_token"] == "1.U1.act"
    assert sent["channel_types"] == "public_channel"
    assert sent["content_types"] == "messages,files"
    assert sent["limit"] == 20  # "up to a max of 20"
    assert keyword_query("o que é a de?") == ""


async def test_calls_are_capped_per_searcher() -> None:
    call = Scripted()
    search, _ = searcher(call)
    for n in range(CALLS_PER_SEARCHER + 2):
        await search.search(f"usina Gama {n}")
    assert len(call.sent) == CALLS_PER_SEARCHER


@pytest.mark.parametrize("code", ["missing_scope", "invalid_action_token", "ratelimited"])
async def test_an_error_stops_the_search_and_records_one_line(code: str) -> None:
    call = Scripted(refuse=code)
    search, recorded = searcher(call, language="en")
    assert await search.search("usina Gama") == []
    assert await search.search("usina Gama again") == []
    assert len(call.sent) == 1
    assert recorded.lines == [("r1", reason_for(code, "en"))]
    assert reason_for(code, "en").startswith("Slack search was not used in this research: ")


async def test_no_call_without_a_token_or_after_another_process_failed() -> None:
    call = Scripted()
    without, recorded = searcher(call, action_token=None)
    assert await without.search("usina Gama") == []
    assert recorded.lines == [("r1", reason_for("no_action_token", "pt"))]
    failed, _ = searcher(call, slack_search_note="A busca no Slack não foi usada…")
    assert await failed.search("usina Gama") == []
    assert call.sent == []


def test_an_unknown_code_is_said_as_slack_gave_it() -> None:
    assert reason_for("team_added_to_org", "pt").endswith("o Slack respondeu team_added_to_org.")


@pytest.mark.parametrize(
    ("url", "kept_off_the_web"),
    [
        (PUBLIC, True),
        (FILE, True),
        ("https://files.slack.com/files-pri/T1-F1/a.pdf", True),
        ("https://slack.com/help/articles/202528808-Search-in-Slack", False),
        ("https://example.com/archives/C1/p1", False),
    ],
)
def test_a_workspace_address_never_reaches_the_web(url: str, kept_off_the_web: bool) -> None:
    assert is_workspace_address(url) is kept_off_the_web
