"""`fonte ask`: research a question and write a cited report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import re
import signal
import sys
import time
from collections.abc import Awaitable
from contextlib import AsyncExitStack
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from engine.agents.toolbox import Assignment, Toolbox
from engine.assembly import Sources, index_unfinished, library_sources, web_sources
from engine.budget import Budget, InMemoryBudget, Meter, PausableClock, StepRefused
from engine.changes import explain_gone, with_changes
from engine.cli.clarify import clarify_at_terminal
from engine.cli.console import say
from engine.cli.display import progress_display, summarise
from engine.cli.exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_MODEL_UNREACHABLE, EXIT_OK
from engine.cli.opening import open_library
from engine.cli.signals import terminate_as_interrupt
from engine.contracts import Claim, ClarifyingQuestion, Limits, Plan, Report, utc_now
from engine.events import EventSink
from engine.models.extractive import ExtractiveModel
from engine.models.protocol import Brief, Draft, Model
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.planning.pricing import LimitOverrides
from engine.planning.templates import prices_from_env
from engine.render import PageEvidence, labels_for
from engine.render.files import FORMATS, write_report
from engine.settings import BadInput, wants_claude
from engine.sources.kinds import WEB
from engine.sources.library import Deadline, Library
from engine.text.language import locale_language
from engine.text.normalise import collapse_whitespace, folded

if TYPE_CHECKING:  # the Claude SDK and v1 load only for a run that uses them
    from engine.models.claude import ClaudeConfig


_T = TypeVar("_T")


def run_ask(args: argparse.Namespace) -> int:
    started = time.monotonic()  # the time budget counts the whole run, index building too
    if not args.question.strip():  # its example in the user's language: the locale's
        make_brief(args.question, language=locale_language(os.environ))
    brief = make_brief(args.question, template=args.template)  # fail fast, before opening anything
    formats = _formats(args.format)
    limits = _limits(args, brief.template)
    out = check_out_folder(args.out or _default_out(brief.question))
    choose_model(args.model)  # a missing key or unknown model fails before any work
    if args.library is None and not args.web:
        raise BadInput("no source: pass --library DIR (a folder of documents) or --web")
    previous = previous_report(args.since, brief.question) if args.since is not None else None
    with terminate_as_interrupt():  # SIGTERM while indexing stops the index's workers too
        deadline = Deadline.after(limits.seconds, started=started)  # the cap holds there too
        library = None
        if args.library is not None:
            library = open_library(args.library, args.cache_dir, deadline, args.library_scan)
    # The sources' page evidence: a library's PDFs, or those the run fetched, kept beside
    # their snapshots; it outlives the sources' connections.
    report, evidence, unreachable = asyncio.run(
        _research(args, brief, limits, library, started, deadline, previous)
    )
    if unreachable is not None:
        report = said_unreachable(report, unreachable)
    if library is not None:  # the time cap stopped its index build: partial, it says why
        report = index_unfinished(report, library[0])
    try:
        with terminate_as_interrupt():  # SIGTERM while writing: the files left are said
            paths = write_report(report, out, formats, evidence=evidence, on_failure=_tell_failure)
    except KeyboardInterrupt:  # its line said which files are missing
        return EXIT_INTERRUPTED
    summarise(report, paths)
    if not paths or ("json" in formats and out / "report.json" not in paths):
        return EXIT_FAILED  # report.json not written; its line was said as it failed
    return EXIT_OK if unreachable is None else EXIT_MODEL_UNREACHABLE


def previous_report(path: Path, question: str) -> Report:
    """The report `--since` names, read before any research: BadInput when it is not a
    report.json or answers another question (a change is only a change of one brief)."""
    from engine.cli.verify import load_report

    previous = load_report(path)
    if folded(collapse_whitespace(previous.question)) != folded(collapse_whitespace(question)):
        raise BadInput(f"--since {path} answers another question: {previous.question!r}")
    return previous


def _tell_failure(line: str) -> None:
    """One line per part of the report that failed: an error for report.json (no report was
    saved), a warning for the rest (the report stands without that part)."""
    if line.startswith("report.json "):
        say(f"error: {line}; no report was saved")
    else:
        say(f"warning: {line}")


def said_unreachable(report: Report, why: str) -> Report:
    """The report of a run whose model could not be reached: partial, its first gap and its
    first note saying so, in the report's language."""
    line = labels_for(report.language).model_unreachable.format(error=why)
    return report.model_copy(
        update={"partial": True, "gaps": [line, *report.gaps], "notes": [line, *report.notes]}
    )


