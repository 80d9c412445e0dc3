"""The law and question the CLI tests research, the loopback web they serve it on, and
`fonte ask` on a library of it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from engine.cli import main
from evals.offline_web import OfflineWeb
from evals.web_pages import Page

ServeWeb = Callable[[Sequence[Page]], OfflineWeb]


LAW = """# Lei 14.300

XI - microgeração distribuída: central geradora de energia elétrica, com potência instalada menor ou igual a 75 kW (setenta e cinco quilowatts), conectada na rede de distribuição;

XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis;
"""


QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"


def write_law_library(folder: Path) -> Path:
    """`folder`, made, holding LAW as lei_14300.md: the library the CLI tests ask about."""
    folder.mkdir()
    (folder / "lei_14300.md").write_text(LAW, encoding="utf-8")
    return folder


REPORT_FILES = ["report.html", "report.json", "report.md", "report.pdf"]
"""What `fonte ask` writes in its --out folder by default, sorted by name."""


def ask(library: Path, out: Path, *extra: str) -> int:
    """`fonte ask` on QUESTION over `library` into `out` (its cache beside `out`): the exit code."""
    cache = ["--cache-dir", str(out.parent / "cache")]
    return main(["ask", QUESTION, "--library", str(library), "--out", str(out), *cache, *extra])
