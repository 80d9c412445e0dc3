"""ENGLISH_SLACK: what the bot says in Slack in English, the `slack` part of `ENGLISH`
(en.py), kept in a file of its own so each table stays readable."""

from __future__ import annotations

from engine.words.slack_schema import SlackWords

ENGLISH_SLACK = SlackWords(
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
    not_your_plan="Only the person who asked for this research can start, edit or cancel it.",
    run_as_mine="Run this brief as mine",
    lost_run=(
        "I lost this research (my storage restarted without its data), so it will not "
        "finish. Run it again?"
    ),
    refused_run=(
        "I could not take this request: my storage is not answering right now. Try again "
        "in a minute?"
    ),
    run_again="Run it again",
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
    error_archived="this channel is archived: ask me again in an open channel",
    error_restricted="a workspace setting does not let me post here: ask an admin, or ask "
    "me in a channel where apps may post",
    error_auth="the app's Slack token no longer works: ask an admin to reinstall it",
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
    # -- the report message
    see_attached="… the rest is in the attached report.",
    report_files_note="The full report, with every source and excerpt, is in the attached "
    "files (PDF, HTML, Markdown, Word, PowerPoint).",
    files_button="📎 Files",
    citations_placeholder="Show a source's excerpt",
    feedback_up_label="This report was useful",
    feedback_down_label="This report was not useful",
    # -- crops, retention and export
    page_comment="Excerpt [{number}] on page {page} of {source}.",
    page_in_thread="The page is also in the report's thread.",
    page_not_shown="I could not show the page here: {reason}.",
    page_not_rendered="the document's page could not be cropped",
    page_processing="Slack was still processing the image; it is in the report's thread",
    page_gone="the page's image is no longer in Slack; open the excerpt again",
    export_comment="Version {version}'s files, made again for <@{user}>.",
    export_expired="This report has expired: reports are kept for {days} days.",
    export_no_version="This report has no version {version}.",
    export_failed=":warning: I could not attach the files ({reason}).",
    # -- streamed progress
    stream_plan_title="Research plan",
    stream_plan_done="Research done: {verified} claims verified",
    task_writing="Write the report from the verified claims",
    task_verified="{count} verified in {sources} sources",
    task_gap="Nothing verified: left as a gap in the report",
    task_failed="The subagent failed; nothing verified",
    stream_closing="The report follows in the next message.",
    tasks_heading="Plan",
    task_pending="to do",
    task_running="under way",
    task_done="done",
    task_gap_word="gap",
    task_failed_word="failed",
    loading_task="Researching: {title}",
    loading_reading="Reading the sources…",
    loading_verifying="Checking each excerpt on its page…",
    # -- shared files
    files_kept="Kept {files} as a source of this conversation: only it researches these files.",
    files_refused="Not kept:",
    file_too_big="larger than {limit} MB",
    file_not_supported="a type I do not read (I read PDF, HTML, Markdown, text, DOCX, PPTX, XLSX)",
    file_not_downloaded="I could not download it from Slack",
    file_login_page="Slack answered its sign-in page instead of the file (is files:read missing?)",
    file_over_limit="opened, it would take far more memory than its size allows (a zip bomb?)",
    # -- Slack search as a source
    slack_search_offer=(
        "May I also search this workspace's messages and files as you, for your research? "
        "I see only what you can read, and I use a private conversation's messages only in "
        "reports delivered in that conversation or in your DM with me. I ask once."
    ),
    slack_search_allow="Allow Slack search",
    slack_search_decline="Not now",
    slack_search_allowed="Slack search is on for your research: I search as you.",
    slack_search_declined="Slack search stays off for your research.",
    slack_search_not_used="Slack search was not used in this research: {reason}.",
    slack_search_reasons={
        "missing_scope": "the app is not installed with the search scopes",
        "invalid_action_token": "Slack's permission to search as you has expired",
        "no_action_token": "this request carried no permission to search as you "
        "(mention Fonte or write in its DM)",
        "ratelimited": "Slack's search limit for you was reached",
        "not_allowed_token_type": "the app's token may not search",
        "feature_not_enabled": "Slack search is not available on this workspace",
        "unreachable": "Slack's search did not answer",
        "other": "Slack answered {error}",
    },
)
