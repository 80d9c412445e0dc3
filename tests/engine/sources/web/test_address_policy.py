from __future__ import annotations

from ipaddress import IPv6Address, ip_address, ip_network

import pytest

from engine.sources.web.address_policy import Allowlist, address_kind, embedded_ipv4, refusal


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "a loopback address"),
        ("127.8.9.10", "a loopback address"),
        ("::1", "a loopback address"),
        ("0.0.0.0", "an unspecified address"),
        ("::", "an unspecified address"),
        ("10.1.2.3", "a private address"),
        ("172.16.0.1", "a private address"),
        ("192.168.1.1", "a private address"),
        ("fc00::1", "a private address"),
        ("fd12:3456::1", "a private address"),
        ("169.254.1.1", "a link-local address"),
        ("fe80::1", "a link-local address"),
        ("224.0.0.1", "a multicast address"),
        ("239.255.255.250", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("240.0.0.1", "a reserved address"),
        ("100.64.0.1", "not a public address"),
        ("169.254.169.254", "a cloud metadata address"),
        ("fd00:ec2::254", "a cloud metadata address"),
        ("100.100.100.200", "a cloud metadata address"),
        ("::ffff:127.0.0.1", "a loopback address"),
        ("::ffff:10.0.0.1", "a private address"),
        ("::ffff:169.254.169.254", "a cloud metadata address"),
        ("2002:7f00:1::", "a loopback address"),
        ("64:ff9b::a9fe:a9fe", "a cloud metadata address"),
        ("fec0::1", "a site-local address"),
    ],
)
def test_addresses_that_are_not_public_unicast_are_named(address: str, kind: str) -> None:
    assert address_kind(ip_address(address)) == kind


@pytest.mark.parametrize(
    "address", ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]
)
def test_public_unicast_addresses_pass(address: str) -> None:
    assert address_kind(ip_address(address)) is None


def test_embedded_ipv4_reads_mapped_6to4_and_nat64() -> None:
    assert embedded_ipv4(IPv6Address("::ffff:1.2.3.4")) == ip_address("1.2.3.4")
    assert embedded_ipv4(IPv6Address("2002:0102:0304::")) == ip_address("1.2.3.4")
    assert embedded_ipv4(IPv6Address("64:ff9b::0102:0304")) == ip_address("1.2.3.4")
    assert embedded_ipv4(IPv6Address("2606:4700::1111")) is None


def test_refusal_names_the_address_and_what_it_is() -> None:
    nothing = Allowlist()
    assert (
        refusal("127.0.0.1", ["127.0.0.1"], nothing) == "refused: 127.0.0.1 is a loopback address"
    )
    assert refusal("[::1]", ["::1"], nothing) == "refused: ::1 is a loopback address"
    assert (
        refusal("localhost", ["127.0.0.1"], nothing)
        == "refused: localhost resolves to 127.0.0.1, a loopback address"
    )
    assert refusal("example.org", ["93.184.216.34"], nothing) is None


def test_a_host_with_one_private_address_among_public_ones_is_refused() -> None:
    reason = refusal("rebind.example", ["93.184.216.34", "10.0.0.5"], Allowlist())
    assert reason == "refused: rebind.example resolves to 10.0.0.5, a private address"


def test_metadata_host_names_are_refused_before_any_address() -> None:
    assert refusal("metadata.google.internal", [], Allowlist()) == (
        "refused: metadata.google.internal is a cloud metadata host"
    )
    assert refusal("Metadata.Google.Internal.", ["93.184.216.34"], Allowlist()) is not None


def test_allowlisted_networks_and_hosts_pass() -> None:
    allowlist = Allowlist.parse("127.0.0.2/32, intranet.example , 10.1.0.0/16,")
    assert refusal("127.0.0.2", ["127.0.0.2"], allowlist) is None
    assert refusal("127.0.0.1", ["127.0.0.1"], allowlist) is not None
    assert refusal("wiki", ["10.1.4.4"], allowlist) is None
    assert refusal("wiki", ["10.2.4.4"], allowlist) is not None
    assert refusal("INTRANET.example", ["192.168.7.7"], allowlist) is None
    assert refusal("::ffff:127.0.0.2", ["::ffff:127.0.0.2"], allowlist) is None


def test_metadata_addresses_stay_refused_even_when_allowlisted() -> None:
    allowlist = Allowlist.parse("169.254.0.0/16, metadata-proxy.example")
    assert refusal("169.254.1.1", ["169.254.1.1"], allowlist) is None
    assert refusal("169.254.169.254", ["169.254.169.254"], allowlist) == (
        "refused: 169.254.169.254 is a cloud metadata address"
    )
    assert refusal("metadata-proxy.example", ["169.254.169.254"], allowlist) is not None


def test_allowlist_parses_addresses_cidrs_and_names() -> None:
    allowlist = Allowlist.parse("127.0.0.2, ::1/128, Intranet.Example.")
    assert allowlist.networks == (ip_network("127.0.0.2/32"), ip_network("::1/128"))
    assert allowlist.hostnames == frozenset({"intranet.example"})
    assert Allowlist.parse("") == Allowlist()


@pytest.mark.parametrize("entry", ["10.0.0.0/33", "bad host!", "a..b", "http://x/"])
def test_allowlist_refuses_bad_entries(entry: str) -> None:
    with pytest.raises(ValueError, match="neither a CIDR"):
        Allowlist.parse(entry)
