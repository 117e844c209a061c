"""Accuracy of every comparison of a suite, overall and per group, from per-text scores."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from plausibility.errors import DataFormatError
from plausibility.minimal_pairs.human import ALL, read_human_accuracy
from plausibility.minimal_pairs.items import Item, Text
from plausibility.minimal_pairs.registry import get_metric
from plausibility.minimal_pairs.stats import bootstrap_ci
from plausibility.minimal_pairs.suite_config import Comparison, SuiteConfig


@dataclass(frozen=True)
class ComparisonResult:
    """Accuracy of one comparison over the items of one group (`group` empty: every item)."""

    comparison: str
    kind: str
    labels: Mapping[str, str]
    group: Mapping[str, str]
    n_items: int
    accuracy: float
    ci_low: float
    ci_high: float
    human: float | None


@dataclass(frozen=True)
class SuiteResult:
    """Everything a report shows for one experiment of one suite."""

    suite: str
    experiment: str
    version: int
    metric: str
    score: str
    n_items: int
    n_texts: int
    results: tuple[ComparisonResult, ...]
    mean_scores: Mapping[str, float]


def suite_texts(items: Sequence[Item]) -> list[Text]:
    """Every text the items need scored, in item order."""
    return [text for item in items for text in item.roles.values()]


def check_labels(items: Sequence[Item], labels: Iterable[str], setting: str) -> None:
    """Fail when a suite groups or samples by a label its items do not carry, listing the ones they do."""
    present = {label for item in items for label in item.labels}
    for label in labels:
        if label not in present:
            raise DataFormatError(
                f"{setting} names label {label!r}, which the items do not carry; labels: {', '.join(sorted(present))}"
            )


def limit_items(items: Sequence[Item], limit: int, by: Sequence[str], rng: np.random.Generator) -> list[Item]:
    """At most `limit` items per value of the `by` labels (all items as one group without `by`), drawn at
    random without replacement and kept in their original order."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    check_labels(items, by, "limit_by")
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault(tuple(item.labels[label] for label in by), []).append(index)
    keep: list[int] = []
    for indices in groups.values():
        chosen = rng.choice(len(indices), size=min(limit, len(indices)), replace=False)
        keep.extend(indices[i] for i in chosen)
    return [items[index] for index in sorted(keep)]


def check_roles(suite: SuiteConfig, items: Sequence[Item]) -> None:
    """Fail when a comparison names a condition no item has, listing the roles the data provides."""
    present = {role for item in items for role in item.roles}
    metric = get_metric(suite.metric)
    for comparison in suite.comparisons:
        for side in (comparison.good, comparison.bad):
            condition = suite.condition(side)
            needed = [condition.text, *([condition.control] if metric.needs_control else [])]
            for role in needed:
                if role not in present:
                    raise DataFormatError(
                        f"suite {suite.name}/{suite.experiment}: comparison {comparison.name!r} needs condition "
                        f"{role!r}, which no item of {suite.data} has; conditions present: {', '.join(sorted(present))}"
                    )


def outcomes(
    suite: SuiteConfig, comparison: Comparison, items: Sequence[Item], scores: Mapping[str, float]
) -> tuple[np.ndarray, np.ndarray]:
    """Per-item outcome (1.0 when value(good) > value(bad)) of one comparison, and the indices of the items
    that have its texts; an item lacking one is left out (e.g. `every` exists only for named subjects)."""
    metric = get_metric(suite.metric)
    sides = (suite.condition(comparison.good), suite.condition(comparison.bad))
    needed = [side.text for side in sides] + ([side.control for side in sides] if metric.needs_control else [])
    used = np.array(
        [index for index, item in enumerate(items) if all(role in item.roles for role in needed)], dtype=int
    )

    def column(role: str) -> np.ndarray:
        return np.array([scores[items[index].roles[role].id] for index in used], dtype=float)

    good, bad = (
        metric.value(column(side.text), column(side.control) if metric.needs_control else None) for side in sides
    )
    return (good > bad).astype(float), used


def _group_keys(item: Item, group_by: Sequence[tuple[str, ...]]) -> list[tuple[tuple[str, str], ...]]:
    return [tuple((label, item.labels[label]) for label in labels) for labels in group_by]


def mean_scores(items: Sequence[Item], scores: Mapping[str, float], by: str) -> dict[str, float]:
    """Per role: mean score over the items of each `by` label value, then over those values (ECBD's average
    over examples within an entity, then over entities)."""
    per_role: dict[str, dict[str, list[float]]] = {}
    for item in items:
        for role, text in item.roles.items():
            per_role.setdefault(role, {}).setdefault(item.labels[by], []).append(scores[text.id])
    return {role: float(np.mean([np.mean(v) for v in groups.values()])) for role, groups in per_role.items()}


def evaluate(
    suite: SuiteConfig, items: Sequence[Item], scores: Mapping[str, float], rng: np.random.Generator
) -> SuiteResult:
    """Accuracy with a bootstrapped interval for every comparison, over all items and per group.

    Args:
        scores: text id -> the score the suite's metric compares (natural log-probability for `conditional`
            and `text`, SLOR for `slor`, mean token log-probability for `conditional_mean`).
    """
    if not items:
        raise DataFormatError(f"suite {suite.name}/{suite.experiment}: {suite.data} holds no items")
    check_roles(suite, items)
    check_labels(items, {label for labels in suite.group_by for label in labels}, "group_by")
    missing = [text.id for text in suite_texts(items) if text.id not in scores]
    if missing:
        raise DataFormatError(
            f"no score for {len(missing)} of the {len(suite_texts(items))} texts of suite "
            f"{suite.name}/{suite.experiment}, e.g. {', '.join(missing[:3])}; "
            "a scores file needs one `id,logprob` row per text"
        )
    human = read_human_accuracy(suite.human) if suite.human else {}
    levels = [tuple(labels) for labels in suite.group_by]
    results = []
    for comparison in suite.comparisons:
        item_outcomes, used = outcomes(suite, comparison, items, scores)
        subsets: dict[tuple[tuple[str, str], ...], list[int]] = {(): list(range(len(used)))}
        for position, index in enumerate(used):
            for key in _group_keys(items[index], suite.group_by):
                subsets.setdefault(key, []).append(position)
        rows = []
        for key, positions in subsets.items():
            interval = bootstrap_ci(item_outcomes[positions], rng, suite.confidence, suite.n_resamples)
            group = dict(key)
            human_value = None
            if comparison.human and suite.human:
                # Human figures exist over all items and per the one label the human file is grouped by.
                if not group:
                    human_value = human.get((comparison.human, ALL))
                elif set(group) == {suite.human.group_label}:
                    human_value = human.get((comparison.human, group[suite.human.group_label]))
            rows.append(
                ComparisonResult(
                    comparison.name, comparison.kind, comparison.labels, group, len(positions),
                    interval.estimate, interval.low, interval.high, human_value,
                )
            )  # fmt: skip
        # Bootstrapped in first-seen order (which fixes the draws); listed as all items, then the groups of
        # each `group_by` entry in turn (every field, then every UID)
        results.extend(sorted(rows, key=lambda row: levels.index(tuple(row.group)) if row.group else -1))
    return SuiteResult(
        suite=suite.name,
        experiment=suite.experiment,
        version=suite.version,
        metric=suite.metric,
        score=suite.score,
        n_items=len(items),
        n_texts=len(suite_texts(items)),
        results=tuple(results),
        mean_scores=mean_scores(items, scores, suite.mean_score_by) if suite.mean_score_by else {},
    )
