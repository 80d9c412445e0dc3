"""Files shared in a thread or a DM: which shares are the bot's, what it keeps and for which
conversation, the one reply listing what was kept and what not (in the user's language),
and the question the message carries, asked once the files are kept."""

from __future__ import annotations

from typing import Any

import pytest

from bot.conversation.shared_files import share_files, share_step
from bot.files import Conversation, conversation_files
from bot.flows import handle_step
from bot.runtime import Runtime
from bot.steps import Ask, ShareFiles
from tests.support.pdfs import pdf_bytes
from tests.support.slack_stub import SlackStub

PDF = pdf_bytes(["Relatorio anual.", "A receita da Acme foi de 42 milhoes em 2024."])
USER = "U1"


def replies(slack: SlackStub, channel: str, thread_ts: str) -> list[str]:
    return [
        str(c.params["text"])
        for c in slack.calls_to("chat.postMessage")
        if c.params.get("channel") == channel and c.params.get("thread_ts") == thread_ts
    ]


async def test_a_file_dropped_in_channel_chatter_is_none_of_the_bots_business(
    rt: Runtime, slack: SlackStub
) -> None:
    event = slack.share_file(USER, "C1", "acme.pdf", PDF, "application/pdf", text="olhem isto")

    assert await share_step(rt, event, "event:1", mentioned=False) is None
    assert slack.calls_to("file_download") == []


async def test_a_dm_share_with_a_question_asks_it_after_keeping_the_file(
    rt: Runtime, slack: SlackStub
) -> None:
    event = slack.share_file(
        USER, "D1", "acme.pdf", PDF, "application/pdf", text="Qual foi a receita da Acme?"
    )

    step = await share_step(rt, event, "event:2", mentioned=False)

    assert isinstance(step, ShareFiles)
    assert step.thread_ts == event["ts"]
    assert step.is_dm
    assert [f.name for f in step.files] == ["acme.pdf"]
    assert isinstance(step.then, Ask)
    assert step.then.text == "Qual foi a receita da Acme?"
    assert step.then.thread_ts == event["ts"]


async def test_a_channel_share_that_mentions_the_bot_is_kept_for_its_thread_only(
    rt: Runtime, slack: SlackStub
) -> None:
    event = slack.share_file(
        USER, "C1", "acme.pdf", PDF, "application/pdf", text="<@UBOT>", ts="1700000600.000100"
    )
    step = await share_step(rt, event, "event:3", mentioned=True)
    assert step is not None
    assert step.then is None, "a mention with no question asks nothing more"

    await share_files(rt, step)

    store = conversation_files(rt.settings)
    assert store.folder(Conversation("C1", "1700000600.000100")) is not None
    assert store.folder(Conversation("C1", "1700000700.000100")) is None
    assert store.folder(Conversation("C2", "1700000600.000100")) is None
    [reply] = replies(slack, "C1", "1700000600.000100")
    assert "*acme.pdf*" in reply


