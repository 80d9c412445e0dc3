"""The JSON that crosses processes."""

from __future__ import annotations

from bot.redis.codec import (
    decode_assignment,
    decode_outcome,
    decode_snapshot,
    encode_assignment,
    encode_outcome,
    encode_snapshot,
)
from engine.agents.toolbox import Assignment
from engine.contracts import Subquestion
from engine.executor import SubagentOutcome
from engine.snapshots import Snapshot
from engine.sources.kinds import CONVERSATION, LIBRARY


def test_job_payloads_round_trip() -> None:
    subquestion = Subquestion(id="s1", text="Q")
    source = LIBRARY | CONVERSATION  # what the worker's subagent is told it reads
    assignment = Assignment("s1", subquestion, "Q", "pt", avoid_urls=("u",), source=source)
    assert decode_assignment(encode_assignment(assignment)) == assignment
    outcome = SubagentOutcome(
        "s1", "s1", stopped_by_budget=True, read_urls=("u",), notes=("s1: could not read u",)
    )
    assert decode_outcome(encode_outcome(outcome)) == outcome
    snapshot = Snapshot.from_pages("https://x/doc.pdf", ["a", "b"], title="T")
    assert decode_snapshot(encode_snapshot(snapshot)) == snapshot
