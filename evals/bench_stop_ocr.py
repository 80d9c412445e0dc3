"""Benchmark: stopping while scanned pages are read by OCR, and the time cap while rendering.

    python -m evals.bench_stop_ocr --redis redis://127.0.0.1:6379/15 [--pages 30]
                                   [--cap-minutes 0.25] [--only worker,render]

`worker`: a `fonte worker` whose library is one scanned PDF of `--pages` pages, never indexed,
is sent SIGTERM once a Tesseract runs under it (reading the library at start): the seconds
until it exits, its exit code, and whether any Tesseract it started still runs half a second
later. `render`: the same library indexed first (minutes: every page is read by OCR), then
`fonte ask --max-minutes` citing its scanned pages: how far past the cap it ended (the cited
pages are read again by OCR for their highlight, now within the cap), and the note that
says how many were left without it. It asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.bench.processes import start_worker, worker_environment

PREFIX = "bench-stop-ocr"


def scanned_library(folder: Path, pages: int) -> Path:
    """`folder` holding one PDF of `pages` scanned pages (images of text, no text layer)."""
    folder.mkdir(parents=True, exist_ok=True)
    font = ImageFont.load_default(size=28)
    images = []
    for page in range(pages):
        image = Image.new("L", (1240, 1754), 255)
        draw = ImageDraw.Draw(image)
        for line in range(40):
            text = f"Pagina {page + 1} linha {line}: o imposto municipal cresceu {line + page}%"
            draw.text((80, 80 + line * 40), text, fill=0, font=font)
        images.append(image)
    images[0].save(folder / "scan.pdf", save_all=True, append_images=images[1:], resolution=150)
    return folder


def _children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat[0] != "Z":
                found.setdefault(int(stat[1]), []).append(int(entry))
    return found


def tesseracts_under(root: int) -> list[int]:
    """The live Tesseract processes descending from `root`, by pid."""
    children, found, todo = _children(), [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            try:
                if b"tesseract" in Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")[0]:
                    found.append(child)
            except OSError:
                continue
    return found


def running(pids: list[int]) -> list[int]:
    alive = {pid for pids_of in _children().values() for pid in pids_of}
    return [pid for pid in pids if pid in alive]


def stop_worker(library: Path, redis: str, cache: Path) -> None:
    env = worker_environment("http://127.0.0.1:9", redis, PREFIX, library)
    env["FONTE_CACHE_DIR"] = str(cache)
    worker = start_worker(env)
    try:
        started: list[int] = []
        while not started and worker.poll() is None:
            time.sleep(0.1)
            started = tesseracts_under(worker.pid)
        sent = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=600)
        seconds = time.monotonic() - sent
        time.sleep(0.5)
        left = running(started)
        print(
            f"worker: exited {seconds:.1f} s after SIGTERM during OCR, code {worker.returncode};"
            f" Tesseract still running 0.5 s later: {len(left)} of {len(started)}"
        )
    finally:
        if worker.poll() is None:
            worker.kill()


def capped_render(library: Path, cache: Path, minutes: float) -> None:
    fonte = [sys.executable, "-m", "engine.cli.program"]
    env = {**os.environ, "FONTE_SEEN_CHECK": "0"}
    subprocess.run([*fonte, "library", "index", str(library), "--cache-dir", str(cache)], env=env)
    out = cache.parent / "report"
    command = [*fonte, "ask", "imposto municipal cresceu", "--library", str(library)]
    command += ["--model", "offline", "--no-clarify", "--max-minutes", str(minutes)]
    command += ["--cache-dir", str(cache), "--out", str(out), "--format", "json,md,html,docx"]
    started = time.monotonic()
    subprocess.run(command, env=env, capture_output=True)
    seconds = time.monotonic() - started
    notes = [
        line
        for line in (out / "report.md").read_text().splitlines()
        if "scanned" in line or "digitalizadas" in line
    ]
    print(f"render: ended {seconds - minutes * 60:+.1f} s past a {minutes * 60:.0f} s cap")
    print(f"render: {notes[0].strip() if notes else 'no cited scanned page was left unread'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--redis", required=True, help="a Redis database the worker may use")
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--cap-minutes", type=float, default=0.25)
    parser.add_argument("--only", default="worker,render")
    args = parser.parse_args()
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="fonte-bench-stop-") as work:
        library = scanned_library(Path(work) / "library", args.pages)
        if "worker" in only:
            stop_worker(library, args.redis, Path(work) / "worker-cache")
        if "render" in only:
            capped_render(library, Path(work) / "cache", args.cap_minutes)


if __name__ == "__main__":
    main()
