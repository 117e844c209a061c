"""The nets on tiny random RoBERTa and BERT encoders and a Llama decoder: gradients, ConceptInject's input,
pooling, frozen blocks, batched scoring."""

import re

import pytest
import torch

from plausibility.errors import DataFormatError, PlausibilityError, UnknownNameError
from plausibility.lexicon.hierarchy import Concept
from plausibility.models.components.classifier import TripleClassifier
from plausibility.models.components.concept_inject import ConceptInjectClassifier
from plausibility.scorers.net import NetScorer
from plausibility.triple import Triple

EVENTS = [Triple("dog", "eat", "bone"), Triple("person", "breathe", "air"), Triple("chef", "bake", "cookie")]
ANIMAL = Concept("animal.n.01", "animal", 7)
DOG = Concept("dog.n.01", "dog", 9)
BONE = Concept("bone.n.01", "bone", 9)
LIVING_THING = Concept("living_thing.n.01", "living thing", 4)
UNSEEN = Concept("organism.n.01", "organism", 5)


def _vocab_id(net: TripleClassifier, word: str) -> int:
    return net.tokenizer.convert_tokens_to_ids(word)


@pytest.mark.parametrize("net_class", [TripleClassifier, ConceptInjectClassifier])
def test_forward_and_backward(backbone: str, net_class: type[TripleClassifier]) -> None:
    net = net_class(backbone=backbone)
    if isinstance(net, ConceptInjectClassifier):
        net.add_synset_tokens([ANIMAL, DOG, BONE])
        features = net.featurize_chains(EVENTS, [((ANIMAL, DOG), (BONE,)), ((), ()), ((), ())])
    else:
        features = net.featurize(EVENTS)
    logits = net(**features)
    assert logits.shape == (3,)
    logits.sum().backward()
    assert net.head.weight.grad is not None and net.head.weight.grad.abs().sum() > 0
    assert net.encoder.get_input_embeddings().weight.grad.abs().sum() > 0
    if isinstance(net, ConceptInjectClassifier):
        assert net.synset_embeddings.weight.grad[:3].abs().sum(dim=1).gt(0).all()


def test_concept_inject_input_on_a_hand_built_roberta_example(roberta_backbone: str) -> None:
    net = ConceptInjectClassifier(backbone=roberta_backbone, max_depth=12)
    net.add_synset_tokens([ANIMAL, DOG, BONE, LIVING_THING])
    features = net.featurize_chains(
        [Triple("dog", "eat", "bone"), Triple("person", "breathe", "air")],
        [((ANIMAL, UNSEEN, DOG), (BONE,)), ((), ())],
    )
    word = lambda w: _vocab_id(net, w)  # noqa: E731
    synset = net.synset_offset  # synset tokens extend the vocabulary after the encoder's own rows
    # <s> dog eat bone </s> | animal dog (at dog's x-position) | bone (at bone's); organism is not in the inventory
    assert features["input_ids"].tolist() == [
        [0, word("dog"), word("eat"), word("bone"), 2, synset + 0, synset + 1, synset + 2],
        [0, word("person"), word("breathe"), word("air"), 2, 1, 1, 1],
    ]
    # RoBERTa's positions start after its padding index (1); padding takes the padding index itself.
    assert features["position_ids"].tolist() == [[2, 3, 4, 5, 6, 3, 3, 5], [2, 3, 4, 5, 6, 1, 1, 1]]
    assert features["depths"].tolist() == [[0, 0, 0, 0, 0, 7, 9, 9], [0, 0, 0, 0, 0, 0, 0, 0]]
    assert features["attention_mask"].tolist() == [[1] * 8, [1] * 5 + [0] * 3]


def test_concept_inject_positions_on_bert_start_at_zero(bert_backbone: str) -> None:
    net = ConceptInjectClassifier(backbone=bert_backbone)
    net.add_synset_tokens([BONE])
    features = net.featurize_chains([Triple("dog", "eat", "bone")], [((), (BONE,))])
    assert features["position_ids"].tolist() == [[0, 1, 2, 3, 4, 3]]
    assert features["depths"].tolist() == [[0, 0, 0, 0, 0, 9]]


