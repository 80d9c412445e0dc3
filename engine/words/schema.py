"""The shape of a language's table: one frozen dataclass per part of Fonte that speaks.

`Words` holds them all. Each field's docstring (where it has one) says what the string is
and which placeholders it takes; both tables (`pt`, `en`) fill every field with the same
placeholders (tests/engine/words/test_tables.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.text.language import Language
from engine.words.routine_schema import RoutineWords
from engine.words.slack_schema import SlackWords


@dataclass(frozen=True)
class ReportWords:
    """The words a rendered report shows around its content (every format), and the notes
    rendering adds to it."""

    locale: str
    """The language tag a Word or PowerPoint file declares ("pt-BR")."""
    decimal_separator: str
    thousands_separator: str
    partial_report: str
    partial_explanation: str
    gaps: str
    declared_gaps: str
    sources: str
    no_sources: str
    accessed_on: str
    published_on: str
    """Before a source's own date: "publicado em 2024-03-01"."""
    standing_primary: str
    standing_secondary: str
    standing_other: str
    """A source's standing, as the Sources part shows it (engine/sources/standing.py)."""
    page: str
    page_short: str
    """A page in a slide's source line: "p. 53"."""
    excerpt: str
    header_from_page: str
    """After a context carried from the page before: "(header from page {page})"."""
    not_verified: str
    figure_reading: str
    """A claim read from a figure: "read from the figure on page {page}, not a quote"."""
    read_by_ocr: str
    """Beside an excerpt read from a page image by OCR: "read by OCR"."""
    rejected_claims: str
    no_reason: str
    dropped_sentences: str
    dropped_in_summary: str
    """Where a dropped sentence was: the summary, a figures table, a calculation."""
    dropped_in_table: str
    dropped_in_calculation: str
    spend_and_limits: str
    steps: str
    time: str
    cost: str
    cost_share: str
    """The appendix row: what the run cost as a share of the price the report is sold for."""
    of: str
    model: str
    architecture: str
    created_at: str
    notes: str
    page_crop: str
    see_on_page: str
    conflicts: str
    conflicts_explanation: str
    file_not_made: str
    """A note: one format of the report could not be rendered or written ({file}, {error})."""
    crops_left_out: str
    """A note: a format came out without its page crops, which broke it ({file}, {error})."""
    page_crops_failed: str
    """A note: the crops of the cited pages could not be made ({error})."""
    page_boxes_failed: str
    """A note: the excerpts' boxes on their pages could not be computed ({error})."""
    scans_past_cap: str
    """A note: the time cap was reached while the cited scanned pages were read again by OCR
    for their highlight ({count} of {total} pages left without it)."""
    pdfs_not_here: str
    """A note: {count} cited PDFs of the library are not on this host (a worker reading the
    shared library store), so their pages are shown without a crop."""
    model_unreachable: str
    """The first gap and note of a run whose model could not be reached ({error})."""
    summary: str
    contents: str
    figures: str
    chart: str
    """The alt text of a figures table's chart ({title})."""
    chart_value: str
    """A chart's vertical axis when its table names no unit."""
    chart_period: str
    calculated: str
    calculation_marker: str
    """The short mark of a calculated figure, linking to its calculation ({number})."""
    calculations: str
    calculations_explanation: str
    formula: str
    inputs: str
    calculation_kinds: Mapping[str, str]
    """The name of each `CalculationKind`."""
    appendix: str
    appendix_explanation: str
    continued: str
    """A slide continued from the one before."""
    slide_sources: str
    # -- sources per conversation
    origin_library: str
    """Beside a source a combined research read from the team's library: "team library"."""
    origin_web: str
    origin_conversation: str
    """A file shared in the Slack conversation the report was asked in."""
    origin_slack: str
    """A message Slack's search found in the workspace."""


@dataclass(frozen=True)
class SheetWords:
    """report.xlsx: its sheets' names and column headers."""

    claims_sheet: str
    figures_sheet: str
    summary_sheet: str
    id: str
    citation: str
    statement: str
    excerpt: str
    context: str
    source: str
    url: str
    page: str
    status: str
    reason: str
    accessed: str
    subquestion: str
    claims: str
    calculated: str
    """A calculated cell's claims column ({id}, {claims})."""
    calculations: str
    measure: str
    entity: str
    period: str
    kind: str
    result: str
    value: str
    unit: str
    formula: str
    inputs: str
    question: str
    number: str
    sentence: str
    statuses: Mapping[str, str]
    """A claim's status (verified, rejected, pending)."""
    read_by: str
    readings: Mapping[str, str]
    """How a claim's excerpt was read (`Claim.read_by`: text, ocr, figure)."""
    published: str
    """The source's own date (`Claim.published`)."""
    standing: str
    """The source's standing; its values are the report's `standing_*` words."""
    calculation_kinds: Mapping[str, str]


