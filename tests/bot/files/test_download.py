"""Downloading a shared file: the bot token, to the file's own host only, within the size
cap, and the file itself (not Slack's sign-in page, not another kind under its name)."""

from __future__ import annotations

import tracemalloc
from collections.abc import AsyncIterator

import httpx
import pytest

from bot import files
from bot.files import Downloaded, FileRefusal, Reason, SharedFile, download, trusted_origins
from tests.support.bot_env import BOT_TOKEN
from tests.support.hostile_files import compressed_zeros, streamed
from tests.support.pdfs import pdf_bytes
from tests.support.slack_files import LoopbackHosts
from tests.support.slack_stub import SlackStub

PDF = pdf_bytes(["A receita foi de 42 milhoes."])


def shared(slack: SlackStub, name: str, content: bytes, mimetype: str) -> SharedFile:
    event = slack.share_file("U1", "D1", name, content, mimetype)
    return SharedFile.from_slack(event["files"][0])


async def test_a_shared_pdf_is_downloaded_with_the_bot_token(slack: SlackStub) -> None:
    file = shared(slack, "acme.pdf", PDF, "application/pdf")

    got = await download(file, BOT_TOKEN, origins=trusted_origins(slack.api_url))

    assert isinstance(got, Downloaded)
    assert got.content == PDF
    [fetch] = slack.calls_to("file_download")
    assert fetch.params["token"] == BOT_TOKEN
    assert fetch.params["tail"] == "download/acme.pdf"


async def test_without_files_read_slack_answers_its_sign_in_page(slack: SlackStub) -> None:
    slack.revoke("files:read")
    file = shared(slack, "acme.pdf", PDF, "application/pdf")

    got = await download(file, BOT_TOKEN, origins=trusted_origins(slack.api_url))

    assert got == FileRefusal(file, Reason.login_page)
    assert slack.calls_to("file_download")[0].status == 200, "Slack's page comes with 200"


async def test_the_stand_in_redirects_a_request_without_a_token_to_sign_in(
    slack: SlackStub,
) -> None:
    file = shared(slack, "acme.pdf", PDF, "application/pdf")
    async with httpx.AsyncClient() as client:
        answer = await client.get(file.url_private_download)

    assert answer.status_code == 302
    assert "?redir=%2Ffiles-pri%2F" in answer.headers["location"]


async def test_an_oversized_file_is_refused_before_a_byte_is_read(slack: SlackStub) -> None:
    file = shared(slack, "acme.pdf", PDF, "application/pdf")

    got = await download(
        file, BOT_TOKEN, origins=trusted_origins(slack.api_url), max_bytes=len(PDF) - 1
    )

    assert got == FileRefusal(file, Reason.too_big)
    assert slack.calls_to("file_download") == []


async def test_a_file_object_that_understates_its_size_is_cut_off_while_streaming() -> None:
    async def endless() -> AsyncIterator[bytes]:
        for _ in range(100):
            yield b"%PDF-" + b"x" * 1000

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=endless())  # streamed: no Content-Length

    file = SharedFile(
        id="F1",
        name="a.pdf",
        mimetype="application/pdf",
        size=10,
        url_private_download="https://files.slack.com/files-pri/T1-F1/download/a.pdf",
    )
    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        got = await download(
            file, BOT_TOKEN, origins=trusted_origins(None), max_bytes=5000, client=client
        )

    assert got == FileRefusal(file, Reason.too_big)


async def test_the_token_never_goes_to_another_host_nor_follows_a_redirect_off_it() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.url.host} {request.headers.get('authorization')}")
        if request.url.host == "files.slack.com":
            return httpx.Response(302, headers={"location": "https://collector.example/x.pdf"})
        return httpx.Response(200, content=PDF)

    off_host = SharedFile(
        id="F1", name="a.pdf", url_private_download="https://collector.example/a.pdf"
    )
    redirected = SharedFile(
        id="F2", name="b.pdf", url_private_download="https://files.slack.com/files-pri/T1-F2/b.pdf"
    )
    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        first = await download(off_host, BOT_TOKEN, origins=trusted_origins(None), client=client)
        second = await download(redirected, BOT_TOKEN, origins=trusted_origins(None), client=client)

    assert first == FileRefusal(off_host, Reason.not_downloaded)
    assert second == FileRefusal(redirected, Reason.not_downloaded)
    assert seen == [f"files.slack.com Bearer {BOT_TOKEN}"]