def test_synset_embeddings_start_as_the_mean_of_their_lemma_sub_tokens(roberta_backbone: str) -> None:
    net = ConceptInjectClassifier(backbone=roberta_backbone)
    net.add_synset_tokens([ANIMAL, LIVING_THING])
    words = net.encoder.get_input_embeddings().weight
    expected = (words[_vocab_id(net, "living")] + words[_vocab_id(net, "thing")]) / 2
    torch.testing.assert_close(net.synset_embeddings.weight[1], expected)  # float32 mean of two rows: an ulp at most
    torch.testing.assert_close(net.synset_embeddings.weight[0], words[_vocab_id(net, "animal")])  # exact: one row
    assert net.synset_index == {"animal.n.01": 0, "living_thing.n.01": 1}
    assert net.y_positions.table.weight[0].abs().sum() == 0  # ordinary tokens get no y-term


def test_concept_inject_without_chains_equals_the_plain_classifier(backbone: str) -> None:
    # Explicit x-positions and the zero y-row must reproduce the encoder's own embedding path exactly.
    net = ConceptInjectClassifier(backbone=backbone).eval()
    features = net.featurize_chains(EVENTS, [((), ())] * len(EVENTS))
    plain = TripleClassifier.featurize(net, EVENTS)
    torch.testing.assert_close(features["input_ids"], plain["input_ids"])  # exact: integer ids
    with torch.no_grad():
        # the same float32 ops (a zero row added): equal, within assert_close's float32 default (rtol 1.3e-6)
        torch.testing.assert_close(net(**features), TripleClassifier.forward(net, **plain))


def test_concept_inject_rejects_a_chain_deeper_than_its_table(roberta_backbone: str) -> None:
    net = ConceptInjectClassifier(backbone=roberta_backbone, max_depth=8)
    net.add_synset_tokens([DOG])
    with pytest.raises(PlausibilityError, match=r"dog.n.01 has depth 9 > max_depth 8; raise max_depth"):
        net.featurize_chains([Triple("dog", "eat", "bone")], [((DOG,), ())])


def test_net_scorer_batched_equals_unbatched(backbone: str) -> None:
    scorer = NetScorer(TripleClassifier(backbone=backbone), batch_size=2)
    together = scorer.score(EVENTS)
    alone = [NetScorer(scorer.net, batch_size=1).score([event])[0] for event in EVENTS]
    assert together.tolist() == pytest.approx(alone, abs=1e-5)  # padded or not: a float32 logit moves a few ulps
    # float64 expit vs the written formula in torch: an ulp or two
    assert scorer.to_probability(together) == pytest.approx(1 / (1 + torch.exp(-torch.tensor(together))).numpy())


def test_a_decoder_is_read_at_each_events_last_token(decoder_backbone: str) -> None:
    net = TripleClassifier(backbone=decoder_backbone, pooling="last").eval()
    assert net.tokenizer.pad_token == "<|endoftext|>"  # the tokenizer had none
    events = [Triple("dog", "eat", "bone"), Triple("living thing", "breathe", "air")]  # 3 and 4 tokens
    features = net.featurize(events)
    assert features["attention_mask"].sum(dim=1).tolist() == [3, 4]
    hidden = net.encoder(**features).last_hidden_state
    assert torch.equal(net.pooled(hidden, features["attention_mask"]), torch.stack([hidden[0, 2], hidden[1, 3]]))
    # padding after the shorter event changes nothing: batched equals unbatched
    scorer = NetScorer(net, batch_size=2)
    alone = [NetScorer(net, batch_size=1).score([event])[0] for event in events]
    assert scorer.score(events).tolist() == pytest.approx(alone, abs=1e-5)  # float32 logits: a few ulps apart


