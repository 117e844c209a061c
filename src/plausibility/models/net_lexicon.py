"""A net's lexicon: the training nouns, min depth and WSD its grids are laid out in, attached where it reads senses."""

from collections.abc import Sequence

from torch import nn

from plausibility.lexicon.training_lexicon import TrainingLexicon


def net_lexicon(
    net: nn.Module, vocabulary: Sequence[str] | None, min_depth: int = 4, wsd: str = "mfs"
) -> TrainingLexicon:
    """The lexicon of a net's training nouns, attached to a net that reads senses (ConceptInject).

    Attach before loading trained weights: ConceptInject's synset embeddings are sized from the lexicon.
    """
    lexicon = TrainingLexicon(tuple(vocabulary) if vocabulary else None, min_depth=min_depth, wsd=wsd)
    if hasattr(net, "attach_lexicon"):
        net.attach_lexicon(lexicon)
    return lexicon
