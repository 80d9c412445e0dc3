"""ENGLISH: everything Fonte says to a reader or a user in English, in one table."""

from __future__ import annotations

from engine.words.schema import (
    GapWords,
    LibraryWords,
    NoteWords,
    ReportWords,
    SearchWords,
    SheetWords,
    SlackWords,
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
    page="page",
    excerpt="Excerpt",
    not_verified="not verified",
    rejected_claims="Claims rejected by the verifier",
    no_reason="no reason recorded",
    dropped_sentences="Sentences dropped by the draft check",
    spend_and_limits="Spend and limits",
    steps="Steps",
    time="Time",
    cost="Cost",
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
    calculation_kinds={
        "difference": "difference",
        "percent_change": "percent change",
        "cagr": "CAGR",
        "margin": "margin",
        "ratio": "ratio",
        "share": "share",
        "sum": "sum",
    },
)

_NOTES = NoteWords(
    no_budget_for_writer="no budget for the writer ({detail})",
    no_budget_to_plan="no budget to plan ({detail}); the question is the plan",
    planner_failed="planner failed ({error}); the question is the plan",
    subagent_failed="subagent {subagent} failed: {error}",
    unreadable_page="could not read {url}: {error}",
    web_search_unavailable="Anthropic web search is not available ({error}); searching with "
    "Fonte's own search instead",
    criteria_check_failed="criteria check failed ({error}); all criteria treated as unmet",
    judge_failed="support judge did not run ({error})",
    judge_skipped="support judge skipped: the {model} model does not judge",
    writer_failed="writer failed ({error}); report composed from claims verbatim",
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
        "mercado": "residential solar energy in Brazil",
        "concorrentes": "solar energy distributors",
        "regulacao": "distributed energy generation",
        "tecnologia": "battery energy storage",
    },
    empty_question_example="What is the size of the solar energy market in Brazil?",
)