@pytest.mark.parametrize("host", ["files-origin.slack.com", "slack-files.com"])
async def test_a_redirect_to_another_slack_file_host_is_followed_with_the_token(
    slack: SlackStub, host: str
) -> None:
    # Enterprise Grid's files.slack.com answers a 302 to files-origin.slack.com
    # (NousResearch/hermes-agent#114483); a PDF's url_private, to slack-files.com.
    slack.files.redirect_to = f"https://{host}"
    file = shared(slack, "acme.pdf", PDF, "application/pdf")
    dns = LoopbackHosts(slack.base_url, {host})
    async with httpx.AsyncClient(transport=dns) as client:
        got = await download(file, BOT_TOKEN, origins=trusted_origins(slack.api_url), client=client)

    assert isinstance(got, Downloaded)
    assert got.content == PDF
    assert dns.asked == [f"127.0.0.1 Bearer {BOT_TOKEN}", f"{host} Bearer {BOT_TOKEN}"]
    assert [c.status for c in slack.calls_to("file_download", ok_only=False)] == [302, 200]


@pytest.mark.parametrize(
    "origin",
    [
        "https://files.example.com",
        "https://files-origin.slack.com.example.com",
        "http://files-origin.slack.com",
        "https://files-origin.slack.com:8443",
        "https://files.slack-gov.com",
    ],
)
async def test_a_redirect_off_slacks_file_hosts_is_refused_before_the_token_leaves(
    slack: SlackStub, origin: str
) -> None:
    slack.files.redirect_to = origin
    file = shared(slack, "acme.pdf", PDF, "application/pdf")
    foreign = httpx.URL(origin).host
    dns = LoopbackHosts(slack.base_url, {foreign})
    async with httpx.AsyncClient(transport=dns) as client:
        got = await download(file, BOT_TOKEN, origins=trusted_origins(slack.api_url), client=client)

    assert got == FileRefusal(file, Reason.not_downloaded)
    assert dns.asked == [f"127.0.0.1 Bearer {BOT_TOKEN}"], "nothing was sent to the other host"


def test_govslack_trusts_its_own_file_host_and_no_commercial_one() -> None:
    # "GovSlack does not run on the slack.com domain ... data between commercial Slack and
    # GovSlack will be completely isolated" (https://api.slack-gov.com/gov-slack/about).
    gov = trusted_origins("https://slack-gov.com/api/")
    assert ("https", "files.slack-gov.com", 443) in gov
    assert not any(host.endswith(".slack.com") for _, host, _ in gov)
    assert files.slack_file_hosts(None) == files.slack_file_hosts("https://slack.com/api/")
    assert "files.slack-gov.com" not in files.slack_file_hosts(None)


async def test_a_redirect_to_slacks_sign_in_is_read_as_the_login_page() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        location = "https://fonte.slack.com/?redir=%2Ffiles-pri%2FT1-F2%2Fb.pdf"
        return httpx.Response(302, headers={"location": location})

    file = SharedFile(
        id="F2", name="b.pdf", url_private_download="https://files.slack.com/files-pri/T1-F2/b.pdf"
    )
    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        got = await download(file, BOT_TOKEN, origins=trusted_origins(None), client=client)

    assert got == FileRefusal(file, Reason.login_page)


async def test_an_executable_is_refused_by_its_name_and_a_disguised_one_by_its_bytes(
    slack: SlackStub,
) -> None:
    exe = shared(slack, "setup.exe", b"MZ\x90\x00", "application/x-msdownload")
    disguised = shared(slack, "report.pdf", b"MZ\x90\x00 not a pdf", "application/pdf")
    origins = trusted_origins(slack.api_url)

    assert await download(exe, BOT_TOKEN, origins=origins) == FileRefusal(exe, Reason.not_supported)
    assert await download(disguised, BOT_TOKEN, origins=origins) == FileRefusal(
        disguised, Reason.not_supported
    )
    assert len(slack.calls_to("file_download")) == 1, "the .exe is never downloaded"


async def test_a_slack_connect_file_without_urls_is_not_downloaded() -> None:
    file = SharedFile.from_slack(
        {"id": "F9", "mode": "file_access", "file_access": "check_file_info"}
    )

    got = await download(file, BOT_TOKEN, origins=trusted_origins(None))

    assert got == FileRefusal(file, Reason.not_downloaded)


@pytest.mark.parametrize("encoding", ["br", "gzip"])
async def test_a_compressed_body_is_cut_as_it_inflates_not_after(encoding: str) -> None:
    bomb = compressed_zeros(encoding, 256 * 1024 * 1024)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=streamed(bomb), headers={"content-encoding": encoding})

    file = SharedFile(
        id="F1",
        name="a.pdf",
        mimetype="application/pdf",
        size=len(bomb),
        url_private_download="https://files.slack.com/files-pri/T1-F1/download/a.pdf",
    )
    tracemalloc.start()
    try:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
            got = await download(
                file, BOT_TOKEN, origins=trusted_origins(None), max_bytes=1_000_000, client=client
            )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == FileRefusal(file, Reason.too_big)
    assert peak < 20_000_000, f"{peak:,} bytes held for a 1 MB cap"
