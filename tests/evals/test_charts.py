from __future__ import annotations

from pathlib import Path

from evals.charts import chart_title, write_chart
from tests.support.eval_builders import row

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_a_png_is_written(tmp_path: Path) -> None:
    path = tmp_path / "chart.png"
    rows = [row("final", seconds=2.0), row("v1", seconds=9.0, usd=0.01, required_found=0)]

    write_chart(rows, path, suite="br-laws", model="offline", latency="simulated latency: x")

    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 5_000


def test_a_chart_of_one_architecture_with_zero_values(tmp_path: Path) -> None:
    path = tmp_path / "chart.png"

    write_chart([row("final", seconds=0.0, required_total=0)], path, suite="s", model="offline")

    assert path.read_bytes().startswith(PNG_SIGNATURE)


def test_the_title_says_when_times_are_simulated() -> None:
    simulated = chart_title(
        "br-laws", ["final", "v1"], "offline", "6 cases", "simulated latency: x"
    )
    measured = chart_title("br-laws", ["final", "v1"], "offline", "6 cases", None)

    assert "final vs v1" in simulated
    assert "times with simulated latency: x" in simulated
    assert "no simulated latency" in measured
