"""Benchmark: how long `fonte` takes to start, and what each command imports.

    python -m evals.bench_startup [--runs 7]

Runs each command line in a new interpreter `--runs` times (as a user's `fonte` does, with
this checkout, or `--root DIR`, first on the path) and prints the median and the fastest
wall time, the median CPU time (user and system: what a busy machine does not inflate), and
the heavy libraries the command imported: `fonte --help`, each command's `--help`, `import
engine`, `import engine.cli`. Target (issue: start-up): `fonte --help` within 1 s. It asserts
nothing; tests/engine/cli/test_imports.py holds what each command may import.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "anthropic",
    "matplotlib",
    "weasyprint",
    "openpyxl",
    "docx",
    "pptx",
    "playwright",
    "pypdfium2",
    "numpy",
    "jinja2",
    "trafilatura",
    "lxml",
    "PIL",
    "httpx",
    "slack_bolt",
    "arq",
    "redis",
    "psycopg",
)
"""What a command that does not use them must not import (tests/engine/cli/test_imports.py)."""
HELP_UNUSED = ("pydantic", "rich", "importlib.metadata")
"""What a built-in command's `--help` does not use either: the report's models, the terminal's
console, the installed distributions' metadata (`fonte --help` reads it for the plugins)."""
SHOWN = (*HEAVY, *HELP_UNUSED)
_CLI = (
    "import json, sys\nfrom engine.cli import main\ntry:\n    main(sys.argv[1:])\n"
    "except SystemExit:\n    pass\n"
)
_REPORT = "print(json.dumps([m for m in {heavy} if m in sys.modules]), file=sys.stderr)"
CASES: dict[str, tuple[str, list[str]]] = {
    "fonte --help": (_CLI, ["--help"]),
    "fonte ask --help": (_CLI, ["ask", "--help"]),
    "fonte verify --help": (_CLI, ["verify", "--help"]),
    "fonte eval --help": (_CLI, ["eval", "--help"]),
    "fonte bot --help": (_CLI, ["bot", "--help"]),
    "import engine": ("import json, sys\nimport engine\n", []),
    "import engine.cli": ("import json, sys\nimport engine.cli\n", []),
}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _once(code: str, arguments: list[str], root: Path) -> tuple[float, float, list[str]]:
    environment = {**os.environ, "PYTHONPATH": str(root)}
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code + _REPORT.format(heavy=SHOWN), *arguments],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return seconds, _children_cpu() - cpu, loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to time")
    args = parser.parse_args()
    print(f"{args.root}: {args.runs} runs each")
    print(f"{'command':22} {'median s':>8} {'fastest s':>9} {'CPU s':>6}  heavy libraries imported")
    for name, (code, arguments) in CASES.items():
        times: list[float] = []
        cpus: list[float] = []
        loaded: list[str] = []
        for _ in range(args.runs):
            seconds, cpu, loaded = _once(code, arguments, args.root.resolve())
            times.append(seconds)
            cpus.append(cpu)
        shown = ", ".join(loaded) or "none"
        median, fastest, cpu = statistics.median(times), min(times), statistics.median(cpus)
        print(f"{name:22} {median:8.2f} {fastest:9.2f} {cpu:6.2f}  {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
