"""The demo's quick training config: the shipped ConceptMax config with its budget and outputs moved."""

from pathlib import Path

import yaml

from plausibility.demo import DemoSettings, _quick_config
from plausibility.resources import configs_dir


def test_quick_config_moves_every_output_under_the_run_folder(tmp_path: Path) -> None:
    run_dir = tmp_path / "concept_max"
    config = yaml.safe_load(_quick_config(DemoSettings(steps=7, batch_size=4), run_dir).read_text())
    shipped = yaml.safe_load((configs_dir() / "models" / "concept_max.yaml").read_text())
    assert config["model"] == shipped["model"]
    assert config["trainer"]["max_steps"] == 7
    assert config["data"]["batch_size"] == 4
    paths = [config["trainer"]["default_root_dir"]]
    paths += [logger["init_args"]["save_dir"] for logger in config["trainer"]["logger"]]
    paths += [c["init_args"]["dirpath"] for c in config["trainer"]["callbacks"] if "dirpath" in c["init_args"]]
    assert len(paths) >= 3
    assert all(Path(path).is_relative_to(run_dir) for path in paths)


def test_lieder_table_escapes_the_bars_of_comparison_names() -> None:
    from plausibility.demo import _lieder_markdown
    from plausibility.minimal_pairs.evaluate import ComparisonResult

    row = ComparisonResult("p(sg|pos_neg)>p(sg|pos_pos)", "test", {}, {}, 48, 0.5, 0.4, 0.6, 0.84)
    assert _lieder_markdown([row]).splitlines()[-1] == "| p(sg\\|pos_neg)>p(sg\\|pos_pos) | 0.50 | 0.84 |"
