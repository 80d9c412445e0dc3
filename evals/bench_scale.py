"""The library at scale: whole `fonte ask` runs over a synthetic library of N documents.

    python -m evals.bench_library --scale N

The library is N distinct copies of the br-laws documents (each copy gets one line of its
own, so no two files share bytes) in a temporary folder. Each figure is one real process,
timed from its start to its exit (report.json written), with the peak RSS the kernel reports
for it and its parse workers (`os.wait4`):

- cold: an empty cache, so the process parses and indexes the whole folder, then answers;
- cold build: `fonte library index` alone on another empty cache (when the command exists);
- warm: the same question again, three times (median and slowest); then once more in a
  process that skips the CLI (what the library and the research cost, without the imports
  of every command's dependencies);
- one file added: a new document written into the folder, then the next question (and
  once more without the CLI);
- resident: one process that keeps the library open and watched, as the bot and a worker
  do (`bot.sources.catalog`), asked the question again and again: warm, then after one
  more added file (seen by its watch, the library opened again) and once after that.

With a `postgresql://` store (`--backend URL`) every run keeps the index in it
(`FONTE_LIBRARY_STORE`): the cold build in a schema of its own, the rest in another, both
made for the run and dropped after; and one more row, a warm question in a process that
has no folder (moved away meanwhile), answered from the store alone.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

WARM_RUNS = 3
EMBEDDED = "embedded"
"""The index in each run's cache (no shared store)."""
# What the `fonte` script runs (engine.cli is a package without __main__).
_FONTE = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"
# The same question without the CLI around it (argument parsing, plugin commands, the Claude
# SDK): what opening the library, researching offline and writing report.json cost.
_RESEARCH_ONLY = """
import asyncio, sys
from pathlib import Path
from engine import ExtractiveModel, Orchestrator
from engine.planning import make_brief
from engine.render import write_report
from engine.sources.library import Library
folder, question, out = sys.argv[1:4]
library = Library.open(Path(folder))
report = asyncio.run(Orchestrator(ExtractiveModel(), library, library).run(make_brief(question)))
write_report(report, Path(out), ["json"])
"""


# A process that keeps its library open and watched, as the bot and a worker do
# (bot.sources.catalog): each question asked on stdin, answered with its timings on stdout.
_RESIDENT = """
import asyncio, json, resource, sys, time
from pathlib import Path
from engine import ExtractiveModel, Orchestrator
from engine.planning import make_brief
from engine.render import write_report
from engine.sources.library import Library
folder, question, out = sys.argv[1:4]
def timed(work):
    started, cpu = time.perf_counter(), time.process_time()
    result = work()
    cpu = time.process_time() - cpu
    whose = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    peak = max(resource.getrusage(who).ru_maxrss for who in whose) * 1024
    print(json.dumps([time.perf_counter() - started, cpu, peak / 1e6]), flush=True)
    return result
library = timed(lambda: Library.open(Path(folder), watch=True))
for number, _line in enumerate(sys.stdin):
    def answer():
        global library
        if not library.unchanged():
            library.close()
            library = Library.open(Path(folder), watch=True)
        run = Orchestrator(ExtractiveModel(), library, library).run(make_brief(question))
        write_report(asyncio.run(run), Path(out) / str(number), ["json"])
    timed(answer)
"""


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu_seconds: float
    """User and system time of the process and its parse workers: what contention with
    other work on the machine does not inflate, unlike `seconds`."""
    peak_rss_mb: float
    ok: bool
    output: str


def run_scale(count: int, source: Path, question: str, store: str = EMBEDDED) -> None:
    """The table of `count` documents, their index in `store` (`EMBEDDED`, or a URL)."""
    if store == EMBEDDED:
        _run_scale(count, source, question, {}, {})
        return
    with _schema(store, "fonte_scale_build") as build, _schema(store, "fonte_scale") as shared:
        print(f"store: PostgreSQL, schemas fonte_scale_build and fonte_scale of {_shown(store)}")
        _run_scale(count, source, question, {_STORE: build}, {_STORE: shared})


_STORE = "FONTE_LIBRARY_STORE"


