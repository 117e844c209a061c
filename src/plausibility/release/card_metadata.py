"""The YAML metadata block at the top of a model's card (`README.md`), in the form Hugging Face's card parser reads:
licence, base models, datasets, and each measured test AUC as an evaluation result."""

from collections.abc import Mapping

from huggingface_hub import EvalResult, ModelCardData

from plausibility.benchmarks.datasets import DATASET_TITLES
from plausibility.models.model_folder import ModelFolder
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM
from plausibility.scorers.shipped import model_folder, shipped_versions

# The hub ids of the models the offline packages hold, by the name a config gives them.
HUB_IDS = {
    "all-MiniLM-L6-v2": "sentence-transformers/all-MiniLM-L6-v2",
    "SmolLM2-135M-Instruct": "HuggingFaceTB/SmolLM2-135M-Instruct",
}
# What every model here is trained or fitted on: Wikipedia's triples, and (a calibration or a stack) the judged
# valid halves of Pep-3k and 20Q.
DATASETS = ["wikipedia", "pep3k", "20q"]


def _backbone(config: Mapping) -> str | None:
    return ((config.get("model") or {}).get("net") or {}).get("init_args", {}).get("backbone")


def base_models(config: Mapping) -> list[str]:
    """The pretrained models a model is built on: a net's encoder; an ensemble's or stack's members' encoders and
    language model (the offline one where a zero-shot member names none)."""
    found = [_backbone(config)]
    for spec in [*config.get("members", ()), *([config["spec"]] if "spec" in config else [])]:
        folders = [ModelFolder(model_folder(name)) for name in shipped_versions(spec)]
        found += [_backbone(folder.config()) for folder in folders if folder.holds_net]  # a net's has a backbone
        if spec.startswith("zero-shot"):
            lm = spec.split("@")[0].split("?")[0].partition(":")[2]
            found.append(lm or DEFAULT_CAUSAL_LM)
    return list(dict.fromkeys(HUB_IDS.get(name, name) for name in found if name))


def card_metadata(config: Mapping, evaluation: Mapping[str, Mapping]) -> str:
    """The block, `---` lines included: from a folder's config and its `evaluation.json` record."""
    results = [
        EvalResult(
            task_type="text-classification",
            task_name="event plausibility",
            dataset_type=dataset,
            dataset_name=DATASET_TITLES[dataset],
            dataset_split="test",
            metric_type="roc_auc",
            metric_name="ROC-AUC",
            metric_value=round(float(evaluation[f"{dataset}/test"]["estimate"]), 3),
        )
        for dataset in DATASET_TITLES
        if f"{dataset}/test" in evaluation
    ]
    data = ModelCardData(
        language="en",
        license="apache-2.0",
        library_name="plausibility",
        tags=["event-plausibility", "selectional-preference"],
        base_model=base_models(config) or None,
        datasets=DATASETS,
        metrics=["roc_auc"],
        model_name=f"{config['name']} {config['version']}",
        eval_results=results or None,
    )
    return f"---\n{data.to_yaml()}\n---\n\n"
