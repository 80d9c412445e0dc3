"""`fonte ask` and `fonte verify` against claims that quote a page right and mean otherwise
(issue 30, classes 5, 6 and 7): a model (the Anthropic stand-in) posts them on a library the
test writes; each is rejected with its reason, and `fonte verify` fails a report that had
them verified. Benign claims on the same pages stay verified and published."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import EXIT_FAILED, EXIT_OK, main
from engine.contracts import ClaimStatus, Report
from engine.verify.digest import sealed
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    json_message,
    message,
    text,
    tool_use,
)
from tests.support.claude_turns import API_KEY, MODEL, by_role, claim_rows, entailing_judge
from tests.support.meaning_attacks import ATTACKS, BENIGN, FILES, url_of, write_library

QUESTION = "Quais são as regras da taxa, da microgeração e os números do relatório?"
PLAN = {
    "sufficient_when": ["Fonte que informe as regras e os números"],
    "subquestions": [{"id": "s1", "title": "Regras e números", "text": QUESTION}],
}


def _subagent(folder: Path) -> Any:
    reads = [tool_use("read_document", {"url": url_of(folder, name)}) for name in FILES]
    records = [
        tool_use(
            "record_claim",
            {
                "statement": posted.statement,
                "url": url_of(folder, posted.file),
                "excerpt": posted.excerpt,
                **({"context": posted.context} if posted.context else {}),
            },
        )
        for posted in (*ATTACKS, *BENIGN)
    ]
    script = [
        message(*reads, stop_reason="tool_use"),
        message(*records, stop_reason="tool_use"),
        message(text("Registrei o que as páginas dizem.")),
    ]

    def reply(body: Body) -> Reply:
        return script[min(len(body["messages"]) // 2, len(script) - 1)]

    return reply


def _writer(body: Body) -> Reply:
    """One sentence per verified claim, its statement."""
    rows = claim_rows(body)
    sentences = [{"text": row["statement"], "claim_ids": [row["id"]]} for row in rows]
    draft = {
        "title": "Regras",
        "summary": sentences[:1],
        "sections": [{"title": "Regras e números", "sentences": sentences}],
    }
    return json_message(draft)


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, Path]:
    """The library and the report `fonte ask` wrote on it, the stand-in posting the claims."""
    folder = write_library(tmp_path / "docs")
    server = ScriptedAnthropic().start()
    try:
        server.script(
            by_role(
                planner=json_message(PLAN),
                subagent=_subagent(folder),
                criteria=json_message({"unmet": []}),
                writer=_writer,
                judge=entailing_judge(),
            )
        )
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        out = tmp_path / "out"
        argv = ["ask", QUESTION, "--library", str(folder), "--out", str(out), "--no-clarify"]
        argv += ["--model", MODEL, "--format", "json,md", "--cache-dir", str(tmp_path / "cache")]
        assert main(argv) == EXIT_OK
    finally:
        server.close()
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    return folder, out / "report.json"


def test_fonte_ask_rejects_each_attack_with_its_reason_and_publishes_the_benign(
    asked: tuple[Path, Path],
) -> None:
    _, path = asked
    report = json.loads(path.read_text())
    by_statement = {c["statement"]: c for c in report["claims"]}
    for posted in ATTACKS:
        claim = by_statement[posted.statement]
        assert claim["status"] == "rejected", posted.statement
        assert claim["reason"].startswith(posted.rejected_with or ""), claim["reason"]
    for posted in BENIGN:
        assert by_statement[posted.statement]["status"] == "verified", posted.statement
    published = " ".join(s["text"] for sec in report["sections"] for s in sec["sentences"])
    assert all(posted.statement not in published for posted in ATTACKS)
    assert all(posted.statement in published for posted in BENIGN)
    assert "notas.md" in " ".join(report["notes"])  # the page that talks to AI is noted


def test_fonte_verify_fails_a_report_that_had_the_attacks_verified(
    asked: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report sealed by a verifier that let the attacks through (as before these rules)
    fails `fonte verify`, each attack with its reason; the benign claims hold."""
    folder, path = asked
    report = Report.model_validate_json(path.read_text())
    attacks = {posted.statement for posted in ATTACKS}
    let_through = [
        c.model_copy(update={"status": ClaimStatus.verified, "reason": "excerpt found"})
        if c.statement in attacks
        else c
        for c in report.claims
    ]
    old = tmp_path / "old-report.json"
    old.write_text(sealed(report.model_copy(update={"claims": let_through})).model_dump_json())
    capsys.readouterr()
    verify = ["verify", str(old), "--library", str(folder)]
    assert main([*verify, "--cache-dir", str(tmp_path / "cache")]) == EXIT_FAILED
    printed = capsys.readouterr().out.splitlines()
    by_id = {c.id: c for c in let_through}
    failed = {line.split()[1]: line for line in printed if line.startswith("FAIL    c")}
    for claim_id, claim in by_id.items():
        if claim.statement in attacks:
            posted = next(p for p in ATTACKS if p.statement == claim.statement)
            assert claim_id in failed, claim.statement
            assert f"— {posted.rejected_with}" in failed[claim_id]
        elif claim.status is ClaimStatus.verified:
            assert claim_id not in failed, claim.statement