def _run_scale(
    count: int,
    source: Path,
    question: str,
    build_store: dict[str, str],
    store: dict[str, str],
) -> None:
    if count < 1:
        raise SystemExit("--scale needs at least one document")
    originals = sorted(source.glob("*.md"))
    if not originals:
        raise SystemExit(f"no Markdown documents in {source}")
    with tempfile.TemporaryDirectory(prefix="fonte-scale-") as scratch:
        root = Path(scratch)
        library = root / "library"
        started = time.perf_counter()
        size = write_synthetic_library(library, originals, count)
        print(
            f"synthetic library: {count} documents, {size / 1e6:.0f} MB, "
            f"written in {time.perf_counter() - started:.1f} s ({library})"
        )
        rows: list[tuple[str, Run]] = [
            ("python + imports (fonte --help)", _fonte(root, ["--help"], extra=store))
        ]
        ask = ["ask", question, "--library", str(library), "--model", "offline", "--no-clarify"]
        ask += ["--format", "json"]
        if _has_library_command(root):
            index = ["library", "index", str(library)]
            build = _fonte(root, index, cache="cache-build", extra=build_store)
            rows.append(("cold build (fonte library index)", build))
        rows.append(
            (
                "first open (cold), question answered",
                _fonte(root, [*ask, "--out", str(root / "r0")], extra=store),
            )
        )
        warm = [
            _fonte(root, [*ask, "--out", str(root / f"w{n}")], extra=store)
            for n in range(WARM_RUNS)
        ]
        rows.append((f"next question (warm), median of {WARM_RUNS}", _median(warm)))
        rows.append(("next question (warm), slowest", max(warm, key=lambda run: run.seconds)))
        research = [str(library), question, str(root / "m")]
        warm_bare = _run(root, _RESEARCH_ONLY, research, extra=store)
        rows.append(("warm question without the CLI", warm_bare))
        if store:
            library.rename(root / "moved-away")
            alone = _run(root, _RESEARCH_ONLY, research, cache="cache-worker", extra=store)
            rows.append(("no folder, fresh cache: from the store alone, without the CLI", alone))
            (root / "moved-away").rename(library)
        _write_copy(library / "added" / originals[0].name, originals[0], "added")
        added_ask = _fonte(root, [*ask, "--out", str(root / "a")], extra=store)
        rows.append(("one document added, next question", added_ask))
        after = _fonte(root, [*ask, "--out", str(root / "b")], extra=store)
        rows.append(("question after that (warm)", after))
        _write_copy(library / "added" / originals[1].name, originals[1], "added")
        added = _run(root, _RESEARCH_ONLY, research, extra=store)
        rows.append(("one more added, next question without the CLI", added))
        with _Resident(root, research, store) as resident:
            rows.append(("resident library (a worker's): opened, watched", resident.opened))
            kept = [resident.ask() for _ in range(WARM_RUNS)]
            rows.append((f"resident: warm question, median of {WARM_RUNS}", _median(kept)))
            _write_copy(library / "added" / originals[2].name, originals[2], "added")
            rows.append(("resident: one document added, next question", resident.ask()))
            rows.append(("resident: question after that", resident.ask()))
        _print_table(count, rows)


def write_synthetic_library(folder: Path, originals: list[Path], count: int) -> int:
    """`count` distinct Markdown files, copies of `originals` in turn; returns total bytes."""
    total = 0
    for number in range(count):
        original = originals[number % len(originals)]
        copy = number // len(originals)
        total += _write_copy(folder / f"copy{copy:04d}" / original.name, original, str(number))
    return total


def _write_copy(path: Path, original: Path, tag: str) -> int:
    text = original.read_text(encoding="utf-8")
    data = f"{text.rstrip()}\n\nCópia sintética {tag} do benchmark de escala.\n".encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)


@contextmanager
def _schema(url: str, name: str) -> Iterator[str]:
    """`url` in a schema `name` made for the run (emptied first) and dropped after."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        connection.execute(f"CREATE SCHEMA {name}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {name} CASCADE")


def _shown(url: str) -> str:
    from engine.sources.library import without_password

    return without_password(url)


def _fonte(
    root: Path, arguments: list[str], cache: str = "cache", extra: dict[str, str] | None = None
) -> Run:
    return _run(root, _FONTE, arguments, cache, extra)


def _run(
    root: Path,
    program: str,
    arguments: list[str],
    cache: str = "cache",
    extra: dict[str, str] | None = None,
) -> Run:
    environment = {**os.environ, "FONTE_CACHE_DIR": str(root / cache), **(extra or {})}
    environment.pop("ANTHROPIC_API_KEY", None)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", program, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=environment,
    )
    assert process.stdout is not None
    output = process.stdout.read().decode("utf-8", "replace")
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    scale = 1 if sys.platform == "darwin" else 1024
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, usage.ru_maxrss * scale / 1e6, process.returncode == 0, output)


def _has_library_command(root: Path) -> bool:
    return _fonte(root, ["library", "--help"]).ok


class _Resident:
    """The resident process (`_RESIDENT`) over a library; each `ask` one question."""

    def __init__(self, root: Path, research: list[str], store: dict[str, str]) -> None:
        environment = {**os.environ, "FONTE_CACHE_DIR": str(root / "cache"), **store}
        environment.pop("ANTHROPIC_API_KEY", None)
        self._process = subprocess.Popen(
            [sys.executable, "-c", _RESIDENT, *research],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
            text=True,
        )
        self.opened = self._answer()

    def __enter__(self) -> _Resident:
        return self

    def __exit__(self, *_: object) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()

    def ask(self) -> Run:
        assert self._process.stdin is not None
        self._process.stdin.write("ask\n")
        self._process.stdin.flush()
        return self._answer()

    def _answer(self) -> Run:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            return Run(0.0, 0.0, 0.0, False, "the resident process ended")
        seconds, cpu, peak = json.loads(line)
        return Run(seconds, cpu, peak, True, "")


def _median(runs: list[Run]) -> Run:
    middle = statistics.median(run.seconds for run in runs)
    chosen = min(runs, key=lambda run: abs(run.seconds - middle))
    peak = max(run.peak_rss_mb for run in runs)
    return Run(middle, chosen.cpu_seconds, peak, all(r.ok for r in runs), chosen.output)


def _print_table(count: int, rows: list[tuple[str, Run]]) -> None:
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\n{os.cpu_count()} cores; load average at the end {load} (other work slows wall time)")
    print(f"| {count} documents | seconds | CPU seconds | peak RSS |")
    print("|---|---|---|---|")
    for label, run in rows:
        status = "" if run.ok else " (FAILED)"
        print(
            f"| {label}{status} | {run.seconds:.2f} s | {run.cpu_seconds:.2f} s "
            f"| {run.peak_rss_mb:.0f} MB |"
        )
    for label, run in rows:
        if not run.ok:
            print(f"\n{label} failed:\n{run.output[-2000:]}")