@dataclass(frozen=True)
class NoteWords:
    """The notes a run writes into its report: what it could not do, and why."""

    no_budget_for_writer: str
    """({detail}): the writer's step did not fit the budget."""
    no_budget_to_plan: str
    planner_failed: str
    subagent_failed: str
    unreadable_page: str
    """A page a subagent could not read ({url}, {error})."""
    web_search_unavailable: str
    criteria_check_failed: str
    judge_failed: str
    judge_skipped: str
    """({model}): a model that does not judge."""
    writer_failed: str
    budget_reached: str
    """({limit}, {detail}): the detail as the budget gives it."""
    budget_limits: Mapping[str, str]
    """The name of each limit a budget refuses at (steps, seconds, usd, stopped)."""
    addressed_to_ai: str
    v1_researcher_failed: str
    v1_role_failed: str
    """({role}, {error}, {consequence})."""
    v1_roles: Mapping[str, str]
    """The v1 roles by their ids (analyst, writer, reviewer, editor)."""
    v1_analysis_is_summary: str
    v1_no_sections: str
    v1_draft_kept: str
    v1_citations_unreadable: str
    v1_unknown_sources: str
    """A v1 sentence citing numbers no source has ({numbers}, {sentence})."""


@dataclass(frozen=True)
class LibraryWords:
    """The warnings opening a library folder gives, which become a report's notes."""

    skipped_file: str
    """({name}, {reason})."""
    skipped_files: str
    """Many files skipped for one reason ({count}, {reason}, {names})."""
    skip_reasons: Mapping[str, str]
    """Why a file was skipped, by the reason the library gives (in English)."""
    skip_reason_prefixes: Mapping[str, str]
    """The start of a reason that goes on with an error ("cannot read (")."""
    cache_not_writable: str
    manifest_unreadable: str
    manifest_bad_lines: str
    """({name}, {count}, {lines})."""
    duplicate_url: str
    """({name}, {url}, {owner}): two files claim one citation URL."""
    index_unfinished: str
    """({indexed}, {total}, {pending}, {megabytes}): the run's time cap stopped the index
    build; the files not read are left for the next run, which goes on from there."""


@dataclass(frozen=True)
class SearchWords:
    """The note a web search gives when a provider fails and the next one answers."""

    provider_failed: str
    """({provider}, {reason})."""
    fell_back: str
    """({failures}: the `provider_failed` lines joined by "; ", {provider}: who answered)."""
    all_failed: str
    """({reasons})."""


@dataclass(frozen=True)
class GapWords:
    """The wording of criteria and gaps (engine.planning.gaps reads it back)."""

    criterion_lead: str
    unfinished_lead: str
    interrupted: str
    """A gap the budget cut short."""
    cancelled: str
    """A gap the user cut short."""
    in_figure: str
    """A page whose answer may be in a figure no one read: {page}, {document}."""
    measure_missing: str
    """The measure a question asks, an input of which no verified figure gives: {measure},
    {period} (`measure_in`, or nothing), {inputs} (the line items missing)."""
    measure_averaged: str
    """The measure a question asks of an average over periods, which is not computed."""
    measure_beyond: str
    """The measure a question asks by a formula with terms beyond its line items ("COGS +
    change in inventory"), which is not computed: {measure}."""
    measure_average_missing: str
    """The measure a question asks, an input asked as an average of two years of which one
    year's figure is missing: {measure}, {period}, {inputs} (the line item), {year} (the year
    missing), {first} and {last} (the two years averaged)."""
    measure_in: str
    """The period of a measure's gap: " in {period}"."""
    line_items: Mapping[str, str]
    """A line item's name by its key in `engine.writing.asked.LINE_ITEMS`."""


@dataclass(frozen=True)
class TemplateWords:
    """The report templates: each one's section titles, description and example subject,
    by template id; and the example an empty question is answered with."""

    sections: Mapping[str, tuple[str, ...]]
    descriptions: Mapping[str, str]
    examples: Mapping[str, str]
    """The question a template's suggested prompt in Slack sends, as the user would ask it."""
    empty_question_example: str
    sweep_pages: str
    """A sweep's section, the pages one subagent read: "Pages {first}–{last}"."""


