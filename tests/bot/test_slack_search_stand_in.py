"""The stand-in's assistant.search.context (tests/support/slack_search.py) keeps the rules of
its pages, each checked here on its own: the scenarios rely on them."""

from __future__ import annotations

from typing import Any

from tests.support.clock import FakeClock
from tests.support.slack_search import SearchWorkspace

BOT = "xoxb-test-token"


def workspace(clock: FakeClock | None = None) -> SearchWorkspace:
    space = SearchWorkspace(clock or FakeClock())
    space.channel("C1", "geral")
    space.channel("C2", "vendas")
    space.channel("G1", "diretoria", "private_channel", {"U1"})
    space.channel("C9", "parceiro", "public_channel", {"U1"}, connect=True)
    space.channel("D1", "", "im", {"U1"})
    return space


def ask(space: SearchWorkspace, token: str, **params: Any) -> tuple[int, dict[str, Any]]:
    answer = space.answer({"action_token": token, "query": "meta", **params}, BOT)
    return answer.status, answer.body


def urls(body: dict[str, Any]) -> list[str]:
    return [r["permalink"] for kind in ("messages", "files") for r in body["results"].get(kind, [])]


def test_a_bot_token_needs_a_valid_action_token_and_a_query() -> None:
    space = workspace()
    token = space.action_token("U1", "D1")
    assert space.answer({"query": "meta"}, BOT).body["error"] == "invalid_action_token"
    assert space.answer({"query": "meta", "action_token": token}, "").body["error"] == "not_authed"
    assert ask(space, token, query=" ")[1]["error"] == "missing_query"
    space.expire(token)
    assert ask(space, token)[1]["error"] == "invalid_action_token"


def test_channel_types_need_their_scopes_and_a_bot_has_none_of_the_user_ones() -> None:
    space = workspace()
    token = space.action_token("U1", "D1")
    status, body = ask(space, token, channel_types="public_channel,private_channel")
    assert (status, body["error"], body["needed"]) == (200, "missing_scope", "search:read.private")
    space.scopes.add("search:read.private")  # a user-token scope: never a bot token's
    assert ask(space, token, channel_types="private_channel")[1]["error"] == "missing_scope"
    space.scopes.discard("search:read.files")
    assert ask(space, token, content_types="messages,files")[1]["needed"] == "search:read.files"


def test_where_it_is_invoked_narrows_what_it_returns() -> None:
    space = workspace()
    public = space.message("C2", "U2", "A meta de vendas é 10 milhões.")
    private = space.message("G1", "U3", "A meta da diretoria é 12 milhões.")
    partner = space.message("C9", "U4", "A meta do parceiro é 3 milhões.")
    in_public = ask(space, space.action_token("U1", "C1"))[1]
    assert urls(in_public) == [public, partner]
    in_private = ask(space, space.action_token("U1", "G1"))[1]
    assert set(urls(in_private)) == {public, private, partner}
    in_connect = ask(space, space.action_token("U1", "C9"))[1]
    assert urls(in_connect) == [partner]  # a Slack Connect channel: only its own
    not_a_member = ask(space, space.action_token("U5", "G1"))[1]
    assert private not in urls(not_a_member)


def test_keywords_or_clauses_bots_and_non_text_files() -> None:
    space = workspace()
    both = space.message("C1", "U2", "Planning the budget for the solar plant.")
    one = space.message("C1", "U2", "The budget is approved.")
    space.message("C1", "B1", "Budget reminder from a bot.", is_bot=True)
    text_file = space.file("C1", "U2", "Budget plan", "The solar budget, line by line.")
    space.file("C1", "U2", "Budget deck", "slides", file_type="application/vnd.ms-powerpoint")
    token = space.action_token("U1", "C1")
    assert urls(ask(space, token, query="budget plan")[1]) == [both]  # "plan" ~ "planning"
    found = urls(ask(space, token, query="budget OR solar", content_types="messages,files")[1])
    # Messages then files, each by keyword hits; the bot's message and the deck left out.
    assert found == [both, one, text_file]
    with_bots = ask(space, token, query="budget", include_bots="true")[1]
    assert len(with_bots["results"]["messages"]) == 3


def test_pages_of_at_most_twenty_with_a_cursor() -> None:
    space = workspace()
    for n in range(25):
        space.message("C1", "U2", f"meta número {n}")
    token = space.action_token("U1", "C1")
    first = ask(space, token, limit=50)[1]
    assert len(first["results"]["messages"]) == 20
    cursor = first["response_metadata"]["next_cursor"]
    second = ask(space, token, cursor=cursor)[1]
    assert len(second["results"]["messages"]) == 5
    assert second["response_metadata"]["next_cursor"] == ""
    assert ask(space, token, cursor="not-a-cursor")[1]["error"] == "invalid_cursor"


def test_ten_calls_a_minute_per_user_then_429_with_retry_after() -> None:
    clock = FakeClock()
    space = workspace(clock)
    token = space.action_token("U1", "C1")
    for _ in range(10):
        assert ask(space, token)[0] == 200
    answer = space.answer({"action_token": token, "query": "meta"}, BOT)
    assert (answer.status, answer.body["error"]) == (429, "ratelimited")
    assert answer.headers["Retry-After"] == "60"
    other = space.action_token("U2", "C1")
    assert ask(space, other)[0] == 200  # the limit is the user's
    clock.advance(60)
    assert ask(space, token)[0] == 200