def choose_model(flag: str | None) -> ClaudeConfig | None:
    """The Claude configuration to run with, or None for the offline model; BadInput for a
    `--model` that is neither (`gpt-4`), naming the choices."""
    if flag is not None and flag != "offline" and not flag.startswith("claude"):
        from engine.models.claude import default_price_table

        models = ", ".join(default_price_table().models())
        raise BadInput(f"unknown --model {flag!r}: use offline or a Claude model id ({models})")
    if flag == "offline" or not wants_claude(os.environ, flag):
        return None
    from engine.models.claude import ClaudeConfig

    try:
        return ClaudeConfig.from_env(os.environ, model=flag)
    except BadInput as error:
        raise BadInput(str(error)) from None


async def _research(
    args: argparse.Namespace,
    brief: Brief,
    limits: Limits,
    library: tuple[Library, list[str]] | None,
    started: float | None = None,
    deadline: Deadline | None = None,
    previous: Report | None = None,
) -> tuple[Report, PageEvidence | None, str | None]:
    """The report, the sources' page evidence, and why the model could not be reached
    (None when it could). With `previous`, the report carries what changed since it, why
    each gone thing is gone told by the sources as they are now (every web page read today:
    no snapshot older than this run is served)."""
    read_since = utc_now() if previous is not None else None
    claude = choose_model(args.model)
    # The run's one budget, from its first model call (the clarifying questions) to its
    # last; its seconds run from `started`, less the minutes the user spends answering.
    clock = PausableClock()
    budget = InMemoryBudget(limits, clock=clock, started=started)
    async with AsyncExitStack() as stack:
        model: Model = ExtractiveModel()
        watch: WatchedModel | None = None
        if claude is not None:
            from engine.models.claude import claude_model_from_config

            model = await stack.enter_async_context(claude_model_from_config(claude))
            if args.arch == "final":  # v1 builds its roles from the Claude model itself
                model = watch = WatchedModel(model)
        # The clarifier is told what the research reads, as the orchestrator tells the rest.
        brief = replace(brief, source=library[0].kind if library is not None else WEB)
        # v1 asked nothing: it went straight from the brief to its researcher.
        if args.arch == "final" and not args.no_clarify and sys.stdin.isatty():
            try:
                brief = await clarify_at_terminal(model, brief, budget, clock.paused)
            except Exception:  # unreachable: said, its stop on the budget ends the research
                if watch is None or watch.unreachable is None:
                    raise
        if library is not None:
            sources = library_sources(*library, deadline)  # its page evidence stops at the cap
        else:
            sources = await stack.enter_async_context(
                web_sources(
                    args.cache_dir,
                    on_note=lambda note: say(f"search: {note}"),
                    deadline=deadline,
                    read_since=read_since,
                )
            )
        with progress_display(limits) as show:
            report = await _run_architecture(args.arch, brief, budget, show, model, sources)
        if previous is not None:
            report = await explain_gone(with_changes(report, previous), sources.fetcher)
        return report, sources.evidence, watch.unreachable if watch is not None else None
    raise AssertionError("unreachable: the stack returns or raises")


_UNREACHABLE = re.compile(r"cannot reach the Anthropic API|Claude API 40[13]\b")
"""How the Claude client words a failure no retry mends: no connection after every retry
(network, DNS, a closed port), or a key the API refuses (401, 403)."""


def is_unreachable(failure: BaseException) -> bool:
    """A failure no retry mends, as the client raised it or, for a refused key, as the
    budget stop it turned into (the client stops the run at a 401 or 403)."""
    from engine.models.claude import ClaudeFailure

    if isinstance(failure, StepRefused) and failure.refusal.limit == "stopped":
        return bool(_UNREACHABLE.search(failure.refusal.detail))
    return isinstance(failure, ClaudeFailure) and bool(_UNREACHABLE.search(str(failure)))


