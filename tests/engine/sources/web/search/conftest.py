"""A scripted HTTP API on loopback: answers queued replies and records what it was asked.

Providers are tested against it the way they talk to the real APIs: real httpx, real sockets."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer

import pytest

from tests.support.search_api import ScriptedApi, _Handler


@pytest.fixture
def api() -> Iterator[ScriptedApi]:
    scripted = ScriptedApi()
    handler = type("Handler", (_Handler,), {"api": scripted})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    scripted.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield scripted
    finally:
        scripted.release.set()
        server.shutdown()
        thread.join()
        server.server_close()
