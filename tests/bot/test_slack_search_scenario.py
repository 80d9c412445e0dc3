"""Slack search as a source, end to end (docs/slack.md, "Slack search as a source"): with
FONTE_SLACK_SEARCH on and the requester's consent, a research in a thread finds a message of
the workspace through assistant.search.context (the stand-in's `slack.search`), cites its
permalink and verifies the excerpt on the text the API returned; a private channel's message
is used in that channel and never in a public one; off by default, and without consent, no
call is made; an API error leaves the research to its other sources and one line in the
report saying why."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.redis.consents import consents_store
from bot.slack.blocks import START
from bot.sources.slack_search import METHOD, reason_for
from engine import ClaimStatus, Report
from engine.sources import Origin
from tests.support.bot_env import LIMITS_QUESTION, AskingModel
from tests.support.slack_stub import SlackStub
from tests.support.slack_surface import Surface, researched

Open = Callable[..., Awaitable[Surface]]

GAMMA = (
    "A usina solar Gama do vale produz 31 megawatts desde março, segundo a equipe de "
    "operações do parque."
)
BOARD = (
    "A usina solar Gama do vale vai produzir 40 megawatts depois da ampliação, decidiu a "
    "diretoria em reunião fechada."
)
QUESTION = "Quanto produz a usina solar Gama do vale?"


def workspace(slack: SlackStub) -> tuple[str, str]:
    """A public channel C5 with the operations team's figure, and a private channel GBOARD
    (U1 a member) with the board's: their permalinks."""
    slack.search.channel("C5", "energia", "public_channel", {"U1", "U2"})
    slack.search.channel("GBOARD", "diretoria", "private_channel", {"U1", "U3"})
    slack.search.channel("D7", "", "im", {"U1"})
    public = slack.search.message("C5", "U2", GAMMA, "Ana Lima")
    private = slack.search.message("GBOARD", "U3", BOARD, "Bia Reis")
    return public, private


def mention(channel: str, ts: str, text: str, token: str | None) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "app_mention",
        "channel": channel,
        "user": "U1",
        "ts": ts,
        "text": f"<@UBOT> {text}",
    }
    return event | ({"action_token": token} if token else {})


def searches(slack: SlackStub) -> list[Any]:
    return slack.calls_to(METHOD, ok_only=False)


def verified_from(report: Report, url: str) -> list[Any]:
    return [
        report.claim(claim_id)
        for claim_id in report.cited_claim_ids()
        if report.claim(claim_id).url == url
        and report.claim(claim_id).status is ClaimStatus.verified
    ]


def offers(slack: SlackStub) -> list[Any]:
    return [
        call
        for call in slack.calls_to("chat.postEphemeral")
        if "slack_search_consent_yes" in call.text_of_blocks()
    ]


async def allow(s: Surface, user: str = "U1") -> None:
    await consents_store(s.rt.redis, s.rt.keys, s.rt.states).decide_slack_search(user, True)


async def test_a_research_in_a_thread_cites_a_workspace_message_verified(
    surface: Open,
) -> None:
    s = await surface(slack_search=True)
    public, private = workspace(s.slack)
    token = s.slack.search.action_token("U1", "C5")
    await s.event(mention("C5", "5.1", QUESTION, token))
    # The first research brings its requester, alone, the offer: allowed with its button.
    offer = await s.slack.wait_for(lambda: offers(s.slack), what="the offer")
    assert offer[0].params["user"] == "U1"
    await s.action("U1", "C5", "slack_search_consent_yes", json.dumps({"a": 1, "l": "pt"}))
    await s.slack.wait_for(
        lambda: [
            c
            for c in s.slack.calls_to("chat.postEphemeral")
            if "busco como você" in str(c.params.get("text"))
        ],
        what="the consent kept",
    )
    planned = await s.wait_report("C5", "5.1", lambda state: state.plan_ts is not None)
    await s.action("U1", "C5", START, json.dumps({"r": planned.report_id}))
    done = await s.wait_report("C5", "5.1", lambda state: state.status == "delivered", 60)
    report = await s.rt.states.load_report(done.report_id, done.reported)
    assert report is not None
    cited = verified_from(report, public)
    assert cited, [(c.url, c.status, c.reason) for c in report.claims]
    assert any("31 megawatts" in claim.excerpt for claim in cited)
    assert all(claim.excerpt in GAMMA for claim in cited)  # on the text Slack returned
    assert report.origins[public] == Origin.slack
    files = "\n".join(body.decode("utf-8", "replace") for body in s.slack.uploads.values())
    assert public in files  # the report's files cite the permalink,
    assert "busca do Slack" in files  # and say where it came from
    assert not any(claim.url == private for claim in report.claims)
    made = searches(s.slack)
    assert made
    assert all(call.ok for call in made)
    assert {call.params["action_token"] for call in made} == {token}
    assert {call.params["channel_types"] for call in made} == {"public_channel"}
    assert not any("Slack" in note for note in report.notes)


