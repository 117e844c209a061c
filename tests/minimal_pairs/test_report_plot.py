"""The accuracy plot: its legend names every kind of mark the figure has, and sits above the bars."""

import json
from pathlib import Path

from plausibility.minimal_pairs.suite_config import load_suite
from plausibility.minimal_pairs.suite_report import accuracy_figure
from plausibility.minimal_pairs.suite_runner import run_suite


def test_the_lieder_legend_explains_the_grey_bars_and_covers_no_bar(fixtures: Path) -> None:
    data = fixtures / "minimal_pairs" / "lieder_two_items.jsonl"
    ids = [json.loads(line)["id"] for line in data.read_text().splitlines()]
    scores = {text_id: -1.0 if text_id.endswith("_sref") else -2.0 for text_id in ids}
    result, _ = run_suite(load_suite("lieder", "base", data=data), scores=scores)
    figure = accuracy_figure({"lm": result})
    (axis,) = figure.axes
    bars = axis.patches
    grey = [bar for bar, row in zip(bars, [r for r in result.results if not r.group], strict=True)
            if row.kind == "statistic"]  # fmt: skip
    assert len(bars) == 17 and len(grey) == 2  # 15 tests of Table 3 and the two distance-effect statistics
    assert {bar.get_facecolor() for bar in grey} != {bar.get_facecolor() for bar in bars if bar not in grey}
    (legend,) = figure.legends
    assert [text.get_text() for text in legend.get_texts()] == [
        "accuracy: share of items with good > bad, 95% CI",
        "statistic (grey): share with good > bad where neither is right, e.g. the distance effect",
        "human accuracy",
        "chance (0.5)",
    ]
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    assert legend.get_window_extent(renderer).y0 >= axis.get_window_extent(renderer).y1  # above, not over
