"""ENGLISH: everything Fonte says to a reader or a user in English, in one table (its `slack`
part written in en_slack.py)."""

from __future__ import annotations

from engine.words.en_routines import ENGLISH_ROUTINES
from engine.words.en_slack import ENGLISH_SLACK
from engine.words.schema import (
    ChangeWords,
    GapWords,
    LawWords,
    LibraryWords,
    NoteWords,
    ReportWords,
    SearchWords,
    SheetWords,
    TemplateWords,
    Words,
    WriterWords,
)

_REPORT = ReportWords(
    locale="en-US",
    thousands_separator=",",
    partial_report="Partial report",
    partial_explanation="The research stopped before covering everything the plan asked for.",
    gaps="Gaps",
    declared_gaps="Declared gaps",
    sources="Sources",
    no_sources="No sources cited.",
    accessed_on="Accessed on",
    published_on="source dated",
    standing_primary="primary source (official)",
    standing_secondary="secondary source (press, association)",
    standing_other="other source (blog, forum, unknown)",
    page="page",
    excerpt="Excerpt",
    header_from_page="header from page {page}",
    not_verified="not verified",
    figure_reading="read from the figure on page {page} (the model's reading, not a quote)",
    read_by_ocr="read by OCR",
    rejected_claims="Claims rejected by the verifier",
    no_reason="no reason recorded",
    dropped_sentences="Sentences dropped by the draft check",
    spend_and_limits="Spend and limits",
    steps="Steps",
    time="Time",
    cost="Cost",
    cost_share="Cost as a share of the report's price",
    of="of",
    model="Model",
    architecture="Architecture",
    created_at="Created on",
    notes="Notes",
    decimal_separator=".",
    page_crop="The excerpt highlighted on its page",
    see_on_page="see the excerpt on its page",
    conflicts="Conflicts",
    conflicts_explanation=(
        "These sources give different values for the same quantity; the newer comes first."
    ),
    file_not_made="{file} could not be made ({error})",
    crops_left_out="{file} came out without the crops of the cited pages, which kept it from "
    "being made ({error})",
    page_crops_failed="The crops of the cited pages could not be made ({error}); citations "
    "show their excerpt only",
    page_boxes_failed="The excerpts' positions on the cited pages could not be computed ({error})",
    scans_past_cap="The time cap was reached while the cited scanned pages were read again for "
    "their highlight: {count} of {total} are shown without it",
    pdfs_not_here="{count} cited PDFs of the library are not on this machine (it reads the "
    "shared library store), so their pages have no highlighted crop",
    model_unreachable="The model could not be reached ({error}): this partial report holds only "
    "what was done without it",
    summary="Summary",
    contents="Contents",
    figures="Figures",
    chart="Chart: {title}",
    calculated="calculated",
    calculation_marker="calc. {number}",
    calculations="Calculations",
    calculations_explanation=(
        "Computed in code from the verified figures they cite; none is quoted from a source."
    ),
    formula="Formula",
    inputs="Inputs",
    calculation_kinds={
        "difference": "difference",
        "percent_change": "percentage change",
        "cagr": "compound annual growth rate",
        "margin": "margin",
        "ratio": "ratio",
        "share": "share",
        "sum": "sum",
        "margin_change": "margin change",
        "mean_margin": "mean margin",
        "ratio_to_average": "ratio to an average",
        "sum_ratio": "ratio of a sum",
        "days": "days",
    },
    appendix="Appendix: how this report was made",
    appendix_explanation="Internal details of the run, for whoever wants to check it.",
    page_short="p.",
    dropped_in_summary="Summary",
    dropped_in_table="Table",
    dropped_in_calculation="Calculation",
    chart_value="Value",
    chart_period="Period",
    continued="cont.",
    slide_sources="Excerpts cited on this slide",
    # -- sources per conversation
    origin_library="team library",
    origin_web="web",
    origin_conversation="shared in this conversation",
    origin_slack="Slack search",
)

