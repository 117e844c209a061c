"""The models a server holds: each loaded once at start, with its card's headline figures."""

from collections.abc import Sequence
from dataclasses import dataclass

from plausibility.api import Scorer, load_scorer
from plausibility.devices import DType
from plausibility.errors import CommandLineError
from plausibility.long_lived import loading_long_lived
from plausibility.resources.paths import shipped_models
from plausibility.scorers.shipped import DEFAULT_MODEL, describe_model, shipped_model, shipped_versions

# Scored once at load, so the first request does not pay for what loads lazily (a calibration, a cache, and the
# verb lemma tables, read only for an inflected verb: a second and more when the first request holding one came).
WARM_UP = [("person", "breathe", "air"), ("children", "breathes", "air")]


@dataclass(frozen=True)
class ServedModel:
    """A loaded scorer under the name requests give it (its SPEC), and what `GET /v1/models` says of it.

    Attributes:
        card: a shipped model's version, summary and test AUC (`plausibility models`); None for any other SPEC.
    """

    name: str
    scorer: Scorer
    description: str
    shipped_models: dict[str, str]
    card: dict[str, object] | None

    @classmethod
    def of(cls, scorer: Scorer) -> "ServedModel":
        card = None
        if scorer.spec in shipped_models():
            model = shipped_model(scorer.spec)
            card = {"version": model.version, "summary": model.summary, "test_auc": model.test_auc}
        return cls(scorer.spec, scorer, describe_model(scorer.spec), shipped_versions(scorer.spec), card)


def load_models(
    specs: Sequence[str], device: str | None = None, dtype: DType | None = None, batch_size: int | None = None
) -> list[ServedModel]:
    """Load each SPEC once (none: the default model) and score one event with it, so requests find it ready."""
    specs = list(specs) or [DEFAULT_MODEL]
    if len(set(specs)) < len(specs):
        repeated = sorted({spec for spec in specs if specs.count(spec) > 1})
        raise CommandLineError(f"--model {repeated[0]} is given twice; give each model once")
    models = []
    for spec in specs:
        with loading_long_lived():
            scorer = load_scorer(spec, device=device, dtype=dtype, batch_size=batch_size)
            scorer.records(WARM_UP)
        models.append(ServedModel.of(scorer))
    return models
