"""The solar-market pages and question the v1 baseline tests research."""

from __future__ import annotations

from tests.support.pages_source import PagesSource

MARKET = "https://example.org/solar-market"


PRICES = "https://example.org/panel-prices"


RULES = "https://example.org/net-metering-rules"


PLAYERS = "https://example.org/installers"


SOLAR_QUESTION = (
    "How did residential solar grow in Brazil in 2023, and when do net metering credits expire?"
)


def solar_pages() -> PagesSource:
    pages = PagesSource()
    pages.add(
        MARKET,
        "Residential solar capacity in Brazil reached 20 GW in 2023 across all regions.\n"
        "The residential solar market in Brazil grew 35% in 2023 as tariffs rose.",
        title="Brazil residential solar market 2023",
    )
    pages.add(
        PRICES,
        "Solar panel prices in Brazil fell 30% in 2023 as imports from China surged.\n"
        "Installers passed lower panel prices on to residential customers.",
        title="Panel prices",
    )
    pages.add(
        RULES,
        "Law 14.300 sets the net metering rules for distributed solar generation in Brazil.\n"
        "Under the rules, energy credits expire 60 months after billing.",
        title="Net metering rules",
    )
    pages.add(
        PLAYERS,
        "The largest residential solar installers in Brazil compete on financing terms.",
        title="Installers",
    )
    return pages