_SHEET = SheetWords(
    claims_sheet="Claims",
    figures_sheet="Figures",
    summary_sheet="Summary",
    id="ID",
    citation="Citation",
    statement="Statement",
    excerpt="Excerpt",
    context="Context",
    source="Source",
    url="URL",
    page="Page",
    status="Status",
    reason="Reason",
    accessed="Accessed (UTC)",
    subquestion="Subquestion",
    claims="Claims",
    calculated="calculation {id}: {claims}",
    calculations="Calculations",
    measure="Measure",
    entity="Entity",
    period="Period",
    kind="Kind",
    result="Result",
    value="Value",
    unit="Unit",
    formula="Formula",
    inputs="Inputs",
    question="Question",
    number="No.",
    sentence="Sentence",
    statuses={"verified": "verified", "rejected": "rejected", "pending": "pending"},
    read_by="Read by",
    readings={
        "text": "page text",
        "ocr": "OCR (page image)",
        "figure": "figure (the model's reading, not a quote)",
    },
    published="Source date",
    standing="Standing",
    calculation_kinds={
        "difference": "difference",
        "percent_change": "percent change",
        "cagr": "CAGR",
        "margin": "margin",
        "ratio": "ratio",
        "share": "share",
        "sum": "sum",
        "margin_change": "margin change",
        "mean_margin": "mean margin",
        "ratio_to_average": "ratio to an average",
        "sum_ratio": "ratio of a sum",
        "days": "days",
    },
)

_NOTES = NoteWords(
    no_budget_for_writer="the budget ran out before the report could be written as prose "
    "({detail}): it gives the verified statements as found",
    no_budget_to_plan="the budget ran out before the research could be planned ({detail}): "
    "the question was researched as asked",
    planner_failed="the research could not be planned ({error}): the question was "
    "researched as asked",
    subagent_failed="subagent {subagent} failed: {error}",
    unreadable_page="could not read {url}: {error}",
    web_search_unavailable="Anthropic web search is not available ({error}); searching with "
    "Fonte's own search instead",
    criteria_check_failed="which parts of the question the sources answer could not be "
    "checked ({error}): every part is treated as still open",
    judge_failed="the claims were not read a second time ({error}): each was checked "
    "against the words of its excerpt only",
    judge_skipped="the claims were not read a second time (the {model} model does not do "
    "it): each was checked against the words of its excerpt only",
    writer_failed="the report could not be written as prose ({error}): it gives the "
    "verified statements as found",
    budget_reached="budget reached: {limit} ({detail})",
    budget_limits={
        "steps": "steps",
        "seconds": "seconds",
        "usd": "usd",
        "stopped": "stopped",
        "subagent_steps": "subagent_steps",
    },
    addressed_to_ai="{url} contains text addressed to AI systems; it was left out",
    v1_researcher_failed="v1 researcher failed ({error}); nothing was summarised",
    v1_role_failed="v1 {role} failed ({error}); {consequence}",
    v1_roles={"analyst": "analyst", "writer": "writer", "reviewer": "reviewer", "editor": "editor"},
    v1_analysis_is_summary="the summary stands as the analysis",
    v1_no_sections="the report has no sections",
    v1_draft_kept="draft kept",
    v1_citations_unreadable="v1 citations could not be read ({error})",
    v1_unknown_sources="sentence cites unknown sources {numbers}: {sentence}",
)