class WatchedModel:
    """The Claude model, watched for a failure that means it cannot be reached at all. The
    first one is said on stderr, once, and stops the budget of the call that met it, so the
    run ends at once with the partial report instead of every later step failing alike."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = model.name
        self.write_cost_estimate_usd = model.write_cost_estimate_usd
        self.unreachable: str | None = None
        """The first failure that said so."""

    async def stop_if_unreachable(self, budget: Budget) -> None:
        if self.unreachable is not None:  # the reason in the report's notes; said above
            await budget.stop("model unreachable")

    async def _watched(self, call: Awaitable[_T], budget: Budget) -> _T:
        try:
            return await call
        except Exception as failure:
            if is_unreachable(failure):
                if self.unreachable is None:
                    self.unreachable = str(failure)
                    say(
                        f"error: the model could not be reached ({failure}); stopping, the "
                        "partial report follows"
                    )
                await self.stop_if_unreachable(budget)
            raise

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        return await self._watched(self.model.clarify(brief, meter), meter.budget)

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        return await self._watched(self.model.plan(brief, meter), meter.budget)

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        await self._watched(self.model.research(assignment, tools), tools.budget)

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        return await self._watched(self.model.unmet_criteria(plan, verified, meter), meter.budget)

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        return await self._watched(self.model.judge(claims, meter), meter.budget)

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        return await self._watched(self.model.write(brief, plan, verified, meter), meter.budget)


async def _run_architecture(
    arch: str, brief: Brief, budget: Budget, show: EventSink, model: Model, sources: Sources
) -> Report:
    """The research on the run's one `budget`, which clarifying may already have spent
    from (or stopped: a model unreachable while clarifying tries no step at all)."""
    if arch == "v1":
        from engine.v1 import V1Pipeline, v1_roles_for

        # v1 ran to completion or not at all: no partial report on Ctrl-C, as it was; but
        # it stops at the budget's limits with a partial report, as the final one does.
        pipeline = V1Pipeline(
            v1_roles_for(model),
            sources.searcher,
            sources.fetcher,
            budget=budget,
            events=show,
            source_labels=sources.labels,
        )
        report = await pipeline.run(brief)
    else:
        orchestrator = Orchestrator(
            model,
            sources.searcher,
            sources.fetcher,
            budget=budget,
            events=show,
            source_labels=sources.labels,
        )
        report = await research_until_interrupted(orchestrator, brief)
    report.notes.extend(sources.notes_in(report.language))
    return report


_STOPPED_BY = {
    signal.SIGINT: ("interrupted", "Ctrl-C again to quit", "interrupted by the user"),
    signal.SIGTERM: ("terminated", "SIGTERM again to quit", "stopped by a termination signal"),
}


async def research_until_interrupted(orchestrator: Orchestrator, brief: Brief) -> Report:
    """Ctrl-C or SIGTERM (`docker stop`, `timeout`) stops new steps and writes the partial
    report; the same signal again quits at once."""
    loop = asyncio.get_running_loop()

    def stop(signum: signal.Signals) -> None:
        what, again, note = _STOPPED_BY[signum]
        say(f"{what}: writing the partial report ({again})")
        for each in _STOPPED_BY:
            loop.remove_signal_handler(each)
        orchestrator.cancel(note)

    for signum in _STOPPED_BY:
        loop.add_signal_handler(signum, stop, signum)
    try:
        return await orchestrator.run(brief)
    finally:
        for signum in _STOPPED_BY:
            loop.remove_signal_handler(signum)


def _formats(raw: str) -> list[str]:
    formats = [f.strip().lower() for f in raw.split(",") if f.strip()]
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown or not formats:
        raise BadInput(f"unknown format {', '.join(unknown) or raw!r}; use {','.join(FORMATS)}")
    return formats


def _limits(args: argparse.Namespace, template: str | None) -> Limits:
    """The limits the template's price gives (FONTE_PRICE… settings over the built-in
    prices), each one given by a flag replacing the price's."""
    steps, minutes, usd = args.max_steps, args.max_minutes, args.max_usd
    finite = all(math.isfinite(v) for v in (minutes, usd) if v is not None)
    wrong = (steps is not None and steps < 1, minutes is not None and minutes <= 0)
    if not finite or any(wrong) or (usd is not None and usd < 0):
        raise BadInput("--max-steps must be ≥ 1, --max-minutes > 0 and --max-usd ≥ 0 (finite)")
    seconds = None if minutes is None else minutes * 60
    overrides = LimitOverrides(steps=steps, seconds=seconds, usd=usd)
    return prices_from_env(os.environ).limits_for(template, overrides)


def check_out_folder(out: Path) -> Path:
    """`out` if the report can be written there; BadInput, before any research, if not.

    Writability is tried, not guessed from permission bits (root, a read-only mount,
    /proc): the missing folders are made, a probe file is written and removed, and the
    folders made are removed again, so a run refused later leaves nothing behind."""
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out {out} is a file: name a folder for the report")
    existing, missing = out, []
    while not existing.exists():
        missing.append(existing)
        existing = existing.parent
    if not existing.is_dir():
        raise BadInput(f"--out {out}: {existing} is a file, not a folder")
    made: list[Path] = []
    try:
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
        probe = out / f".fonte-probe-{os.getpid()}"
        with probe.open("xb") as handle:
            handle.write(b"probe")
        probe.unlink()
    except OSError as error:
        raise BadInput(f"--out {out}: cannot write there ({error.strerror or error})") from None
    finally:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
    return out


def _default_out(question: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", question.lower())[:40].strip("-") or "report"
    return Path("reports") / f"{datetime.now():%Y%m%d-%H%M%S}-{slug}"
