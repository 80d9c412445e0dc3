from engine.budget import InMemoryBudget, Meter
from engine.contracts import Limits, Plan, Subquestion
from engine.models.extractive.planner import extractive_plan
from engine.planning.briefs import make_brief
from engine.snapshots import Snapshot
from engine.sources.kinds import LIBRARY
from engine.sources.protocols import SearchHit
from engine.v1.metering import estimated_tokens, estimated_usage
from engine.v1.notes import ResearchNotes, SourceEntry
from engine.v1.offline_roles import OfflineV1Roles
from engine.v1.prose import guess_source, tidy_punctuation, tidy_whitespace, without_duplicates
from engine.v1.tools import ResearchTools
from tests.support.pages_source import PagesSource
from tests.support.solar_pages import MARKET, PLAYERS, PRICES, RULES, SOLAR_QUESTION

BRIEF = make_brief(SOLAR_QUESTION)


def meter() -> Meter:
    return Meter(InMemoryBudget(Limits(steps=1000)))


async def test_research_pools_every_page_into_one_summary_and_a_source_list(
    solar: PagesSource,
) -> None:
    tools = ResearchTools(solar, solar, InMemoryBudget(Limits(steps=1000)))
    calls = meter()
    notes = await OfflineV1Roles().research(BRIEF, extractive_plan(BRIEF), tools, calls)
    lines = notes.summary.splitlines()
    assert "Under the rules, energy credits expire 60 months after billing." in lines
    assert "The residential solar market in Brazil grew 35% in 2023 as tariffs rose." in lines
    assert all("http" not in line and "[" not in line for line in lines)  # no provenance
    assert [s.number for s in notes.sources] == list(range(1, len(notes.sources) + 1))
    assert {s.url for s in notes.sources} == {MARKET, PRICES, RULES, PLAYERS}
    usage = (await calls.budget.spend()).usage
    assert usage.model_calls == 1
    pages = sum(len(solar.documents[s.url].text) for s in notes.sources)
    assert usage.input_tokens >= pages // 4  # its one context held every page it read


async def test_analyst_merges_sentences_one_contains() -> None:
    notes = ResearchNotes(
        "Credits expire after 60 months.\nSolar capacity reached 20 GW in 2023.\n"
        "Under the rules, credits expire after 60 months.\nSolar capacity reached 20 GW in 2023."
    )
    analysis = await OfflineV1Roles().analyse(make_brief("When do credits expire?"), notes, meter())
    assert sorted(analysis.splitlines()) == [
        "Solar capacity reached 20 GW in 2023.",
        "Under the rules, credits expire after 60 months.",
    ]
    assert analysis.splitlines()[0] == "Under the rules, credits expire after 60 months."


def test_without_duplicates_keeps_the_fuller_wording_in_the_first_place() -> None:
    assert without_duplicates(["Prices fell.", "Credits expire.", "Panel prices fell."]) == [
        "Panel prices fell.",
        "Credits expire.",
    ]


SOURCES = [
    SourceEntry(1, "https://a", "Panel prices in Brazil", "Prices of panels fell."),
    SourceEntry(2, "https://b", "Net metering credits", "Credits expire after billing."),
    SourceEntry(3, "https://c", "Net metering credits", "Credits expire after billing."),
]


def test_the_writer_guesses_the_source_sharing_most_words_lowest_number_on_a_tie() -> None:
    assert guess_source("Energy credits expire 60 months after billing.", SOURCES) == 2
    assert guess_source("Panel prices fell 30% in Brazil.", SOURCES) == 1
    assert guess_source("Nothing in common whatsoever.", SOURCES) == 1
    assert guess_source("Anything.", []) is None


async def test_writer_makes_plan_sections_whose_sentences_end_with_markers() -> None:
    plan = Plan(
        question="q",
        subquestions=[
            Subquestion(id="s1", text="panel prices Brazil", title="Prices"),
            Subquestion(id="s2", text="net metering credits expire", title="Credits"),
            Subquestion(id="s3", text="wind auctions", title="Wind"),
        ],
    )
    analysis = "Energy credits expire 60 months after billing.\nPanel prices fell 30% in Brazil."
    draft = await OfflineV1Roles().write(make_brief("q and r"), plan, analysis, SOURCES, meter())
    assert draft == (
        "# Q and r\n\n## Prices\nPanel prices fell 30% in Brazil. [1]\n\n"
        "## Credits\nEnergy credits expire 60 months after billing. [2]\n"
    )


async def test_without_sources_the_writer_cites_nothing() -> None:
    plan = Plan(question="q", subquestions=[Subquestion(id="s1", text="credits")])
    draft = await OfflineV1Roles().write(
        BRIEF, plan, "Credits expire after 60 months.", [], meter()
    )
    assert "[" not in draft


async def test_reviewer_and_editor_only_tidy_the_prose() -> None:
    draft = "#  Title\n\n\n\n## Credits\nCredits   expire after 60 months . [2]\n"
    roles, calls = OfflineV1Roles(), meter()
    reviewed = await roles.review(BRIEF, draft, calls)
    assert reviewed == "# Title\n\n## Credits\nCredits expire after 60 months . [2]\n"
    edited = await roles.edit(BRIEF, reviewed, calls)
    assert edited == "# Title\n\n## Credits\nCredits expire after 60 months. [2]\n"
    assert (await calls.budget.spend()).usage.model_calls == 2


def test_tidying_keeps_numbers_and_markers_intact() -> None:
    text = "Capex (1,577) vs (1,373) , up 3.5 % [1][2]\n"
    assert tidy_punctuation(tidy_whitespace(text)) == "Capex (1,577) vs (1,373), up 3.5 % [1][2]\n"


def test_usage_is_one_call_at_four_characters_a_token() -> None:
    assert estimated_tokens("") == 0
    assert estimated_tokens("abcde") == 2
    usage = estimated_usage("x" * 40, "y" * 8)
    assert (usage.model_calls, usage.input_tokens, usage.output_tokens) == (1, 10, 2)


class OneFiling:
    """A paged filing whose search names only its cover page."""

    name = "filing"
    kind = LIBRARY
    url = "file:///filings/bby-2019.pdf"
    pages = (
        "Best Buy annual report on Form 10-K for fiscal 2019",
        "Consolidated Balance Sheets\nFebruary 2, 2019 February 3, 2018\n"
        "Merchandise inventories 5,409 5,209\n",
    )

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        return [SearchHit(f"{self.url}#page=1", "BESTBUY_2019_10K", "", 1, self.name)]

    async def fetch(self, url: str) -> Snapshot:
        return Snapshot.from_pages(self.url, list(self.pages), title="BESTBUY_2019_10K")


async def test_v1_reads_a_filing_as_the_final_subagent_does() -> None:
    source = OneFiling()
    tools = ResearchTools(source, source, InMemoryBudget(Limits(steps=1000)))
    brief = make_brief("What were Best Buy's FY2019 inventories?")
    notes = await OfflineV1Roles().research(brief, extractive_plan(brief), tools, meter())
    # The balance sheet is looked at though no hit named it, and it costs no second step.
    assert "Merchandise inventories 5,409 5,209" in notes.summary.splitlines()
    assert f"{source.url}#page=2" in {entry.url for entry in notes.sources}
    assert (await tools.budget.spend()).steps == 2  # one search, one read
