"""A fleet's workers answer from the shared library store: the folder indexed with
`fonte library index DIR --store URL`, then moved away, two `fonte ask` processes with
caches of their own and no access to the folder cite what a run on the folder cites."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.cli_pages import QUESTION, write_law_library
from tests.support.library_files import write_text

ROOT = Path(__file__).resolve().parents[3]
_MAIN = "import sys\nfrom engine.cli import main\nsys.exit(main(sys.argv[1:]))"


def _fonte(
    *arguments: str, cache: Path, store: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        "PYTHONPATH": str(ROOT),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cache),
        "FONTE_CACHE_DIR": str(cache),
        "FONTE_SEEN_CHECK": "off",
    }
    if store is not None:
        env["FONTE_LIBRARY_STORE"] = store
    return subprocess.run(
        [sys.executable, "-c", _MAIN, *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _cited(library: Path, out: Path, cache: Path, store: str | None = None) -> list[object]:
    asked = ("ask", QUESTION, "--library", str(library), "--model", "offline", "--no-clarify")
    done = _fonte(*asked, "--format", "json", "--out", str(out), cache=cache, store=store)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return [(claim["url"], claim["excerpt"]) for claim in report["claims"]]


def test_two_workers_without_the_folder_answer_from_the_store_cited_as_before(
    tmp_path: Path, postgres_url: str
) -> None:
    library = write_law_library(tmp_path / "library")
    write_text(library / "notas.md", "Notas sobre a potência das usinas solares.")
    expected = _cited(library, tmp_path / "from-folder", tmp_path / "cache-folder")
    assert expected  # the question is answered from the law, with citations
    indexed = _fonte(
        "library", "index", str(library), "--store", postgres_url, cache=tmp_path / "c"
    )
    assert indexed.returncode == 0, indexed.stderr
    assert "2 documents" in indexed.stdout + indexed.stderr
    shutil.move(library, tmp_path / "moved-away")
    for worker in ("one", "two"):
        cited = _cited(library, tmp_path / worker, tmp_path / f"cache-{worker}", postgres_url)
        assert cited == expected
    assert not library.exists()