_LIBRARY = LibraryWords(
    skipped_file="skipped {name}: {reason}",
    skipped_files="{count} files skipped ({reason}): {names}",
    skip_reasons={
        "empty file": "empty file",
        "no words in file": "no words in file",
        "no text in file": "no text in file",
        "no text in file (scanned PDF?)": "no text in file (scanned PDF?)",
        "cannot read": "cannot read",
        "a link to a file outside the library, not read": "a link to a file outside the "
        "library, not read",
        "not a readable PDF": "not a readable PDF",
        "refused: it unpacks to far more than its size (a zip bomb?)": "refused: it unpacks "
        "to far more than its size (a zip bomb?)",
        "refused: too many parts for an Office file": "refused: too many parts for an Office file",
        "refused: too many cells for a workbook": "refused: too many cells for a workbook",
        "refused: more text than a document holds": "refused: more text than a document holds",
        "the parser crashed on it (out of memory?)": "the parser crashed on it (out of memory?)",
        "too large to index (out of memory)": "too large to index (out of memory)",
    },
    skip_reason_prefixes={
        "cannot read (": "cannot read (",
        "folder not readable (": "folder not readable (",
    },
    cache_not_writable="library cache not writable ({error}); continuing without it",
    manifest_unreadable="manifest {name} ignored: cannot read it ({error})",
    manifest_bad_lines="manifest {name}: {count} unusable line(s) skipped ({lines})",
    duplicate_url="{name}: citation URL {url} already belongs to {owner}; citing the file "
    "itself instead",
    index_unfinished="the library's index was not finished within the time cap: {indexed} of "
    "{total} files indexed, {pending} ({megabytes} MB) not yet read and not searched; the next "
    "run goes on from there",
)

_SEARCH = SearchWords(
    provider_failed="{provider} failed: {reason}",
    fell_back="{failures}; used {provider}",
    all_failed="all search providers failed: {reasons}",
)

_GAPS = GapWords(
    criterion_lead="A verified source that answers",
    unfinished_lead="Unfinished subquestion",
    interrupted="interrupted by the budget",
    cancelled="interrupted by the user",
    in_figure="The answer may be in the figure on page {page} of {document}, not read",
    measure_missing="{measure}{period}: no verified figure of {inputs}",
    measure_averaged=(
        "{measure}{period}: not computed, it needs the average over periods of {inputs}"
    ),
    measure_beyond=(
        "{measure}: not computed, the question's formula holds terms beyond the line items "
        "this report computes from"
    ),
    measure_average_missing=(
        "{measure}{period}: no verified figure of {inputs} in {year}, which its average of "
        "{first} and {last} needs"
    ),
    measure_in=" in {period}",
    line_items={
        "revenue": "revenue",
        "cost_of_sales": "cost of sales",
        "gross_profit": "gross profit",
        "operating_income": "operating income",
        "net_income": "net income",
        "total_assets": "total assets",
        "current_assets": "total current assets",
        "current_liabilities": "total current liabilities",
        "cash": "cash and cash equivalents",
        "short_term_investments": "short-term investments",
        "inventories": "inventories",
        "receivables": "accounts receivable",
        "ppe": "property, plant and equipment",
        "payables": "accounts payable",
        "equity": "shareholders' equity",
        "debt": "debt",
        "interest_expense": "interest expense",
        "capex": "capital expenditure",
    },
)

_TEMPLATES = TemplateWords(
    sections={
        "mercado": (
            "Market size and growth",
            "Main players and competition",
            "Regulation and legal framework",
            "Trends and risks",
        ),
        "concorrentes": (
            "Main companies",
            "Market share",
            "Pricing and business models",
            "Recent moves: M&A and entries",
        ),
        "regulacao": (
            "Applicable laws and rules",
            "Regulators and obligations",
            "Thresholds, deadlines and transition rules",
        ),
        "tendencias": ("Trends", "Risks", "Projections"),
        "tecnologia": ("State of the technology", "Costs and performance", "Adoption"),
        "livre": (),
    },
    descriptions={
        "mercado": "market study: size, players, regulation, trends",
        "concorrentes": "competitor map",
        "regulacao": "regulatory overview",
        "tendencias": "trends and risks",
        "tecnologia": "technology overview",
        "livre": "free plan",
    },
    examples={
        "mercado": "How big is the residential solar energy market in Brazil?",
        "concorrentes": "Who are the main solar energy distributors in Brazil?",
        "regulacao": "How is distributed energy generation regulated in Brazil?",
        "tecnologia": "Where does battery technology for energy storage stand today?",
    },
    empty_question_example="What is the size of the solar energy market in Brazil?",
    sweep_pages="Pages {first}–{last}",
)