_SLACK = SlackWords(
    clarify_intro="Before I start, a few questions:",
    clarify_hint="Pick an option or reply in this thread.",
    answered="Answer",
    plan_title="Research plan",
    subquestions="Subquestions",
    sufficient_when="Sufficient when",
    caps="Caps",
    caps_line="{steps} steps · {minutes} min · US$ {usd}",
    estimate="Estimate",
    estimate_line="up to ~{minutes} min · up to ~US$ {usd}",
    start="Start",
    edit="Edit",
    cancel="Cancel",
    started_by="Started by <@{user}>.",
    cancelled_by="Cancelled by <@{user}>.",
    cancelling="Cancelling: the partial report follows.",
    researching="Researching…",
    research_done="Research finished.",
    subagents="Subagents",
    claims_line="Claims: {verified} verified, {rejected} rejected",
    spend_line="Spent: US$ {usd} of US$ {usd_cap} · {minutes} of {minutes_cap} min · "
    "{steps} of {steps_cap} steps",
    open_gaps="Open gaps",
    partial_banner=":warning: *Partial report*: the research stopped before covering everything "
    "the plan asked for. Gaps (click one to deepen):",
    deepen="Deepen",
    deepening="Deepening (version {version}): {gap}",
    show_excerpt="Show excerpt",
    sources="Sources",
    no_sentences="No verified claim to report.",
    version="version",
    files_comment="Full report as HTML, Markdown, Word and PowerPoint.",
    excerpt_title="Excerpt [{number}]",
    statement="Statement",
    verdict="Verification",
    page_crop_title="The excerpt on page {page}",
    page_crop_alt="Page {page} of {source}, with the excerpt highlighted",
    not_yours="This report is private: only the person who asked for it can open it.",
    busy="This report is still running; wait for it to finish before deepening.",
    not_found="I could not find that report (it may have expired).",
    edit_title="Edit plan",
    edit_subquestions="Subquestions (one per line)",
    edit_steps="Steps (max)",
    edit_minutes="Minutes (max)",
    edit_usd="US$ (max)",
    save="Save",
    edit_invalid="Use a positive number.",
    continued="(continued {page}/{pages})",
    asked_by="<@{user}> asked: {question}",
    not_in_channel=(
        ":warning: I am not in this channel: invite me with `/invite @Fonte`, or send the "
        "question as a direct message."
    ),
    subagent_running="researching",
    subagent_done="done",
    subagent_stopped="stopped by the budget",
    subagent_failed="failed",
    claims_count_one="{count} claim",
    claims_count_many="{count} claims",
    question_empty=":warning: The question is empty: write what to research, for example "
    "`@Fonte How large is the residential solar market?`",
    question_too_long=":warning: The question has {length} characters; the limit is {limit}. "
    "Ask it in a few lines and put the background in a library document.",
    empty_mention="Hello! Ask a question after the mention, for example "
    "`@Fonte How large is the residential solar market?`, or see `/research help`.",
    thread_has_report="This thread already has a report. For a new version, write "
    "`deepen: <topic>`; for another question, mention me outside this thread.",
    not_deepenable="This request was cancelled before it started: there is no report to "
    "deepen. Ask a new question.",
    failed_not_deepenable="The research for this request failed before it produced a report: "
    "there is nothing to deepen. Ask the question again.",
    failed_run=":x: The research failed with an internal error ({error}). Try again with a "
    "new question; if it persists, tell whoever runs Fonte.",
    already_started="This plan was already started or closed; follow its progress here.",
    nothing_to_cancel="Nothing to cancel: this report has finished.",
    stale_button="This button no longer applies (the report changed or expired).",
    cancelled_banner=":warning: *Partial report*: the research was cancelled before covering "
    "everything the plan asked for. Gaps (click one to deepen):",
    delivery_failed=":warning: I could not post the report in this thread ({reason}). It is "
    "saved: write `deepen: <topic>` here for a new version.",
    delivery_partial=":warning: Slack refused part of the report ({reason}); the full report "
    "is in the attached files, and `deepen: <topic>` still works.",
    upload_failed=":warning: The report files (HTML, Markdown, Word, PowerPoint) were not "
    "attached ({reason}); the "
    "report above is complete.",
    files_not_made=":warning: I could not make {files} (an error while building the file, "
    "recorded in Fonte's log). The report is saved and `deepen: <topic>` still works.",
    error_missing_scope="the app lacks the `{needed}` permission: ask an admin to reinstall it",
    error_not_in_channel="I am not in this channel: invite me with `/invite @Fonte`",
    error_too_long="message too long for Slack",
    error_rate_limited="Slack rate-limited the posts; try again in a few minutes",
    error_unavailable="Slack is unavailable; try again in a few minutes",
    error_other="Slack error: `{error}`",
    no_library=":warning: There is no library to research yet: set `FONTE_LIBRARY` to a folder "
    "of PDF, HTML, Markdown or text documents (it is missing or empty now).",
    feedback_prompt="Was this report useful?",
    feedback_up="👍 Useful",
    feedback_down="👎 Not useful",
    feedback_thanks="Thanks! Your rating was recorded with the report.",
    assistant_status="Researching… {done} of {total} subquestions",
    assistant_planning="Preparing the plan…",
    prompts_title="Report templates",
    assistant_greeting="Hello! Ask a research question or pick a template below.",
    help_intro=(
        "*How to ask for research*\n"
        "• Mention me in a channel: `@Fonte How is the residential solar market?`\n"
        "• `/research [template] question` — or DM me (private report).\n"
        "• In a report's thread: `deepen: <gap>` for a new version."
    ),
    help_templates="*Templates*",
)


_WRITER = WriterWords(
    rose="{measure} rose from {old} in {first} to {new} in {last}",
    fell="{measure} fell from {old} in {first} to {new} in {last}",
    flat="{measure} was {old} in {first} and {new} in {last}",
    change=", a calculated change of {difference}",
    percent=" ({percent})",
    growth=" and a compound annual growth rate of {cagr}",
    one="{measure} was {value} in {period}",
    sides="{measure} was {parts}",
    side="{value} for {side}",
    side_in="{value} for {side} in {period}",
    list_and=" and ",
    change_columns={"difference": "Difference", "percent_change": "Change", "cagr": "CAGR"},
    span_to="to",
    a_year="a year",
    percentage_points="pp",
    scales={3: "thousand", 6: "million", 9: "billion", 12: "trillion"},
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
    slack=_SLACK,
    writer=_WRITER,
)
