"""What the prompts ask for: parallel calls, complete sentences, briefs a subagent can act on,
step sizes from the planner."""

from engine.agents.toolbox import Assignment
from engine.contracts import Subquestion
from engine.models.claude.prompts import (
    PLANNER_SYSTEM,
    SUBAGENT_SYSTEM,
    assignment_prompt,
    plan_prompt,
    shared_reads_note,
)
from engine.planning.briefs import make_brief

LIMIT = Subquestion(id="s1", text="Qual o limite da microgeração?", title="Limite")
CREDITS = Subquestion(id="s2", text="Até quando valem os créditos?", title="Créditos")


def test_the_subagent_is_asked_for_parallel_calls_and_complete_sentences() -> None:
    assert "Make independent calls in the same turn" in SUBAGENT_SYSTEM
    assert "complete sentence" in SUBAGENT_SYSTEM
    assert "record_claim is the only way a fact reaches the report" in SUBAGENT_SYSTEM


def test_a_brief_has_objective_output_boundaries_sources_and_steps() -> None:
    brief = assignment_prompt(
        Assignment("s1", LIMIT, "Microgeração?", "pt", max_steps=5, siblings=(CREDITS,))
    )
    assert "Objective: find what sources state" in brief
    assert "section 'Limite'" in brief
    assert "What to return: claims recorded with record_claim" in brief
    assert "stay out of them:\n- s2: Até quando valem os créditos?" in brief
    assert "primary sources first" in brief
    assert "short, broad" in brief
    assert "You have 5 steps in all" in brief


def test_the_planner_is_asked_to_size_subquestions_within_the_steps() -> None:
    assert "4 to 6 for a single fact" in PLANNER_SYSTEM
    assert '"steps": 6' in PLANNER_SYSTEM
    prompt = plan_prompt(make_brief("Microgeração?"), [], steps_available=40)
    assert "The research has 40 steps for all its subquestions." in prompt


def test_pages_read_by_siblings_are_offered_only_when_there_are_some() -> None:
    assert shared_reads_note([]) == ""
    assert "- https://example.org/a" in shared_reads_note(["https://example.org/a"])
