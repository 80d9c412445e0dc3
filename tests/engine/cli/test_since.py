"""`fonte ask --since PREVIOUS/report.json` end to end, twice on one library and twice on the
loopback web: a document whose figure changes, one that is gone and one that is new are
exactly three changes, cited on both sides, that `fonte verify` checks; an unchanged library
or web gives "No change"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, main
from engine.contracts import ChangeKind, GoneReason, Report
from evals.offline_web import OfflineWeb
from evals.web_pages import wiki_page
from tests.support.cli_pages import ServeWeb

QUESTION = "What was the revenue of the solar companies in 2025?"
ALPHA = "Alpha Solar revenue was {} million in 2025, up from the year before."
ALPHA_NOTE = "Alpha Solar opened a second factory in Recife during 2025."
BETA = "Beta Energia revenue was $8.2 million in 2025, according to its filing."
GAMMA = "Gamma Renováveis revenue was $5.5 million in 2025, its first filing shows."


def ask(out: Path, *where: str, since: Path | None = None) -> Report:
    """`fonte ask` on QUESTION, offline, into `out`: the report it wrote."""
    compared = ["--since", str(since / "report.json")] if since is not None else []
    cache = ["--cache-dir", str(out.parent / "cache")]
    flags = ["--out", str(out), "--format", "json,md", "--model", "offline", "--no-clarify"]
    assert main(["ask", QUESTION, *where, *flags, *cache, *compared]) == EXIT_OK
    return Report.model_validate_json((out / "report.json").read_bytes())


def verify(out: Path, *where: str, since: Path | None = None) -> int:
    compared = ["--since", str(since / "report.json")] if since is not None else []
    cache = ["--cache-dir", str(out.parent / "cache")]
    return main(["verify", str(out / "report.json"), *where, *cache, *compared])


def write_library(folder: Path, alpha: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "alpha.md").write_text(
        f"# Alpha Solar annual report\n\n{ALPHA.format(alpha)}\n\n{ALPHA_NOTE}\n", "utf-8"
    )


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A library of Alpha's report, its revenue $12.4 million, and a first run on it."""
    folder = tmp_path / "library"
    write_library(folder, "$12.4")
    return folder


def on(library: Path) -> list[str]:
    return ["--library", str(library)]


def assert_three_changes(report: Report, previous: Report, gone_url: str) -> None:
    """A changed figure, a new source and a gone source, each cited on its side(s)."""
    changed, new, gone = report.changes
    assert report.previous is not None
    assert report.previous.created_at == previous.created_at
    old = {claim.id: claim for claim in report.previous.claims}
    assert (changed.kind, changed.subject) == (ChangeKind.changed, "figure")
    assert changed.before is not None
    assert changed.after is not None
    assert (changed.before.text, changed.after.text) == ("$12.4 million", "$13.1 million")
    assert [old[cid].excerpt for cid in changed.old_claim_ids] == [ALPHA.format("$12.4")]
    assert [report.claim(cid).excerpt for cid in changed.new_claim_ids] == [ALPHA.format("$13.1")]
    assert old[changed.old_claim_ids[0]] == previous.claim(changed.old_claim_ids[0])
    assert (new.kind, new.subject) == (ChangeKind.new, "source")
    assert GAMMA in [report.claim(cid).excerpt for cid in new.new_claim_ids]
    assert (gone.kind, gone.subject, gone.url) == (ChangeKind.gone, "source", gone_url)
    assert gone.why is GoneReason.removed
    assert BETA in [old[cid].excerpt for cid in gone.old_claim_ids]


def test_a_library_that_changes_a_figure_gains_and_loses_a_document(
    library: Path, tmp_path: Path
) -> None:
    (library / "beta.md").write_text(f"# Beta Energia annual report\n\n{BETA}\n", "utf-8")
    first = ask(tmp_path / "first", *on(library))
    write_library(library, "$13.1")
    (library / "beta.md").unlink()
    (library / "gamma.md").write_text(f"# Gamma Renováveis annual report\n\n{GAMMA}\n", "utf-8")

    second = ask(tmp_path / "second", *on(library), since=tmp_path / "first")

    assert_three_changes(second, first, (library / "beta.md").as_uri())
    markdown = (tmp_path / "second" / "report.md").read_text("utf-8")
    assert markdown.index("## What changed since") < markdown.index("## Summary")
    assert verify(tmp_path / "second", *on(library), since=tmp_path / "first") == 0


def test_an_unchanged_library_gives_no_change(library: Path, tmp_path: Path) -> None:
    ask(tmp_path / "first", *on(library))
    again = ask(tmp_path / "again", *on(library), since=tmp_path / "first")
    assert again.previous is not None
    assert again.changes == []
    assert "No change since" in (tmp_path / "again" / "report.md").read_text("utf-8")
    assert verify(tmp_path / "again", *on(library), since=tmp_path / "first") == 0


def test_verify_fails_a_change_edited_on_its_old_side_or_a_wrong_previous_report(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ask(tmp_path / "first", *on(library))
    write_library(library, "$13.1")
    ask(tmp_path / "second", *on(library), since=tmp_path / "first")
    ask(tmp_path / "third", *on(library))  # not the one it was compared with
    assert verify(tmp_path / "second", *on(library), since=tmp_path / "third") == 1
    assert "is not the one this report was compared with" in capsys.readouterr().out

    saved = tmp_path / "second" / "report.json"
    edited = json.loads(saved.read_text("utf-8"))
    edited["previous"]["claims"][0]["excerpt"] = ALPHA.format("$11.0")
    saved.write_text(json.dumps(edited), "utf-8")
    assert verify(tmp_path / "second", *on(library), since=tmp_path / "first") == 1
    said = capsys.readouterr().out
    assert f"old claim {edited['previous']['claims'][0]['id']} is not in the previous" in said
    assert "FAIL    report: the report was edited" in said


def test_a_previous_report_of_another_question_is_refused_before_any_research(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ask(tmp_path / "first", *on(library))
    other = ["ask", "How many factories does Alpha Solar run?", *on(library)]
    since = ["--since", str(tmp_path / "first" / "report.json")]
    out = ["--out", str(tmp_path / "other"), "--model", "offline", "--no-clarify"]
    assert main([*other, *since, *out]) == EXIT_BAD_INPUT
    assert "answers another question" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()


def test_a_web_page_that_changes_between_runs(serve_web: ServeWeb, tmp_path: Path) -> None:
    web: OfflineWeb = serve_web(
        [
            wiki_page("Alpha Solar", [ALPHA.format("$12.4"), ALPHA_NOTE]),
            wiki_page("Beta Energia", [BETA]),
        ]
    )
    first = ask(tmp_path / "first", "--web")
    read = len([r for r in web.requests if r.target == "/wiki/Alpha_Solar"])
    unchanged = ask(tmp_path / "unchanged", "--web", since=tmp_path / "first")
    assert unchanged.changes == []
    # read again, not served from the first run's snapshot: a watching run reads today's page
    assert len([r for r in web.requests if r.target == "/wiki/Alpha_Solar"]) > read
    web.add(wiki_page("Alpha Solar", [ALPHA.format("$13.1"), ALPHA_NOTE]))
    web.remove("/wiki/Beta_Energia")
    web.add(wiki_page("Gamma Renováveis", [GAMMA]))

    second = ask(tmp_path / "second", "--web", since=tmp_path / "first")

    assert_three_changes(second, first, web.local_url("Beta Energia"))
    assert verify(tmp_path / "second", since=tmp_path / "first") == 0