@pytest.fixture
async def embedded(
    slack: SlackStub, make_settings: Any, runtimes: Any, bolt_http: Any
) -> Callable[..., Awaitable[Surface]]:
    """The embedded bot over HTTP with these settings: one set-up, for the rules."""

    async def open_surface(**overrides: Any) -> Surface:
        model = {"model": overrides.pop("model")} if "model" in overrides else {}
        rt = await runtimes(make_settings(redis=False, **overrides), **model)
        return Surface(rt, slack, "http", False, await bolt_http(rt))

    return open_surface


async def test_a_private_channel_message_is_used_there_and_never_in_a_public_channel(
    embedded: Open,
) -> None:
    s = await embedded(slack_search=True)
    public, private = workspace(s.slack)
    await allow(s)
    token = s.slack.search.action_token("U1", "C5")
    in_public = await researched(s, "C5", "5.1", QUESTION, extra={"action_token": token})
    assert verified_from(in_public, public)
    assert not any(claim.url == private for claim in in_public.claims)
    assert not any("40 megawatts" in claim.excerpt for claim in in_public.claims)
    # Asked in the private channel itself, its members may read its message: used there.
    board_token = s.slack.search.action_token("U1", "GBOARD")
    in_board = await researched(s, "GBOARD", "8.1", QUESTION, extra={"action_token": board_token})
    assert verified_from(in_board, private), [(c.url, c.status) for c in in_board.claims]


async def test_off_by_default_no_call_is_made(embedded: Open) -> None:
    s = await embedded()
    workspace(s.slack)
    await allow(s)  # even with consent: the deployment did not turn it on
    token = s.slack.search.action_token("U1", "C5")
    report = await researched(s, "C5", "5.1", QUESTION, extra={"action_token": token})
    assert report.question == QUESTION  # the research ran and was delivered
    assert searches(s.slack) == []
    assert offers(s.slack) == []


@pytest.mark.parametrize("answer", [None, "slack_search_consent_no"])
async def test_without_consent_no_call_is_made(embedded: Open, answer: str | None) -> None:
    s = await embedded(slack_search=True)
    workspace(s.slack)
    token = s.slack.search.action_token("U1", "C5")
    await s.event(mention("C5", "5.1", QUESTION, token))
    await s.slack.wait_for(lambda: offers(s.slack), what="the offer")
    if answer is not None:  # declined; or never answered
        await s.action("U1", "C5", answer, json.dumps({"a": 0, "l": "pt"}))
        consents = consents_store(s.rt.redis, s.rt.keys, s.rt.states)
        await s.slack.wait_for(
            lambda: [
                c for c in s.slack.calls_to("chat.postEphemeral") if "desligada" in str(c.params)
            ],
            what="the refusal kept",
        )
        assert await consents.slack_search("U1") is False
    planned = await s.wait_report("C5", "5.1", lambda state: state.plan_ts is not None)
    await s.action("U1", "C5", START, json.dumps({"r": planned.report_id}))
    done = await s.wait_report("C5", "5.1", lambda state: state.status == "delivered", 60)
    assert done.reported
    assert searches(s.slack) == []


def _no_scope(slack: SlackStub, token: str) -> None:
    slack.search.scopes.discard("search:read.public")