@dataclass(frozen=True)
class WriterWords:
    """What the offline writer composes around verified figures and calculations: the
    summary's sentences of a comparison ({measure}, {old}, {new}, {first}, {last},
    {difference}, {percent}, {cagr}, {value}, {period}, {side}, {parts}), the headers of a
    figures table's change columns, the calculator's words, and the names of scales in a
    unit ("$ million")."""

    rose: str
    fell: str
    flat: str
    change: str
    percent: str
    growth: str
    one: str
    latest: str
    """A current-state question's lead: the newest figure, with its period."""
    asked: str
    """The measure a question asks, computed: {measure} (as the question names it), {period},
    {value}, {inputs} (the inputs' measures), {formula}."""
    asked_span: str
    """A growth asked, computed over a span of periods: the same fields as `asked`."""
    asked_rose: str
    """A margin asked, risen between two periods: {measure}, {change} (unsigned), {old},
    {new}, {first}, {last}, {formula}."""
    asked_fell: str
    asked_flat: str
    asked_mean: str
    """A margin asked as a mean over periods: {measure}, {period}, {value}, {values} (each
    period's, as `one_in` says it)."""
    one_in: str
    """A value of a period in a list: {value}, {period}."""
    sides: str
    side: str
    side_in: str
    list_and: str
    """Joins the last two items of a list, spaces included (" and ")."""
    change_columns: Mapping[str, str]
    """Column headers of the changes a figures table shows, by calculation kind."""
    span_to: str
    """Between the two ends of a period ("2019 to 2023")."""
    a_year: str
    percentage_points: str
    days: str
    """The unit of a days measure ("days payable outstanding: 40.0 days")."""
    scales: Mapping[int, str]
    """A scale's word by its power of ten (6: "million")."""
    currency_symbols: Mapping[str, str]
    """How a figure stated with its scale writes its currency, by ISO code ("USD": "$" in
    English, "US$" in Portuguese)."""
    disagree: str
    """Two values of one measure and period that the sources disagree on ({measure},
    {period}, {parts}: the values; the sentence cites the claims of each)."""


@dataclass(frozen=True)
class LawWords:
    """How a report names a statute's provisions ({n}: a number as the law prints it) and
    states one ({provision}, {body}: "Art. 26, § 1º: O faturamento …"), and the aspects a
    question about a law's rules is planned by (`engine.models.extractive.planner`): each a
    section heading, whose criterion a verified provision meets or a gap declares."""

    article: str
    paragraph: str
    sole_paragraph: str
    item: str
    letter: str
    stated: str
    rule_aspects: tuple[str, ...]


@dataclass(frozen=True)
class ChangeWords:
    """The "What changed" part a report compared with its previous one opens with
    (`fonte ask --since`): its heading and explanation ({date}: the previous report's), the
    line of each change ({figure}: a figure as `figure_label` shows it; {before}, {after}:
    the figures as printed; {title}: a document's), the two sides' labels, and why each gone
    one is gone, by `GoneReason` value."""

    heading: str
    explanation: str
    no_change: str
    figure_changed: str
    figure_new: str
    figure_gone: str
    finding_new: str
    finding_gone: str
    source_new: str
    source_gone: str
    before: str
    now: str
    why: str
    sheet: str
    change: str
    why_column: str
    gone_reasons: Mapping[str, str]
    kinds: Mapping[str, str]
    """`no_change` ({date}) is what the part says when nothing changed; `before` and `now`
    label the two sides (the previous report's, quoted as it sealed it, and this one's);
    `why` ({reason}) goes on a gone change's line with its reason from `gone_reasons`, by
    `GoneReason`; `sheet` names report.xlsx's sheet of the changes (31 characters at most,
    no `:/\\?*[]`), `change` and `why_column` are its column headers besides `before` and
    `now`, and `kinds` each change's kind (changed, new, gone) in a word."""


@dataclass(frozen=True)
class Words:
    """Everything Fonte says to a reader or a user, in one language."""

    language: Language
    report: ReportWords
    sheet: SheetWords
    notes: NoteWords
    library: LibraryWords
    search: SearchWords
    gaps: GapWords
    templates: TemplateWords
    slack: SlackWords
    writer: WriterWords
    laws: LawWords
    changes: ChangeWords
    routines: RoutineWords
