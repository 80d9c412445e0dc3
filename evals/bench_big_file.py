"""Benchmark: a library holding one very large text file, under a tight time cap and Ctrl-C.

    python -m evals.bench_big_file [--megabytes 200] [--cap-minutes 0.1]

Writes the file in a temporary folder (with one real law beside it), indexes it, then times
`fonte ask` twice: once against `--max-minutes`, once interrupted with SIGINT after a few
seconds. Prints how far past the cap the run stopped, how soon it exited after the signal,
whether each wrote its partial report, and peak memory. It asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAW = (
    Path(__file__).resolve().parents[1].parent
    / "shared/corpus/br-laws/docs/marco_legal_da_micro_e_minigeracao_de_energia_lei_14300.md"
)
QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"
WORDS = (
    "energia solar geração distribuída potência instalada mercado tarifa consumidor rede "
    "distribuidora crédito compensação lei regulação microgeração minigeração quilowatts"
).split()
SIGNAL_AFTER_SECONDS = 4.0


def write_big_file(path: Path, megabytes: int) -> None:
    rng = random.Random(7)
    target = megabytes * 1_000_000
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < target:
            line = " ".join(rng.choice(WORDS) for _ in range(15)) + ".\n"
            out.write(line)
            written += len(line)


def fonte(*arguments: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "engine.cli.program", *arguments],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def spend_seconds(report: Path) -> tuple[float, float, bool] | None:
    if not report.exists():
        return None
    data = json.loads(report.read_text())
    return data["spend"]["seconds"], data["limits"]["seconds"], data["partial"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--cap-minutes", type=float, default=0.1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fonte-big-") as temporary:
        root = Path(temporary)
        library = root / "docs"
        library.mkdir()
        write_big_file(library / "grande.txt", args.megabytes)
        if LAW.exists():
            (library / LAW.name).write_text(LAW.read_text(encoding="utf-8"), encoding="utf-8")
        env = {**os.environ, "FONTE_CACHE_DIR": str(root / "cache")}
        started = time.monotonic()
        fonte("library", "index", str(library), env=env).wait()
        print(f"{args.megabytes} MB text file indexed in {time.monotonic() - started:.1f} s")

        ask = ["ask", QUESTION, "--library", str(library), "--format", "json", "--no-clarify"]
        started = time.monotonic()
        capped = fonte(
            *ask, "--max-minutes", str(args.cap_minutes), "--out", str(root / "a"), env=env
        )
        capped.wait()
        wall = time.monotonic() - started
        found = spend_seconds(root / "a" / "report.json")
        if found is None:
            print("capped run: no report written")
        else:
            spent, cap, partial = found
            print(
                f"capped run: {spent:.1f} s spent of a {cap:.0f} s cap ({spent - cap:+.1f} s past "
                f"it), partial={partial}, {wall:.1f} s wall in all (library open included)"
            )

        interrupted = fonte(*ask, "--max-minutes", "5", "--out", str(root / "b"), env=env)
        time.sleep(SIGNAL_AFTER_SECONDS)
        sent = time.monotonic()
        interrupted.send_signal(signal.SIGINT)
        code = interrupted.wait()
        exit_after = time.monotonic() - sent
        written = (root / "b" / "report.json").exists()
        print(
            f"Ctrl-C after {SIGNAL_AFTER_SECONDS:.0f} s: exited {exit_after:.1f} s later "
            f"(code {code}), partial report written: {written}"
        )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of a fonte process: {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