_WRITER = WriterWords(
    rose="{measure} rose from {old} in {first} to {new} in {last}",
    fell="{measure} fell from {old} in {first} to {new} in {last}",
    flat="{measure} was {old} in {first} and {new} in {last}",
    change=", a calculated change of {difference}",
    percent=" ({percent})",
    growth=" and a compound annual growth rate of {cagr}",
    one="{measure} was {value} in {period}",
    latest="{measure}: {value} in {period}, the newest figure",
    asked="{measure} in {period}: {value} ({inputs}: {formula})",
    asked_span="{measure}, {period}: {value} ({inputs}: {formula})",
    asked_rose="{measure} rose {change}, from {old} in {first} to {new} in {last} ({formula})",
    asked_fell="{measure} fell {change}, from {old} in {first} to {new} in {last} ({formula})",
    asked_flat="{measure} was {old} in {first} and {new} in {last} ({formula})",
    asked_mean="{measure}, mean of {period}: {value} (the mean of {values})",
    one_in="{value} in {period}",
    sides="{measure} was {parts}",
    side="{value} for {side}",
    side_in="{value} for {side} in {period}",
    list_and=" and ",
    change_columns={"difference": "Difference", "percent_change": "Change", "cagr": "CAGR"},
    span_to="to",
    a_year="a year",
    percentage_points="pp",
    days="days",
    scales={3: "thousand", 6: "million", 9: "billion", 12: "trillion"},
    currency_symbols={"USD": "$", "BRL": "R$", "EUR": "€", "GBP": "£"},
    disagree="The sources disagree on {measure} in {period}: {parts}",
)


_LAWS = LawWords(
    article="Art. {n}",
    paragraph="§ {n}",
    sole_paragraph="sole paragraph",
    item="item {n}",
    letter="point {n}",
    stated="{provision}: {body}",
    rule_aspects=("Time limits and validity", "Obligations and prohibitions", "Transition rules"),
)


_CHANGES = ChangeWords(
    heading="What changed since {date}",
    explanation=(
        "Compared with the report of {date} on the same question. Each change cites both "
        "sides: what that report quoted, as it sealed it, and what this one quotes today."
    ),
    no_change="No change since {date}: the same figures and findings, from the same sources.",
    figure_changed="{figure}: from {before} to {after}",
    figure_new="New figure: {figure}",
    figure_gone="Figure no longer found: {figure}",
    finding_new="New finding in {title}",
    finding_gone="Finding no longer found in {title}",
    source_new="New source: {title}",
    source_gone="Source no longer found: {title}",
    before="Before",
    now="Now",
    why="why: {reason}",
    gone_reasons={
        "removed": "the file or page was removed",
        "excerpt_missing": "the page changed and the excerpt is no longer on it",
        "page_changed": "the page changed; the excerpt is still on it, not cited this time",
        "not_cited": "the page is as it was; the excerpt was not cited this time",
        "unreachable": "the source could not be read to tell",
    },
    kinds={"changed": "changed", "new": "new", "gone": "no longer found"},
    sheet="Changes",
    change="Change",
    why_column="Why",
)


ENGLISH = Words(
    language="en",
    report=_REPORT,
    sheet=_SHEET,
    notes=_NOTES,
    library=_LIBRARY,
    search=_SEARCH,
    gaps=_GAPS,
    templates=_TEMPLATES,
    slack=ENGLISH_SLACK,
    writer=_WRITER,
    laws=_LAWS,
    changes=_CHANGES,
    routines=ENGLISH_ROUTINES,
)
