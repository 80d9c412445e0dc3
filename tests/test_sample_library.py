"""The README's first command researches the sample library the repository ships
(examples/library), and a report of it cites Lei 14.300 on planalto.gov.br, verified."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from engine.cli import EXIT_OK, main
from engine.sources.library.files import find_library_files

REPO = Path(__file__).resolve().parents[1]
LIBRARY = REPO / "examples" / "library"
LEI_14300 = "http://legislacao.planalto.gov.br/legisla/legislacao.nsf/Viw_Identificacao/lei%2014.300-2022?OpenDocument"


def first_command() -> list[str]:
    """The arguments of `fonte` in the first shell block of README.md's set-up section."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up: two commands", 1)[1]
    block = re.search(r"```bash\n(.*?)```", setup, re.DOTALL)
    assert block is not None, "the set-up section has no bash block"
    words = shlex.split(block.group(1).split("&&")[-1])
    assert words[0] == ".venv/bin/fonte", words
    return words[1:]


def option(words: list[str], name: str) -> str:
    return words[words.index(name) + 1]


def manifest() -> list[dict[str, Any]]:
    lines = (LIBRARY / "index.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_first_command_asks_the_sample_library() -> None:
    words = first_command()
    assert words[0] == "ask"
    assert option(words, "--library") == "examples/library"
    assert option(words, "--out") == "out"


def test_every_file_of_the_sample_library_is_in_its_manifest_with_a_planalto_url() -> None:
    rows = manifest()
    listed = {row["file"] for row in rows}
    assert 5 <= len(rows) == len(listed) <= 8
    for row in rows:
        assert (LIBRARY / row["file"]).is_file(), row["file"]
        assert re.match(r"https?://(legislacao\.|www\.)?planalto\.gov\.br/", row["url"]), row
        assert row["title"].strip(), row
    found = {path.relative_to(LIBRARY).as_posix() for path, _ in find_library_files(LIBRARY)}
    assert found == listed, "a file the library reads must be a listed act (no notes in there)"
    assert any(row["url"] == LEI_14300 for row in rows)


def test_the_first_command_reports_the_limits_of_lei_14300_verified(tmp_path: Path) -> None:
    words = first_command()
    words[words.index("--library") + 1] = str(REPO / option(words, "--library"))
    words[words.index("--out") + 1] = str(tmp_path / "out")

    assert main([*words, "--format", "json"]) == EXIT_OK

    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    cited = [c for c in report["claims"] if c["status"] == "verified" and c["url"] == LEI_14300]
    quoted = " ".join(c["excerpt"] for c in cited)
    assert "75 kW" in quoted
    assert "5 MW" in quoted
    assert "3 MW" in quoted
    assert report["partial"] is False
