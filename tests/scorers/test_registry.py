"""`load_scorer`: each SPEC form builds its kind of scorer, and the loading options reach every factory."""

import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
from trained_models import TRIPLES, Saved

from plausibility.baselines.ngram import NgramScorer
from plausibility.baselines.zero_shot import ZeroShotScorer
from plausibility.errors import DataFormatError, DeviceUnavailableError, PlausibilityError, UnknownNameError
from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.masked import MaskedLMScorer
from plausibility.release.export import export_model
from plausibility.scorers.calibrated import CalibratedScorer, uncalibrated
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.net import NetScorer, SenseNetScorer
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple


def test_each_spec_form_builds_its_kind_of_scorer(
    fixtures: Path,
    lm_folders: dict[str, Path],
    checkpoints: dict[str, Saved],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    triples = fixtures / "ngram_triples.tsv"

    def own(spec: str) -> object:
        """The scorer inside the calibration every SPEC's scorer comes in."""
        scorer = build_scorer(spec)
        assert isinstance(scorer.searched if isinstance(scorer, ConceptMax) else scorer, CalibratedScorer)
        return uncalibrated(scorer)

    assert type(own(f"ngram:{triples}")) is NgramScorer
    assert type(build_scorer(f"uncalibrated:ngram:{triples}")) is NgramScorer
    causal = own(f"zero-shot:{lm_folders['causal']}")
    assert type(causal) is ZeroShotScorer and causal.variant == "pmi" and type(causal.lm) is CausalLMScorer
    masked = own(f"zero-shot:{lm_folders['masked']}")
    assert type(masked) is ZeroShotScorer and masked.variant == "masked" and type(masked.lm) is MaskedLMScorer
    assert masked.lm.pll == "word-l2r"
    assert own(f"zero-shot:{lm_folders['masked']}@pmi?pll=original").lm.pll == "original"
    with pytest.raises(DataFormatError, match="is a causal LM, which scores every token left to right"):
        build_scorer(f"zero-shot:{lm_folders['causal']}?pll=original")
    assert uncalibrated(build_scorer(f"zero-shot:{lm_folders['causal']}@raw")).variant == "raw"
    wrapped = own(f"conceptmax:ngram:{triples}")
    assert type(wrapped) is ConceptMax and type(wrapped.searched) is NgramScorer
    assert type(own(str(checkpoints["classifier"].path))) is NetScorer
    assert type(own(str(checkpoints["concept_max"].path))) is ConceptMax
    assert type(own(f"glove-mlp:{checkpoints['glove_mlp'].path}")) is NetScorer
    export_model(checkpoints["concept_inject"].path, tmp_path / "exported", evaluate=False, calibration_pairs=0)
    assert type(own(str(tmp_path / "exported"))) is SenseNetScorer
    around = own(f"conceptmax:{checkpoints['classifier'].path}")
    assert type(around) is ConceptMax and type(around.searched) is NetScorer
    assert own(f"conceptmax:{checkpoints['concept_max'].path}").searched.__class__ is NetScorer  # not twice


def test_event_reads_a_concept_max_model_at_its_event_calibrated_on_its_own_scores(
    fixtures: Path, checkpoints: dict[str, Saved], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    path = str(checkpoints["concept_max"].path)
    events = [Triple("person", "breathe", "air"), Triple("rock", "eat", "sandwich")]
    maximum, net = build_scorer(f"uncalibrated:{path}"), build_scorer(f"event:{path}")
    assert type(net) is CalibratedScorer and type(net.scorer) is NetScorer
    assert net.score(events).tolist() == maximum.searched.score(events).tolist()  # the net's own, not the maximum
    # the maximum's grid holds the event's own cell, scored in another batch: equal up to float32 padding noise
    assert np.all(maximum.score(events) >= net.score(events) - 1e-5)
    assert net.calibration is not None and net.calibration != build_scorer(path).searched.calibration
    assert type(build_scorer(f"uncalibrated:event:{path}")) is NetScorer
    ngram = f"ngram:{fixtures / 'ngram_triples.tsv'}"
    assert build_scorer(f"event:{ngram}").score(events).tolist() == build_scorer(ngram).score(events).tolist()


def test_members_reading_one_net_share_its_forward_passes(
    checkpoints: dict[str, Saved], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    path = str(checkpoints["concept_max"].path)
    events = [Triple("person", "breathe", "air"), Triple("rock", "eat", "sandwich")]
    at_event, at_best = uncalibrated(build_scorer(f"ensemble:event:{path}+{path}")).members
    net = uncalibrated(at_event)
    assert net is uncalibrated(at_best).searched  # one NetScorer behind both members
    featurized: list[Triple] = []
    featurize = net.net.featurize
    monkeypatch.setattr(net.net, "featurize", lambda triples: featurized.extend(triples) or featurize(triples))
    shared = at_event.score(events), at_best.score(events), at_best.score(events[:1])
    # every triple went through the net once: the events for `event:`, then only the other cells of their grids
    assert set(events) <= set(featurized) and len(featurized) == len(set(featurized)) > len(events)
    alone = build_scorer(f"uncalibrated:event:{path}").score(events), build_scorer(f"uncalibrated:{path}").score(events)
    np.testing.assert_allclose(shared[0], alone[0], atol=1e-6)  # the same two events in one batch both ways: equal
    # The grids' cells run without the events (already scored) vs with them: other batches, so float32 padding
    # noise of a few ulps in a logit near -1.1 (ulp 2.4e-7), as for the maximum above.
    np.testing.assert_allclose(shared[1], alone[1], atol=1e-5)
    np.testing.assert_allclose(shared[2], alone[1][:1], atol=1e-5)


def test_bare_shipped_names_load_the_folders_under_data_models(
    checkpoints: dict[str, Saved], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAUSIBILITY_DATA", str(tmp_path))
    # nothing shipped there: not a name of a model (and a bare conceptmax is the wrapper, wanting its scorer)
    with pytest.raises(UnknownNameError, match="^unknown model 'roberta'; known: "):
        build_scorer("roberta")
    with pytest.raises(PlausibilityError, match="^conceptmax needs the scorer to wrap, e.g. conceptmax:zero-shot$"):
        build_scorer("conceptmax")
    for name, source in (("roberta", "classifier"), ("conceptmax", "concept_max")):
        export_model(checkpoints[source].path, tmp_path / "models" / name, evaluate=False, calibration_pairs=0)
    roberta = build_scorer("roberta")
    assert type(uncalibrated(roberta)) is NetScorer
    # fp16 weights (rounded by up to 2^-11 relative) move this tiny net's logits by ~3e-5
    assert np.max(np.abs(roberta.score(TRIPLES) - checkpoints["classifier"].scores)) < 1e-3
    assert type(build_scorer("conceptmax")) is ConceptMax
    assert type(build_scorer("conceptmax:roberta")) is ConceptMax  # the wrapper, around the shipped folder
    shutil.rmtree(tmp_path / "models" / "roberta")
    with pytest.raises(UnknownNameError, match=r"^unknown model 'roberta'; known: .*conceptmax, "):
        build_scorer("conceptmax:roberta")


def test_bfloat16_scores_within_a_tolerance_of_float32(
    lm_folders: dict[str, Path], checkpoints: dict[str, Saved]
) -> None:
    for kind in ("causal", "masked"):
        spec = f"zero-shot:{lm_folders[kind]}"
        full = build_scorer(spec, device="cpu")
        half = build_scorer(spec, device="cpu", dtype="bfloat16")
        assert uncalibrated(half).lm.model.dtype == torch.bfloat16
        assert uncalibrated(full).lm.model.dtype == torch.float32
        low, high = half.score(TRIPLES), full.score(TRIPLES)
        assert not np.array_equal(low, high)  # computed in bfloat16 indeed
        np.testing.assert_allclose(low, high, rtol=0, atol=0.01)  # bfloat16 (2^-8) moves these scores ~2e-3
    spec = f"conceptmax:{checkpoints['classifier'].path}"
    half = build_scorer(spec, dtype="bfloat16")  # the wrapper hands its options to the scorer it wraps
    assert uncalibrated(half).searched.net.head.weight.dtype == torch.bfloat16
    # bfloat16 weights (2^-8 relative) move the tiny classifier's logits, and so their maximum, by ~2e-3
    np.testing.assert_allclose(half.score(TRIPLES), build_scorer(spec).score(TRIPLES), rtol=0, atol=0.02)


def test_the_batch_size_does_not_change_scores(lm_folders: dict[str, Path], checkpoints: dict[str, Saved]) -> None:
    for spec in (f"zero-shot:{lm_folders['causal']}", f"zero-shot:{lm_folders['masked']}"):
        one = build_scorer(spec, batch_size=1)
        assert uncalibrated(one).lm.batch_size == 1
        # batches of 1 vs 64: up to three float32 sums of ~5 token values (~3 nats, ulp 2.4e-7) each, ~5e-6 at most
        np.testing.assert_allclose(one.score(TRIPLES), build_scorer(spec, batch_size=64).score(TRIPLES), atol=1e-5)
    path = str(checkpoints["concept_inject"].path)
    one = build_scorer(path, batch_size=1)
    assert uncalibrated(one).batch_size == 1
    # batches of 1 vs the saved 16: padding moves a float32 logit near -1.1 by a few ulps (2.4e-7)
    np.testing.assert_allclose(one.score(TRIPLES), checkpoints["concept_inject"].scores, atol=1e-5)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a CUDA GPU")
def test_a_device_this_machine_lacks_fails_before_loading(fixtures: Path) -> None:
    with pytest.raises(DeviceUnavailableError) as raised:
        build_scorer(f"ngram:{fixtures / 'missing.tsv'}", device="cuda:0")
    assert str(raised.value) == "device 'cuda:0': no CUDA GPU is visible on this machine; choose cpu or auto"


def test_bad_options_fail_in_one_line_before_loading(fixtures: Path) -> None:
    missing = f"ngram:{fixtures / 'missing.tsv'}"
    with pytest.raises(UnknownNameError) as raised:
        build_scorer(missing, dtype="fp8")  # type: ignore[arg-type]
    assert str(raised.value) == "unknown dtype 'fp8'; known: bfloat16, float16, float32"
    with pytest.raises(UnknownNameError) as raised:
        build_scorer(missing, device="gpu")
    assert str(raised.value) == "unknown device 'gpu'; known: auto, cpu, cuda, cuda:N, mps"
    with pytest.raises(PlausibilityError) as raised:
        build_scorer(missing, batch_size=0)
    assert str(raised.value) == "batch size 0: give a whole number of at least 1"