async def test_the_reply_lists_each_refused_file_with_its_reason_in_the_users_language(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    settings = make_settings(redis=False, slack_file_mb=0.001)  # about 1 KB
    rt = await runtimes(settings)
    big = slack.files.share(USER, "big.pdf", PDF, "application/pdf")
    exe = slack.files.share(USER, "tool.exe", b"MZ\x90\x00", "application/x-msdownload")
    notes = slack.files.share(USER, "notes.md", b"# Notes\nRevenue was 42.", "text/plain")
    event = slack.share_file(USER, "D1", "x.md", b"# x", "text/plain")
    event["files"] = [f.answer() for f in (big, exe, notes)]
    event["text"] = "What was the revenue of Acme in 2024?"
    step = await share_step(rt, event, "event:4", mentioned=False)
    assert step is not None

    await share_files(rt, step)

    [reply] = replies(slack, "D1", event["ts"])
    assert "Kept *notes.md*" in reply
    assert "• big.pdf: larger than 0.001 MB" in reply
    assert "• tool.exe: a type I do not read" in reply
    kept = conversation_files(settings).files(Conversation("D1"))
    assert [k.file for k in kept] == ["notes.md"]
    assert kept[0].url == notes.permalink


async def test_a_file_name_cannot_ping_the_channel(rt: Runtime, slack: SlackStub) -> None:
    event = slack.share_file(USER, "D1", "<!channel>.md", b"# x", "text/plain")

    step = await share_step(rt, event, "event:5", mentioned=False)
    assert step is not None
    await share_files(rt, step)

    [reply] = replies(slack, "D1", event["ts"])
    assert "<!channel>" not in reply


@pytest.mark.parametrize("mark", ["\u202e", "\u2066", "\u200f", "\x85"])
async def test_a_file_names_bidi_and_control_characters_are_shown_escaped(
    rt: Runtime, slack: SlackStub, mark: str
) -> None:
    """A name that reverses what follows it ("contrato<RLO>dm.exe" shows as "contratoexe.md")
    is shown as it is, its mark written as an escape."""
    event = slack.share_file(USER, "D1", f"contrato{mark}dm.exe.md", b"# x", "text/plain")

    step = await share_step(rt, event, "event:5b", mentioned=False)
    assert step is not None
    await share_files(rt, step)

    [reply] = replies(slack, "D1", event["ts"])
    assert mark not in reply
    assert f"contrato\\{'x' if ord(mark) < 0x100 else 'u'}" in reply


async def test_the_question_runs_after_the_files_are_kept(rt: Runtime, slack: SlackStub) -> None:
    event = slack.share_file(
        USER, "D1", "acme.pdf", PDF, "application/pdf", text="Qual foi a receita da Acme?"
    )
    step = await share_step(rt, event, "event:6", mentioned=False)
    assert step is not None
    seen: list[bool] = []
    original = rt.model.clarify

    async def clarify(*args: Any) -> Any:
        seen.append(conversation_files(rt.settings).folder(Conversation("D1")) is not None)
        return await original(*args)

    rt.model.clarify = clarify  # type: ignore[method-assign]

    await handle_step(rt, step)

    assert seen == [True], "the research's first step sees the kept file"
    assert await rt.states.by_thread("D1", event["ts"]) is not None


def test_the_step_crosses_to_a_worker_with_its_question() -> None:
    from bot.files import SharedFile
    from bot.steps import decode_step, encode_step

    ask = Ask(origin="event:7", channel="D1", thread_ts="1.1", user=USER, text="Q?", is_dm=True)
    step = ShareFiles(
        origin="event:7",
        channel="D1",
        user=USER,
        thread_ts="1.1",
        ts="1.1",
        is_dm=True,
        files=[SharedFile(id="F1", name="a.pdf", size=3, permalink="https://x/F1")],
        then=ask,
    )

    assert decode_step(encode_step(step)) == step


async def test_a_file_shared_in_a_reports_thread_is_kept_without_a_mention(
    rt: Runtime, slack: SlackStub
) -> None:
    await rt.states.link_thread("C1", "1700000800.000100", "r-1")
    event = slack.share_file(
        USER,
        "C1",
        "notes.md",
        b"# Notas",
        "text/plain",
        thread_ts="1700000800.000100",
        ts="1700000801.000100",
    )

    step = await share_step(rt, event, "event:8", mentioned=False)
    assert step is not None
    await share_files(rt, step)

    kept = conversation_files(rt.settings).files(Conversation("C1", "1700000800.000100"))
    assert [k.file for k in kept] == ["notes.md"]


async def test_a_slack_connect_share_is_described_by_files_info(
    rt: Runtime, slack: SlackStub
) -> None:
    stored = slack.files.share("U9", "acme.pdf", PDF, "application/pdf")
    event = slack.share_file(USER, "D1", "x.md", b"# x", "text/plain", ts="1700000900.000100")
    event["files"] = [{"id": stored.id, "mode": "file_access", "file_access": "check_file_info"}]
    step = await share_step(rt, event, "event:9", mentioned=False)
    assert step is not None

    await share_files(rt, step)

    assert [c.params["file"] for c in slack.calls_to("files.info")] == [stored.id]
    kept = conversation_files(rt.settings).files(Conversation("D1"))
    assert [k.url for k in kept] == [stored.permalink]


async def test_without_files_read_a_slack_connect_share_is_refused(
    rt: Runtime, slack: SlackStub
) -> None:
    slack.revoke("files:read")
    event = slack.share_file(USER, "D1", "x.md", b"# x", "text/plain", ts="1700001000.000100")
    event["files"] = [{"id": "FU0001", "file_access": "check_file_info"}]
    step = await share_step(rt, event, "event:10", mentioned=False)
    assert step is not None

    await share_files(rt, step)

    [reply] = replies(slack, "D1", event["ts"])
    assert "não consegui baixá-lo do Slack" in reply
    assert slack.calls_to("files.info", ok_only=False)[0].error == "missing_scope"


async def test_a_share_without_words_is_answered_in_the_users_slack_locale_else_both(
    rt: Runtime, slack: SlackStub
) -> None:
    slack.users.add("U2", locale="en-US")
    theirs = slack.share_file("U2", "D2", "a.md", b"# a", "text/plain", ts="1700001100.000100")
    unknown = slack.share_file("U3", "D3", "b.md", b"# b", "text/plain", ts="1700001200.000100")

    for origin, event in (("event:11", theirs), ("event:12", unknown)):
        step = await share_step(rt, event, origin, mentioned=False)
        assert step is not None
        await share_files(rt, step)

    [english] = replies(slack, "D2", theirs["ts"])
    assert english.startswith("Kept *a.md*")
    assert "Guardei" not in english
    [both] = replies(slack, "D3", unknown["ts"])
    assert "Guardei *b.md*" in both
    assert "Kept *b.md*" in both
