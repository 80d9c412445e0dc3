"""The terminal's live panel of a run: subagents, verdicts, budget, gaps."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from engine.cli.printable import printable
from engine.progress import ProgressState


def render_progress(state: ProgressState) -> RenderableType:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("subagent")
    table.add_column("subquestion", overflow="ellipsis", max_width=60, no_wrap=True)
    table.add_column("state")
    for name, status in state.subagents.items():
        base = name.split("-gap")[0]
        table.add_row(name, printable(state.subquestions.get(base, "")), printable(status))
    limits, spend = state.limits, state.spend
    budget = Text(
        f"claims: {state.verified} verified, {state.rejected} rejected   "
        f"budget: {spend.steps}/{limits.steps} steps, {spend.seconds:.0f}/{limits.seconds:.0f} s, "
        f"${spend.usd:.4f}/${limits.usd:.2f}"
    )
    parts: list[RenderableType] = [table, budget]
    parts += [
        Text(printable(f"rejected: {reason}"), style="yellow") for reason in state.last_rejections
    ]
    parts += [Text(printable(f"gap: {gap}"), style="magenta") for gap in state.gaps]
    parts += [Text(printable(f"note: {notice}"), style="dim") for notice in state.notices]
    return Group(*parts)
