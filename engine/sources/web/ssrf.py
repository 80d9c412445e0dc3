"""The network backend under the fetcher's HTTP client: it resolves every host itself, checks
every address against the policy and connects to the very address it checked.

Checking a URL before handing it to an HTTP client leaves a window (the client resolves the
name again, and DNS may answer differently the second time); checking here does not. TLS is
negotiated above this layer, so SNI and certificate checks still use the original host name.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterable
from functools import cache

import anyio
import httpcore
import httpx

from engine.errors import SourceError
from engine.sources.web.address_policy import Allowlist, refusal


class AddressRefused(SourceError):
    """A connection the address policy forbids; the message is the one-line reason."""


class GuardedBackend(httpcore.AsyncNetworkBackend):
    def __init__(
        self, allowlist: Allowlist, inner: httpcore.AsyncNetworkBackend | None = None
    ) -> None:
        self._allowlist = allowlist
        self._inner = inner if inner is not None else httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        # The name first: resolving a refused name would already send a query about it.
        self._check(host, ())
        addresses = await resolve(host, port, timeout)
        self._check(host, addresses)
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as error:
                failure = error
        assert failure is not None  # _resolve never returns an empty list
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise AddressRefused("refused: unix sockets are never fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)

    def _check(self, host: str, addresses: Iterable[str]) -> None:
        reason = refusal(host, addresses, self._allowlist)
        if reason is not None:
            raise AddressRefused(reason)


async def resolve(host: str, port: int, seconds: float | None) -> list[str]:
    """The addresses `host` resolves to now (an IP literal resolves to itself)."""
    try:
        with anyio.fail_after(seconds):
            infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except TimeoutError as error:
        raise httpcore.ConnectTimeout(f"resolving {host} timed out") from error
    except (OSError, UnicodeError) as error:
        raise httpcore.ConnectError(f"cannot resolve {host} ({error})") from error
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise httpcore.ConnectError(f"cannot resolve {host} (no address)")
    return addresses


class GuardedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a `GuardedBackend`, never through a proxy.

    httpx does not take a network backend, so the connection pool it builds is replaced by one
    built the same way around the guarded backend.
    """

    def __init__(self, allowlist: Allowlist, limits: httpx.Limits | None = None) -> None:
        limits = limits if limits is not None else httpx.Limits()
        context = _ssl_context()
        super().__init__(verify=context, trust_env=False, limits=limits)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=GuardedBackend(allowlist),
        )


@cache
def _ssl_context() -> ssl.SSLContext:
    """One verifying context for every fetcher: loading the CA bundle takes tens of ms."""
    return httpx.create_ssl_context(trust_env=False)
