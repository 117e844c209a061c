"""Faults injected into real runs: a full or read-only file system, SIGTERM and SIGINT part-way, a file changed under
a loaded model. Each run is a real `plausibility` process; each test asserts its exit code, its one-line message,
and that no partial or corrupt output remains.

A full file system is a small tmpfs where this process may mount one (as root); elsewhere it is a file-size limit
(RLIMIT_FSIZE), under which the kernel refuses writes past the limit (EFBIG) just as a full disk refuses them.
"""

import functools
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
import torch

ROOT = Path(__file__).parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
PLAUSIBILITY = [sys.executable, "-m", "plausibility"]
pytestmark = [pytest.mark.faults, pytest.mark.slow]


def _mount(folder: Path, options: str) -> bool:
    """Mount a tmpfs at `folder`; False where this process may not mount one."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


@contextmanager
def full_file_system(tmp_path: Path, room: int = 16 * 1024) -> Iterator[tuple[Path, Callable[[], None] | None]]:
    """A folder with `room` bytes free, and the limit to give a child process where no tmpfs could be mounted."""
    folder = tmp_path / "full"
    mounted = _mount(folder, f"size={room}")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))

    try:
        yield folder, None if mounted else limit
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=False)


def _run(arguments: list[str], cwd: Path, limit: Callable[[], None] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*PLAUSIBILITY, *arguments], cwd=cwd, capture_output=True, text=True, timeout=600, preexec_fn=limit
    )


def _leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.rglob("*"))


def _big_table(path: Path, rows: int) -> Path:
    words = ["person eat apple", "dog chase cat", "child drink milk", "stone eat bread", "chef bake bread"]
    path.write_text("".join(f"{words[i % len(words)].replace(' ', chr(9))}\n" for i in range(rows)))
    return path


def test_a_full_disk_is_one_line_naming_the_output_and_leaves_nothing(tmp_path: Path) -> None:
    source = _big_table(tmp_path / "in.tsv", 20_000)
    model = "ngram"  # the bundled counts, whose calibration ships: nothing else is written or said
    with full_file_system(tmp_path) as (full, limit):
        output = full / "scores.tsv"
        done = _run(["score", "--input", str(source), "--output", str(output), "--model", model], tmp_path, limit)
        assert done.returncode == 1, done.stderr
        cause = "no space left on the device" if limit is None else "the file is larger than this process may write"
        assert done.stderr.startswith(f"plausibility score: error: {output}: cannot be written: {cause}")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert _leftovers(full) == []
        # a folder written all at once: the report of a minimal-pair suite, then an export
        done = _run(["pairs", "lieder", "--scores", str(_lieder_scores(tmp_path)), "--output", str(full / "r")],
                    tmp_path, limit)  # fmt: skip
        assert done.returncode == 1 and "cannot be written" in done.stderr and done.stderr.count("\n") == 1
        assert not any(path.name.endswith(".partial") for path in full.rglob("*"))


def _lieder_scores(tmp_path: Path) -> Path:
    """Scores for every LIEDER text, as `pairs --scores` reads them: a big enough report to fill the disk."""
    import json

    from plausibility.resources.paths import data_dir

    ids = [json.loads(line)["id"] for line in (data_dir() / "minimal_pairs" / "lieder" / "base_stimuli.jsonl").open()]
    path = tmp_path / "scores.csv"
    path.write_text("id,logprob\n" + "".join(f"{i},{-1.0 - n % 7}\n" for n, i in enumerate(ids)))
    return path


def test_a_read_only_folder_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "read-only"
    mounted = _mount(folder, "ro,size=64k")
    if not mounted:
        folder.chmod(0o555)
    try:
        source = _big_table(tmp_path / "in.tsv", 10)
        output = folder / "scores.tsv"
        done = _run(["score", "--input", str(source), "--output", str(output), "--model", "ngram"], tmp_path)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(f"plausibility score: error: {output}: cannot write there (")
        assert _leftovers(folder) == []
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=False)


def _start(arguments: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*PLAUSIBILITY, *arguments],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A job started in the background has SIGINT ignored, and a child inherits that: give it Ctrl-C back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for(condition: Callable[[], bool], process: subprocess.Popen, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, f"the run ended before the fault: {process.communicate()}"
        assert time.monotonic() < deadline, "the run never reached the point of the fault"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("sent", "code", "word"), [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")]
)
def test_a_signal_part_way_through_scoring_a_file_leaves_no_partial(
    tmp_path: Path, sent: signal.Signals, code: int, word: str
) -> None:
    # The partial opens after one pass that checks every row; writing the repeated triples' scores then takes about
    # three times as long as that pass (here, about 11 s after a 5 s pass): the signal comes long before the end.
    source = _big_table(tmp_path / "in.tsv", 600_000)
    output = tmp_path / "out" / "scores.tsv"
    process = _start(["score", "--input", str(source), "--output", str(output), "--model", "ngram"], tmp_path)
    _wait_for(lambda: output.parent.is_dir() and any(output.parent.iterdir()), process)  # the partial is written
    process.send_signal(sent)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == code, stderr
    assert stderr.strip().splitlines()[-1] == f"plausibility score: {word}"
    assert _leftovers(output.parent) == []


def test_sigterm_part_way_through_extraction_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    import pandas as pd

    sentences = ["The dog chased the cat.", "A child ate the apple.", "The farmer grows wheat.", "Bees make honey."]
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(" ".join(sentences[i % 4 :] + sentences[: i % 4]) for i in range(1000)) + "\n")
    arguments = ["extract", str(corpus), "--min-count", "1", "--shard-size", "100", "--workers", "1"]
    unbroken = _run([*arguments, "--output", str(tmp_path / "whole")], tmp_path)
    assert unbroken.returncode == 0, unbroken.stderr
    stopped = tmp_path / "stopped"
    process = _start([*arguments, "--output", str(stopped)], tmp_path)
    # Some of its 10 shards are done. Its worker is replaced after 8 shards (a fresh process that loads spaCy again,
    # seconds), so the run is still far from its end when the signal comes.
    _wait_for(lambda: len(list(stopped.glob("shards/*-*.json"))) >= 3, process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143 and stderr.strip().splitlines()[-1] == "plausibility extract: terminated"
    assert not (stopped / "triples.parquet").exists()
    resumed = _run([*arguments, "--output", str(stopped)], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    whole, again = (pd.read_parquet(folder / "triples.parquet") for folder in (tmp_path / "whole", stopped))
    pd.testing.assert_frame_equal(whole, again)


def _roberta_config(folder: Path, refresh: int) -> Path:
    """The shipped RoBERTa config with `last.ckpt` refreshed every `refresh` steps (it ships with 100)."""
    import yaml

    config = yaml.safe_load((ROOT / "configs" / "models" / "roberta.yaml").read_text())
    callbacks = config["trainer"]["callbacks"]
    (checkpoint,) = [c for c in callbacks if c["class_path"].endswith("BestAndLastModelCheckpoint")]
    checkpoint["init_args"]["last_every_n_steps"] = refresh
    path = folder / "roberta.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _fit_arguments(config: Path, backbone: str, folder: Path) -> list[str]:
    return [
        "fit",
        f"--config={config}",
        f"--model.net.init_args.backbone={backbone}",
        f"--data.pairs={FIXTURES / 'training' / 'pairs.parquet'}",
        "--data.batch_size=4",
        "--trainer.max_steps=120",
        "--trainer.max_epochs=100",
        "--trainer.limit_val_batches=0",
        "--trainer.enable_progress_bar=false",
        f"--trainer.default_root_dir={folder}",
    ]


@pytest.mark.numeric  # float32 weights after 120 steps compared bit for bit: on one thread and on all
def test_sigterm_part_way_through_fit_saves_last_ckpt_and_resuming_equals_the_uninterrupted_run(
    roberta_backbone: str, tmp_path: Path
) -> None:
    from plausibility.cli import main

    # last.ckpt first appears at step 20, so about 100 of the 120 steps (most of a second) are left when the signal
    # comes: the run cannot end first.
    arguments = functools.partial(_fit_arguments, _roberta_config(tmp_path, refresh=20), roberta_backbone)
    # The uninterrupted run is only the reference: it runs in this process, as `plausibility fit` runs it (each
    # process pays about 6 s to import Lightning); the run that is stopped and the one that resumes are processes.
    assert main(arguments(tmp_path / "whole")) == 0
    folder = tmp_path / "stopped"
    process = _start(arguments(folder), tmp_path)
    _wait_for(lambda: (folder / "checkpoints" / "last.ckpt").exists(), process)  # training runs
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 143 and stderr.strip().splitlines()[-1] == "plausibility fit: terminated"
    stopped = torch.load(folder / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=True)
    assert 20 <= stopped["global_step"] < 120  # saved where it stopped, not only at the 20-step refresh
    resumed = _run([*arguments(folder), f"--ckpt_path={folder / 'checkpoints' / 'last.ckpt'}"], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    final = torch.load(tmp_path / "whole" / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=True)
    again = torch.load(folder / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=True)
    assert final["global_step"] == again["global_step"] == 120
    gap = max(
        (final["state_dict"][name] - again["state_dict"][name]).abs().max().item() for name in final["state_dict"]
    )
    # Exact: every process runs at the thread count the environment gives them all (one in the suite's first pass,
    # all in its numeric pass), on the same kernels from the same seed, and resuming restores what the stop saved.
    assert gap == 0.0


def test_a_model_folder_changed_under_a_loaded_model_fails_in_one_line_and_caches_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plausibility.errors import ResourceChangedError
    from plausibility.scorers.registry import build_scorer

    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    triples = tmp_path / "triples.tsv"
    triples.write_text((FIXTURES / "ngram_triples.tsv").read_text())
    scorer = build_scorer(f"ngram:{triples}")
    triples.write_text((FIXTURES / "ngram_triples.tsv").read_text() + "dog\teat\tbone\t50\n")  # changed under it
    with pytest.raises(ResourceChangedError) as raised:
        scorer.to_probability(np.array([0.0]))
    assert str(raised.value) == f"{triples}: changed on disk since the model was loaded from it; load the model again"
    assert not (tmp_path / "cache" / "calibration").exists()


def test_a_run_into_parts_killed_midway_resumes_to_the_uninterrupted_table(tmp_path: Path) -> None:
    import json

    import pandas as pd

    from plausibility.cli import main

    # Distinct triples, so that every chunk has work: 60 parts of 1,000 rows.
    nouns = [f"{a}{b}" for a in ("dog", "cat", "bird", "child", "stone") for b in ("", "s", "x", "y")]
    lines = [f"{s}\teat\t{o}{i}\n" for i in range(3000) for s, o in [(nouns[i % 20], nouns[(i * 7) % 20])]]
    source = tmp_path / "kb.tsv"
    source.write_text("".join(lines * 20))
    arguments = ["-q", "score", "--input", str(source), "--model", "ngram", "--chunk-size", "1000", "--as-given"]
    # The uninterrupted run is only the reference: it runs in this process, as `plausibility score` runs it (a
    # process pays seconds to load WordNet, which this one has loaded once); the run stopped and resumed are processes.
    assert main([*arguments, "--output", str(tmp_path / "whole")]) == 0

    manifest = tmp_path / "parts" / "_manifest.json"
    running = subprocess.Popen([*PLAUSIBILITY, *arguments, "--output", str(tmp_path / "parts")], cwd=tmp_path)
    deadline = time.monotonic() + 300
    while not (manifest.is_file() and json.loads(manifest.read_text())["finished"] >= 4):
        assert running.poll() is None and time.monotonic() < deadline, "the run ended before it could be stopped"
        time.sleep(0.05)
    running.send_signal(signal.SIGTERM)
    assert running.wait(timeout=60) == 143
    stopped = json.loads(manifest.read_text())
    assert not stopped["complete"] and 4 <= stopped["finished"] < 60

    assert _run([*arguments, "--output", str(tmp_path / "parts")], tmp_path).returncode == 0
    assert json.loads(manifest.read_text())["complete"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "parts"), pd.read_parquet(tmp_path / "whole"))
