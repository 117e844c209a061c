"""Resnik's selectional association on a toy hierarchy with hand-computed values."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from plausibility.baselines.resnik import ResnikScorer, class_shares, fit_slot
from plausibility.corpus.artefacts import PAIR_COLUMNS
from plausibility.errors import ResourceMissingError
from plausibility.scorers.calibration import calibration_slice, fit_calibration, fit_platt
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

# entity ─┬─ food ─┬─ apple.n.01
#         │        └─ bread.n.01
#         ├─ tool ─┬─ knife.n.01
#         │        └─ bat.n.01      ("bat" has two senses)
#         └─ animal ── bat.n.02
TOY = {
    "apple": [["entity", "food", "apple.n.01"]],
    "bread": [["entity", "food", "bread.n.01"]],
    "knife": [["entity", "tool", "knife.n.01"]],
    "bat": [["entity", "tool", "bat.n.01"], ["entity", "animal", "bat.n.02"]],
    "cook": [["entity", "animal", "cook.n.01"]],
}


def toy_chains(noun: str) -> list[list[str]]:
    return TOY.get(noun, [])


# object slot: eat apple 2, eat bread 2, use knife 2, use bat 2 (N = 8)
OBJECTS = [("eat", "apple", 2), ("eat", "bread", 2), ("use", "knife", 2), ("use", "bat", 2)]


def test_class_shares_split_an_occurrence_over_senses() -> None:
    assert class_shares(TOY["bat"]) == {"entity": 1.0, "tool": 0.5, "bat.n.01": 0.5, "animal": 0.5, "bat.n.02": 0.5}
    assert class_shares([]) == {}


def test_association_matches_hand_computation() -> None:
    slot = fit_slot(OBJECTS, toy_chains)
    # f(c): entity 8, food 4, apple 2, bread 2, tool 2 + 1 = 3, knife 2, bat.n.01 1, animal 1, bat.n.02 1.
    # eat: P(c|eat) = entity 1, food 1, apple .5, bread .5 against P(c) = 1, .5, .25, .25
    #   S(eat) = log 2 + .5 log 2 + .5 log 2 = 2 log 2;  A(eat, food) = log 2 / S = .5, A(eat, apple) = .25
    # All four below: float64 logs of ratios of binary fractions, summed and divided: a few ulps.
    assert slot.strength["eat"] == pytest.approx(2 * math.log(2))
    assert slot.row("eat") == pytest.approx({"entity": 0.0, "food": 0.5, "apple.n.01": 0.25, "bread.n.01": 0.25})
    # use: P(c|use) = tool .75, knife .5, bat.n.01 .25, animal .25, bat.n.02 .25 against .375, .25, .125 x 3
    #   every ratio is 2, so S(use) = (.75 + .5 + .25 * 3) log 2 = 2 log 2 and A = P(c|use) / 2.
    assert slot.strength["use"] == pytest.approx(2 * math.log(2))
    assert slot.row("use") == pytest.approx(
        {"entity": 0.0, "tool": 0.375, "knife.n.01": 0.25, "bat.n.01": 0.125, "animal": 0.125, "bat.n.02": 0.125}
    )


def test_plausibility_is_the_maximum_over_all_classes_of_all_senses() -> None:
    slot = fit_slot(OBJECTS, toy_chains)
    # Both: float64 associations, a few ulps (as above).
    assert slot.plausibility("eat", TOY["apple"]) == pytest.approx(0.5)  # at "food", not at "apple.n.01"
    assert slot.plausibility("use", TOY["bat"]) == pytest.approx(0.375)  # "tool", through the first sense
    assert slot.plausibility("eat", TOY["knife"]) == 0.0  # only "entity" is shared, and A(eat, entity) = 0
    assert slot.plausibility("fly", TOY["apple"]) == 0.0  # unseen verb
    assert slot.plausibility("eat", []) == 0.0  # noun outside the hierarchy


def test_association_can_be_negative_for_classes_a_verb_avoids() -> None:
    # eat apple 3, eat knife 1, use knife 4: P(tool) = 5/8 but P(tool|eat) = 1/4
    slot = fit_slot([("eat", "apple", 3), ("eat", "knife", 1), ("use", "knife", 4)], toy_chains)
    terms = {"food": 0.75 * math.log(0.75 / (3 / 8)), "apple.n.01": 0.75 * math.log(0.75 / (3 / 8))}
    terms |= {"tool": 0.25 * math.log(0.25 / (5 / 8)), "knife.n.01": 0.25 * math.log(0.25 / (5 / 8))}
    strength = sum(terms.values())
    # Both: the same float64 formula, its terms summed in another order: a few ulps.
    assert slot.strength["eat"] == pytest.approx(strength)
    assert slot.row("eat")["tool"] == pytest.approx(terms["tool"] / strength)
    assert slot.row("eat")["tool"] < 0
    assert slot.plausibility("eat", TOY["knife"]) == 0.0  # entity (0) beats the negative classes


def test_pairs_are_pooled_over_the_other_slot_and_nouns_outside_the_hierarchy_are_ignored() -> None:
    split = fit_slot([("eat", "apple", 1), ("eat", "apple", 1), ("eat", "rock", 5), *OBJECTS[1:]], toy_chains)
    pooled = fit_slot(OBJECTS, toy_chains)
    # Both: the same counts pooled from other rows, float64 logs and ratios: a few ulps.
    assert split.strength == pytest.approx(pooled.strength)
    assert all(split.row(verb) == pytest.approx(pooled.row(verb)) for verb in ("eat", "use"))


def test_a_verb_without_preference_has_zero_association() -> None:
    slot = fit_slot([("see", "apple", 1), ("see", "knife", 1)], toy_chains)  # the only verb follows the prior
    assert slot.strength["see"] == pytest.approx(0.0)  # float64: each ratio is 1 to an ulp, its log ~1e-16
    assert slot.plausibility("see", TOY["apple"]) == 0.0


def test_scorer_sums_the_subject_and_object_slots() -> None:
    counts = {Triple("cook", "eat", "apple"): 2, Triple("cook", "eat", "bread"): 2, Triple("bat", "use", "knife"): 2}
    counts[Triple("bat", "use", "bat")] = 2
    scorer = ResnikScorer.fit(counts, toy_chains)
    assert isinstance(scorer, TripleScorer)
    # subject slot: cook 4 (entity, animal, cook.n.01), bat 4 (half tool, half animal); N = 8
    #   P(c): entity 1, animal (4 + 2) / 8 = .75, cook .5, tool .25, bat.n.01 .25, bat.n.02 .25
    #   eat: P(c|eat) = entity 1, animal 1, cook 1: S = log(4/3) + log 2; A(eat, cook) = log 2 / S
    subject_eat = math.log(2) / (math.log(4 / 3) + math.log(2))
    scores = scorer.score([Triple("cook", "eat", "apple"), Triple("knife", "eat", "apple"), Triple("x", "fly", "y")])
    np.testing.assert_allclose(scores, [subject_eat + 0.5, 0.0 + 0.5, 0.0])  # float64 logs and ratios: a few ulps
    # float64 expit vs the written formula: an ulp
    np.testing.assert_allclose(scorer.to_probability(np.array([0.0, 1.0])), [0.5, 1 / (1 + math.exp(-1))])


def test_batched_scores_equal_the_definition_on_every_triple() -> None:
    # Both slots fitted, with a class a verb avoids (negative A), an unseen verb ("fly"), a noun whose own
    # class the training never saw ("pear") and nouns outside the hierarchy ("rock", "idea").
    chains = {**TOY, "pear": [["entity", "food", "pear.n.01"]], "rock": []}
    counts = {Triple("cook", "eat", "apple"): 3, Triple("bat", "eat", "knife"): 1, Triple("cook", "use", "knife"): 4}
    counts |= {Triple("bat", "use", "bat"): 2, Triple("cook", "see", "bread"): 1, Triple("knife", "see", "bat"): 1}
    scorer = ResnikScorer.fit(counts, lambda noun: chains.get(noun, []))

    def definition(slot, verb: str, noun: str) -> float:  # thesis eq. 2.10, absent classes at A = 0
        if verb not in slot.verbs or not chains.get(noun):
            return 0.0
        row = slot.row(verb)
        return max(row.get(name, 0.0) for chain in chains[noun] for name in chain)

    nouns, verbs = [*chains, "idea"], ["eat", "use", "see", "fly"]
    triples = [Triple(s, v, o) for s in nouns for v in verbs for o in nouns]
    expected = [definition(scorer.subject, t.verb, t.subject) + definition(scorer.object, t.verb, t.object)
                for t in triples]  # fmt: skip
    # Both exact in fact: the same stored associations, maxed and added in the same order (1e-12: an ulp of a sum).
    np.testing.assert_allclose(scorer.score(triples), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(scorer.score(triples[::-1]), expected[::-1], rtol=0, atol=1e-12)  # columns cached
    assert scorer.score([]).shape == (0,)
    assert min(expected) == 0.0 and max(expected) > 1.0
    assert scorer.object.row("eat")["tool"] < 0  # the avoided class is really in play


def test_held_out_score_equals_a_refit_without_the_triple() -> None:
    # The same toy data as above: every triple's held-out score is its score under a fit on the other counts.
    chains = {**TOY, "pear": [["entity", "food", "pear.n.01"]], "rock": []}
    counts = {Triple("cook", "eat", "apple"): 3, Triple("bat", "eat", "knife"): 1, Triple("cook", "use", "knife"): 4}
    counts |= {Triple("bat", "use", "bat"): 2, Triple("cook", "see", "bread"): 1, Triple("knife", "see", "bat"): 1}
    counts |= {Triple("cook", "eat", "bread"): 2, Triple("rock", "eat", "apple"): 1, Triple("cook", "use", "bat"): 1}
    sense_chains = lambda noun: chains.get(noun, [])  # noqa: E731
    scorer = ResnikScorer.fit(counts, sense_chains)
    unseen = [Triple("cook", "eat", "pear"), Triple("bat", "fly", "apple")]
    for triple in [*counts, *unseen]:
        others = {other: count for other, count in counts.items() if other != triple}
        expected = ResnikScorer.fit(others, sense_chains).score([triple])
        # float64: counts less the triple's shares vs counted without it, a few ulps of associations below 2
        np.testing.assert_allclose(scorer.held_out_score([triple]), expected, rtol=0, atol=1e-12, err_msg=str(triple))
    np.testing.assert_allclose(scorer.held_out_score(unseen), scorer.score(unseen))  # nothing to leave out: an ulp
    assert scorer.held_out_score([Triple("bat", "eat", "knife")])[0] < scorer.score([Triple("bat", "eat", "knife")])[0]


def test_resnik_is_calibrated_on_held_out_scores(tmp_path: Path) -> None:
    classes = {"animate": "cat child dog person student", "food": "apple bone bread fish milk", "thing": "ball door"}
    class_of = {noun: kind for kind, nouns in classes.items() for noun in nouns.split()} | {"book": "thing"}
    attested = "person eat apple,person eat bread,dog eat bone,cat eat fish,cat drink milk,child drink milk"
    attested += ",student read book,child read book,child kick ball,dog kick ball,person open door,child open door"
    negatives = "person eat door,dog eat book,cat eat ball,child eat book,cat drink door,child drink ball"
    negatives += ",student read apple,child read bone,child kick milk,dog kick bread,person open fish,child open milk"
    events = [(*a.split(), *n.split()) for a, n in zip(attested.split(","), negatives.split(","), strict=True)]
    pairs = tmp_path / "pairs.parquet"
    pd.DataFrame(events, columns=list(PAIR_COLUMNS)).to_parquet(pairs)
    counts = {Triple(*event.split()): 2 for event in attested.split(",")}
    scorer = ResnikScorer.fit(counts, lambda noun: [["entity", class_of[noun], noun]])
    triples, labels, _ = calibration_slice(pairs, len(events))

    fitted = fit_calibration(scorer, pairs, len(events))
    held_out = fit_platt(scorer.held_out_score(triples), labels, "held out")
    in_sample = fit_platt(scorer.score(triples), labels, "in sample")
    assert (fitted.slope, fitted.intercept) == (held_out.slope, held_out.intercept)  # the same scores, the same fit
    # Counted events score further above their negatives in sample (7.97 against 5.49): a fit there is steeper.
    assert in_sample.slope > 1.4 * fitted.slope
    assert fitted.fitted_on.endswith("each event left out of any counts it is scored from")


def test_resnik_spec_reads_a_triples_file_and_scores_with_wordnet(tmp_path: Path) -> None:
    path = tmp_path / "triples.tsv"
    path.write_text("subject\tverb\tobject\tcount\nperson\teat\tapple\t3\nperson\teat\tbread\t2\ndog\tchase\tcat\t4\n")
    scorer = build_scorer(f"resnik:{path}")
    scores = scorer.score([Triple("man", "eat", "pear"), Triple("man", "eat", "idea"), Triple("man", "fly", "pear")])
    assert scores[0] > scores[1] > 0.0  # a pear is food, as apples and bread are; an idea is not
    assert scores[2] == 0.0  # an unseen verb
    with pytest.raises(ResourceMissingError, match="no such triples file"):
        build_scorer(f"resnik:{tmp_path / 'missing.parquet'}")