def _expired(slack: SlackStub, token: str) -> None:
    slack.search.expire(token)


def _limited(slack: SlackStub, token: str) -> None:
    slack.search.calls["U1"] = [slack.search.clock()] * 10  # ten searches this minute


@pytest.mark.parametrize(
    ("code", "set_up"),
    [("missing_scope", _no_scope), ("invalid_action_token", _expired), ("ratelimited", _limited)],
)
async def test_an_api_error_leaves_the_research_to_its_other_sources_and_says_so(
    embedded: Open, code: str, set_up: Callable[[SlackStub, str], None]
) -> None:
    s = await embedded(slack_search=True)
    workspace(s.slack)
    await allow(s)
    token = s.slack.search.action_token("U1", "C5")
    set_up(s.slack, token)
    report = await researched(s, "C5", "5.1", LIMITS_QUESTION, extra={"action_token": token})
    made = searches(s.slack)
    assert [call.error for call in made] == [code]  # one call, and none after it failed
    line = reason_for(code, "pt")
    assert report.notes.count(line) == 1
    assert "\n" not in line
    library = [c for c in report.claims if c.status is ClaimStatus.verified]
    assert library
    assert all("lei-14300" in c.url or "mercado" in c.url for c in library)


async def test_a_request_without_an_action_token_makes_no_call_and_says_why(
    embedded: Open,
) -> None:
    s = await embedded(slack_search=True)
    workspace(s.slack)
    await allow(s)
    report = await researched(s, "C5", "5.1", LIMITS_QUESTION)
    assert searches(s.slack) == []
    assert reason_for("no_action_token", "pt") in report.notes


async def test_a_failure_in_any_process_reaches_the_report_in_one_line(surface: Open) -> None:
    """With Redis, the failing search runs in a worker's subagent job: its line crosses to
    the report through the report's state, in every set-up."""
    s = await surface(slack_search=True)
    workspace(s.slack)
    await allow(s)
    token = s.slack.search.action_token("U1", "C5")
    s.slack.search.expire(token)  # the short-lived token is gone when the research runs
    report = await researched(s, "C5", "5.1", LIMITS_QUESTION, extra={"action_token": token})
    made = searches(s.slack)
    assert made
    assert {call.error for call in made} == {"invalid_action_token"}
    assert report.notes.count(reason_for("invalid_action_token", "pt")) == 1
    assert any(c.status is ClaimStatus.verified for c in report.claims)


@pytest.mark.parametrize(("answerer", "searched"), [("U1", True), ("U2", False)])
async def test_the_requester_s_answer_brings_a_fresher_token_and_nobody_else_s(
    embedded: Open, answerer: str, searched: bool
) -> None:
    """The token is short-lived: the requester's answer to a clarifying question (mentioning
    the bot, so its event carries one) replaces the brief's; another person's never does,
    since the search is made as the requester."""
    s = await embedded(slack_search=True, model=AskingModel())
    public, _ = workspace(s.slack)
    await allow(s)
    first = s.slack.search.action_token("U1", "C5")
    s.slack.search.expire(first)
    await s.event(mention("C5", "5.1", QUESTION, first))
    await s.wait_report("C5", "5.1", lambda state: state.questions_ts is not None)
    fresh = s.slack.search.action_token(answerer, "C5")
    answer = mention("C5", "5.2", "Brasil", fresh) | {"user": answerer, "thread_ts": "5.1"}
    await s.event(answer)
    planned = await s.wait_report("C5", "5.1", lambda state: state.plan_ts is not None)
    await s.action("U1", "C5", START, json.dumps({"r": planned.report_id}))
    done = await s.wait_report("C5", "5.1", lambda state: state.status == "delivered", 60)
    report = await s.rt.states.load_report(done.report_id, done.reported)
    assert report is not None
    made = searches(s.slack)
    assert {call.params["action_token"] for call in made} == {fresh if searched else first}
    assert bool(verified_from(report, public)) is searched
    expired = reason_for("invalid_action_token", "pt")
    assert (expired in report.notes) is not searched
