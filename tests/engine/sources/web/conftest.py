"""The loopback web stand-in's fixtures (tests/support/page_server.py) for the web tests."""

from tests.support.page_server import page_server, web_fetcher

__all__ = ["page_server", "web_fetcher"]
