"""Which addresses the fetcher may connect to: public unicast only, unless allowlisted.

Pure code. `ssrf.GuardedBackend` asks `refusal` about every address a host name resolves to,
right before it connects to one of those very addresses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from ipaddress import (
    IPv4Address,
    IPv4Network,
    IPv6Address,
    IPv6Network,
    ip_address,
    ip_network,
)

IPAddress = IPv4Address | IPv6Address
IPNetwork = IPv4Network | IPv6Network

# Metadata endpoints are refused even when an allowlisted network contains them: they hand
# out cloud credentials, and no intranet page lives there.
METADATA_ADDRESSES = frozenset(
    ip_address(text)
    for text in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean…
        "169.254.170.2",  # AWS ECS task metadata
        "169.254.169.253",  # AWS DNS
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::23",  # AWS DNS over IPv6
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud
    )
)
METADATA_HOSTNAMES = frozenset(
    {"metadata", "metadata.google.internal", "metadata.goog", "instance-data"}
    | {"instance-data.ec2.internal"}
)

_NAT64 = IPv6Network("64:ff9b::/96")


@dataclass(frozen=True)
class Allowlist:
    """Host names and networks the fetcher may reach although they are not public."""

    networks: tuple[IPNetwork, ...] = ()
    hostnames: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def parse(cls, text: str) -> Allowlist:
        """`"127.0.0.2/32, intranet.example, 10.1.0.0/16"`; raises ValueError on a bad entry."""
        networks: list[IPNetwork] = []
        hostnames: set[str] = set()
        for entry in (part.strip() for part in text.split(",")):
            if not entry:
                continue
            try:
                networks.append(ip_network(entry, strict=False))
                continue
            except ValueError:
                pass
            name = entry.lower().rstrip(".")
            if not _is_hostname(name):
                raise ValueError(f"{entry!r} is neither a CIDR, an IP address nor a host name")
            hostnames.add(name)
        return cls(tuple(networks), frozenset(hostnames))

    def allows_host(self, host: str) -> bool:
        return host.lower().rstrip(".") in self.hostnames

    def allows_address(self, address: IPAddress) -> bool:
        candidates = [address]
        if isinstance(address, IPv6Address) and (inner := embedded_ipv4(address)) is not None:
            candidates.append(inner)
        return any(a in network for a in candidates for network in self.networks)


def embedded_ipv4(address: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, 6to4, NAT64), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_kind(address: IPAddress) -> str | None:
    """What makes `address` unfit to fetch from ("a loopback address"), None if public unicast."""
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if isinstance(address, IPv6Address):
        inner = embedded_ipv4(address)
        if inner is not None:
            return address_kind(inner)
        if address.is_site_local:
            return "a site-local address"
    checks = (
        (address.is_unspecified, "an unspecified address"),
        (address.is_loopback, "a loopback address"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (address.is_reserved, "a reserved address"),
        (address.is_private, "a private address"),
        (not address.is_global, "not a public address"),
    )
    return next((kind for failed, kind in checks if failed), None)


def refusal(host: str, addresses: Iterable[str], allowlist: Allowlist) -> str | None:
    """The one-line reason not to connect to `host` at any of `addresses`, or None.

    A host is refused when any of its addresses is: a name that resolves to one public and one
    private address must not get a second chance at the private one.
    """
    name = host.lower().rstrip(".")
    if name in METADATA_HOSTNAMES:
        return f"refused: {host} is a cloud metadata host"
    host_allowed = allowlist.allows_host(name)
    for text in addresses:
        address = ip_address(text)
        kind = address_kind(address)
        if kind is None:
            continue
        if kind != "a cloud metadata address" and (
            host_allowed or allowlist.allows_address(address)
        ):
            continue
        if _same_address(host, address):
            return f"refused: {_shown(address)} is {kind}"
        return f"refused: {host} resolves to {_shown(address)}, {kind}"
    return None


def _shown(address: IPAddress) -> str:
    """IPv4-mapped addresses as people write them (`::ffff:127.0.0.1`)."""
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return f"::ffff:{address.ipv4_mapped}"
    return str(address)


def _same_address(host: str, address: IPAddress) -> bool:
    try:
        return ip_address(host.strip("[]")) == address
    except ValueError:
        return False


def _is_hostname(name: str) -> bool:
    labels = name.split(".")
    return all(
        0 < len(label) <= 63 and label.replace("-", "").replace("_", "").isalnum()
        for label in labels
    )