def test_mean_pooling_averages_each_events_real_tokens_only(bert_backbone: str) -> None:
    net = TripleClassifier(backbone=bert_backbone, pooling="mean").eval()
    events = [Triple("dog", "eat", "bone"), Triple("living thing", "breathe", "air")]
    features = net.featurize(events)
    lengths = features["attention_mask"].sum(dim=1).tolist()
    assert lengths[0] < lengths[1]  # the first event is padded
    hidden = net.encoder(**features).last_hidden_state
    expected = torch.stack([hidden[row, :length].mean(dim=0) for row, length in enumerate(lengths)])
    # a masked float32 sum over the length vs torch's mean: a few ulps, within assert_close's float32 default
    torch.testing.assert_close(net.pooled(hidden, features["attention_mask"]), expected)
    scorer = NetScorer(net, batch_size=2)
    alone = [NetScorer(net, batch_size=1).score([event])[0] for event in events]
    assert scorer.score(events).tolist() == pytest.approx(alone, abs=1e-5)  # padded or not: float32, a few ulps


def test_trainable_layers_freezes_the_embeddings_and_the_lower_blocks(decoder_backbone: str) -> None:
    net = TripleClassifier(backbone=decoder_backbone, pooling="last", trainable_layers=1)
    net(**net.featurize(EVENTS)).sum().backward()
    blocks = net.encoder.layers
    assert net.encoder.embed_tokens.weight.grad is None and not net.encoder.embed_tokens.weight.requires_grad
    assert all(p.grad is None for block in blocks[:2] for p in block.parameters())
    assert all(p.grad is not None and p.requires_grad for p in blocks[2].parameters())
    assert net.head.weight.grad is not None and net.encoder.norm.weight.grad is not None


def test_trainable_layers_on_a_bert_encoder_counts_its_encoder_blocks(bert_backbone: str) -> None:
    net = TripleClassifier(backbone=bert_backbone, trainable_layers=2)  # all of its 2 blocks
    assert not net.encoder.get_input_embeddings().weight.requires_grad
    assert all(p.requires_grad for p in net.encoder.encoder.layer.parameters())


def test_bad_pooling_and_layer_counts_are_one_line_errors(decoder_backbone: str) -> None:
    with pytest.raises(UnknownNameError, match="^unknown pooling 'max'; known: first, last, mean$"):
        TripleClassifier(backbone=decoder_backbone, pooling="max")  # type: ignore[arg-type]
    message = f"trainable_layers: {decoder_backbone} has 3 blocks, got 4; give 1 to 3 or null"
    with pytest.raises(DataFormatError, match=f"^{re.escape(message)}$"):
        TripleClassifier(backbone=decoder_backbone, trainable_layers=4)


def test_concept_inject_reads_a_grid_cell_through_its_own_senses(roberta_backbone: str) -> None:
    from tests.scorers.test_concept_max_grids import hand_hierarchy

    from plausibility.lexicon.training_lexicon import TrainingLexicon
    from plausibility.scorers.net import SenseNetScorer, trained_scorer

    hierarchy = hand_hierarchy()  # "animal" alone means beast.n.09; in dog's chain it is animal.n.01
    lexicon = TrainingLexicon.over(hierarchy, origin="hand-built")
    net = ConceptInjectClassifier(backbone=roberta_backbone)
    net.lexicon = lexicon
    net.add_synset_tokens([hierarchy.concept(name) for name in hierarchy.table.synsets])
    scorer = trained_scorer(net, lexicon, abstractions=0, batch_size=256)
    assert isinstance(scorer, SenseNetScorer)
    cell = lexicon.abstractor.grid(Triple("dog", "eat", "bone")).cells()[11]  # animal eat bone
    assert (cell.subject.synset, str(cell)) == ("animal.n.01", "animal eat bone")
    chains = [(hierarchy.chain("animal.n.01"), hierarchy.chain("bone.n.01"))]
    with torch.inference_mode():
        expected = net.eval()(**net.featurize_chains([cell.triple], chains)).item()
        guessed = net(**net.featurize([cell.triple])).item()  # the words alone: beast.n.09's chain
    # the same one-cell batch through the same net: equal (a logit near 1.1 has ulp 2.4e-7)
    assert scorer.score_abstractions([cell])[0] == pytest.approx(expected, abs=1e-6)
    assert abs(expected - guessed) > 1e-6  # the other chain moves the logit by ~1e-3, rounding by an ulp
