from __future__ import annotations

from ipaddress import ip_network

import pytest

from engine.settings import BadInput
from engine.sources.web.config import USER_AGENT, FetchConfig


def test_defaults_without_variables() -> None:
    config = FetchConfig.from_env({})
    assert config == FetchConfig()
    assert (config.timeout, config.max_bytes, config.max_redirects) == (30.0, 20_000_000, 5)
    assert config.robots is True
    assert config.user_agent == USER_AGENT == "FonteBot/0.1 (+https://github.com/fonte)"


def test_every_variable_is_read() -> None:
    config = FetchConfig.from_env(
        {
            "FONTE_FETCH_ALLOWLIST": "127.0.0.2/32,wiki.intranet",
            "FONTE_FETCH_TIMEOUT": "4.5",
            "FONTE_FETCH_MAX_BYTES": "1_000_000",
            "FONTE_FETCH_ROBOTS": "0",
            "FONTE_FETCH_PER_HOST": "3",
            "FONTE_FETCH_DELAY": "0",
            "UNRELATED": "x",
        }
    )
    assert config.allowlist.networks == (ip_network("127.0.0.2/32"),)
    assert config.allowlist.hostnames == frozenset({"wiki.intranet"})
    assert config.timeout == 4.5
    assert (config.connect_timeout, config.read_timeout) == (4.5, 4.5)
    assert config.max_bytes == 1_000_000
    assert config.robots is False
    assert config.per_host == 3
    assert config.delay == 0.0


def test_empty_values_keep_defaults() -> None:
    assert (
        FetchConfig.from_env({"FONTE_FETCH_TIMEOUT": " ", "FONTE_FETCH_ROBOTS": ""})
        == FetchConfig()
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("FONTE_FETCH_TIMEOUT", "soon"),
        ("FONTE_FETCH_TIMEOUT", "0"),
        ("FONTE_FETCH_TIMEOUT", "inf"),
        ("FONTE_FETCH_TIMEOUT", "nan"),
        ("FONTE_FETCH_MAX_BYTES", "20MB"),
        ("FONTE_FETCH_MAX_BYTES", "0"),
        ("FONTE_FETCH_ROBOTS", "maybe"),
        ("FONTE_FETCH_PER_HOST", "1.5"),
        ("FONTE_FETCH_DELAY", "-1"),
        ("FONTE_FETCH_ALLOWLIST", "10.0.0.0/8, not a host"),
    ],
)
def test_bad_values_give_one_line_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(BadInput) as raised:
        FetchConfig.from_env({name: value})
    message = str(raised.value)
    assert message.startswith(f"{name}=")
    assert "\n" not in message


def test_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FONTE_FETCH_PER_HOST", "7")
    assert FetchConfig.from_env().per_host == 7
