"""The guarded backend resolves each host once per connection, checks every address, and
connects to the address it checked. Names are answered by a scripted resolver."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import anyio
import httpcore
import pytest

from engine.sources.protocols import FetchError
from engine.sources.web.address_policy import Allowlist
from engine.sources.web.fetcher import WebFetcher
from engine.sources.web.ssrf import AddressRefused, GuardedBackend
from tests.support.page_server import PageServer, page, web_config

AddrInfo = tuple[Any, ...]


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, list[list[str]]], list[str]]:
    """`resolver(name, [answer1, answer2, …])`: successive lookups of `name` get these
    answers; returns the log of names looked up."""
    answers: dict[str, list[list[str]]] = {}
    looked_up: list[str] = []
    real = anyio.getaddrinfo

    async def getaddrinfo(host: str, port: int, **kwargs: object) -> list[AddrInfo]:
        if host not in answers:
            return list(await real(host, port, **kwargs))  # type: ignore[arg-type]
        looked_up.append(host)
        queue = answers[host]
        addresses = queue.pop(0) if len(queue) > 1 else queue[0]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    monkeypatch.setattr(anyio, "getaddrinfo", getaddrinfo)

    def script(name: str, replies: list[list[str]]) -> list[str]:
        answers[name] = replies
        return looked_up

    return script


async def test_a_rebinding_name_gets_the_address_that_was_checked(
    page_server: PageServer, resolver: Callable[[str, list[list[str]]], list[str]]
) -> None:
    page_server.routes["/a"] = page("<p>Texto da página servida pelo nome pages.test.</p>")
    looked_up = resolver("pages.test", [["127.0.0.2"], ["127.0.0.1"]])
    url = f"http://pages.test:{page_server.port}/a"
    async with WebFetcher(web_config(robots=False)) as fetcher:
        snapshot = await fetcher.fetch(url)
    assert snapshot.final_url == url
    assert page_server.requests[0].headers["host"] == f"pages.test:{page_server.port}"
    assert looked_up == ["pages.test"]
    # The next connection resolves again, and this time the answer is refused.
    async with WebFetcher(web_config(robots=False)) as fetcher:
        with pytest.raises(
            FetchError, match=r"^refused: pages\.test resolves to 127\.0\.0\.1, a loopback"
        ):
            await fetcher.fetch(url)
    assert looked_up == ["pages.test", "pages.test"]
    assert len(page_server.requests) == 1


async def test_one_forbidden_address_among_allowed_ones_refuses_the_host(
    page_server: PageServer, resolver: Callable[[str, list[list[str]]], list[str]]
) -> None:
    resolver("mixed.test", [["127.0.0.2", "127.0.0.1"]])
    async with WebFetcher(web_config(robots=False)) as fetcher:
        with pytest.raises(FetchError, match=r"^refused: mixed\.test resolves to 127\.0\.0\.1"):
            await fetcher.fetch(f"http://mixed.test:{page_server.port}/")
    assert page_server.requests == []


async def test_an_allowlisted_name_may_resolve_to_a_private_address(
    page_server: PageServer, resolver: Callable[[str, list[list[str]]], list[str]]
) -> None:
    page_server.routes["/wiki"] = page("<p>Página interna da intranet, permitida pelo nome.</p>")
    resolver("wiki.intranet", [["127.0.0.2"]])
    config = web_config(allowlist=Allowlist.parse("wiki.intranet"), robots=False)
    async with WebFetcher(config) as fetcher:
        await fetcher.fetch(f"http://wiki.intranet:{page_server.port}/wiki")
        with pytest.raises(FetchError, match=r"refused: 127\.0\.0\.2 is a loopback address"):
            await fetcher.fetch(f"http://127.0.0.2:{page_server.port}/wiki")


async def test_the_next_checked_address_is_tried_when_one_does_not_answer(
    page_server: PageServer, resolver: Callable[[str, list[list[str]]], list[str]]
) -> None:
    page_server.routes["/a"] = page("<p>Servido no segundo endereço da lista resolvida.</p>")
    resolver("twice.test", [["127.0.0.3", "127.0.0.2"]])
    config = web_config(allowlist=Allowlist.parse("127.0.0.0/29"), robots=False)
    async with WebFetcher(config) as fetcher:
        await fetcher.fetch(f"http://twice.test:{page_server.port}/a")
    assert len(page_server.requests) == 1


async def test_unresolvable_names_are_a_connect_error(
    resolver: Callable[[str, list[list[str]]], list[str]],
) -> None:
    resolver("nowhere.test", [[]])
    async with WebFetcher(web_config(robots=False)) as fetcher:
        with pytest.raises(FetchError, match=r"^cannot connect: cannot resolve nowhere\.test"):
            await fetcher.fetch("http://nowhere.test/")


async def test_proxy_variables_are_ignored(
    page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    page_server.routes["/a"] = page("<p>Lido diretamente, sem passar por um proxy configurado.</p>")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.2:9")
    async with WebFetcher(web_config(robots=False)) as fetcher:
        await fetcher.fetch(page_server.url("/a"))
    assert page_server.paths() == ["/a"]


async def test_unix_sockets_are_refused() -> None:
    backend = GuardedBackend(Allowlist())
    with pytest.raises(AddressRefused, match="unix sockets"):
        await backend.connect_unix_socket("/var/run/docker.sock")


async def test_the_backend_refuses_before_connecting() -> None:
    class Recorder(httpcore.AsyncNetworkBackend):
        def __init__(self) -> None:
            self.connects: list[str] = []

        async def connect_tcp(
            self, host: str, port: int, *args: object, **kwargs: object
        ) -> httpcore.AsyncNetworkStream:
            self.connects.append(host)
            raise httpcore.ConnectError("not expected")

    inner = Recorder()
    backend = GuardedBackend(Allowlist(), inner)
    for host in ("127.0.0.1", "::1", "169.254.169.254", "localhost", "10.0.0.8"):
        with pytest.raises(AddressRefused):
            await backend.connect_tcp(host, 80, timeout=1)
    assert inner.connects == []
