"""ConceptInject: the classifier plus hypernym-chain tokens at their argument's position (thesis 6.4.2)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch
from torch import nn

from plausibility.errors import PlausibilityError
from plausibility.models.components.classifier import TripleClassifier
from plausibility.resources.encoder import DEFAULT_ENCODER
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction
    from plausibility.lexicon.hierarchy import Concept
    from plausibility.lexicon.training_lexicon import TrainingLexicon

# (subject chain, object chain), each root first, as `Abstractor.chains` returns them.
Chains = tuple[Sequence["Concept"], Sequence["Concept"]]


class YPositionEmbedding(nn.Module):
    """The second position table, indexed by a token's depth in the hierarchy.

    Row 0 (ordinary tokens) is fixed at zero, a choice beside the thesis's random table: it leaves the
    pretrained input of ordinary tokens untouched at the start of fine-tuning.
    """

    def __init__(self, max_depth: int, hidden_size: int, init_std: float) -> None:
        super().__init__()
        self.table = nn.Embedding(max_depth + 1, hidden_size, padding_idx=0)
        nn.init.normal_(self.table.weight, std=init_std)
        with torch.no_grad():
            self.table.weight[0].zero_()

    def forward(self, depths: torch.Tensor) -> torch.Tensor:
        return self.table(depths)  # (batch, length, hidden)


class ConceptInjectClassifier(TripleClassifier):
    """The classifier whose input also holds the synset tokens of the subject's and object's chains.

    A synset token takes the x-position (ordinary position id) of its argument's first sub-token and a
    y-position equal to its depth; token, x- and y-position embeddings are summed. Synset tokens extend
    the vocabulary: their ids start after the encoder's own embedding rows, and they are appended after
    the event's tokens (order is irrelevant to the encoder beyond the position ids).
    """

    def __init__(self, backbone: str = DEFAULT_ENCODER, dropout: float = 0.1, max_depth: int = 24) -> None:
        """Args:
        backbone: a Hugging Face id or local folder of an encoder; the default is the offline MiniLM.
        dropout: dropout on the first-token vector before the linear layer.
        max_depth: the deepest synset the y-position table can hold (WordNet 3.0 nouns reach 20).
        """
        super().__init__(backbone=backbone, dropout=dropout)
        config = self.encoder.config
        self.max_depth = max_depth
        self.y_positions = YPositionEmbedding(max_depth, config.hidden_size, config.initializer_range)
        self.synset_offset = self.encoder.get_input_embeddings().num_embeddings
        self.synset_embeddings = nn.Embedding(0, config.hidden_size)
        self.synset_index: dict[str, int] = {}
        self.lexicon: TrainingLexicon | None = None
        # RoBERTa-family position ids start after the padding index, whose row is reserved for padding.
        padding_idx = getattr(self.encoder.embeddings, "padding_idx", None)
        self.first_position = 0 if padding_idx is None else padding_idx + 1
        self.padding_position = 0 if padding_idx is None else padding_idx

    def attach_lexicon(self, lexicon: "TrainingLexicon") -> None:
        """Use `lexicon` for chains and add one token per synset of its inventory."""
        self.lexicon = lexicon
        self.add_synset_tokens(lexicon.concepts())

    def add_synset_tokens(self, concepts: Sequence["Concept"]) -> None:
        """One trainable embedding per synset, initialised as the mean embedding of its lemma's sub-tokens."""
        words = self.encoder.get_input_embeddings().weight.detach()
        rows = []
        for concept in concepts:
            ids = self.tokenizer(concept.text, add_special_tokens=False)["input_ids"] or [self.tokenizer.unk_token_id]
            rows.append(words[ids].mean(dim=0))
        weight = torch.stack(rows) if rows else words.new_zeros(0, words.shape[1])
        self.synset_embeddings = nn.Embedding.from_pretrained(weight.clone(), freeze=False)
        self.synset_index = {concept.synset: index for index, concept in enumerate(concepts)}

    def featurize(self, triples: Sequence[Triple], pad_to: int | None = None) -> dict[str, torch.Tensor]:
        """Inputs of each event with the chains its attached lexicon gives (`pad_to` is not supported)."""
        if self.lexicon is None:
            raise PlausibilityError("ConceptInject has no lexicon; attach one with `attach_lexicon` before scoring")
        if pad_to is not None:
            raise PlausibilityError("ConceptInject pads to the longest event; its chains have no fixed length")
        return self.featurize_chains(triples, [self.lexicon.abstractor.chains(triple) for triple in triples])

    def featurize_abstractions(self, abstractions: Sequence["Abstraction"]) -> dict[str, torch.Tensor]:
        """Inputs of grid cells with the chains of their own senses: prefixes of their event's chains."""
        if self.lexicon is None:
            raise PlausibilityError("ConceptInject has no lexicon; attach one with `attach_lexicon` before scoring")
        chains = self.lexicon.abstractor.sense_chains
        return self.featurize_chains(
            [cell.triple for cell in abstractions],
            [(chains(cell.subject.synset), chains(cell.object.synset)) for cell in abstractions],
        )

    def featurize_chains(self, triples: Sequence[Triple], chains: Sequence[Chains]) -> dict[str, torch.Tensor]:
        """Token ids, attention mask, x-positions and depths for events with explicit chains.

        Synsets outside the inventory (never seen in training) are left out.
        """
        texts = [str(triple) for triple in triples]
        encoded = self.tokenizer(texts, return_offsets_mapping=True)
        rows = []
        for triple, ids, offsets, (subject_chain, object_chain) in zip(
            triples, encoded["input_ids"], encoded["offset_mapping"], chains, strict=True
        ):
            positions = [self.first_position + i for i in range(len(ids))]
            depths = [0] * len(ids)
            ids = list(ids)
            object_start = len(triple.subject) + len(triple.verb) + 2
            for chain, start in ((subject_chain, 0), (object_chain, object_start)):
                # Special tokens have empty (0, 0) offsets; some tokenizers count the leading space in a word.
                first = next(i for i, (_, end) in enumerate(offsets) if end > start)
                for concept in chain:
                    if concept.synset not in self.synset_index:
                        continue
                    if concept.depth > self.max_depth:
                        raise PlausibilityError(
                            f"{concept.synset} has depth {concept.depth} > max_depth {self.max_depth}; raise max_depth"
                        )
                    ids.append(self.synset_offset + self.synset_index[concept.synset])
                    positions.append(positions[first])
                    depths.append(concept.depth)
            rows.append((ids, positions, depths))
        length = max(len(ids) for ids, _, _ in rows)
        pad = self.tokenizer.pad_token_id

        def padded(values: list[int], fill: int) -> list[int]:
            return values + [fill] * (length - len(values))

        return {
            "input_ids": torch.tensor([padded(ids, pad) for ids, _, _ in rows]),
            "attention_mask": torch.tensor([padded([1] * len(ids), 0) for ids, _, _ in rows]),
            "position_ids": torch.tensor([padded(positions, self.padding_position) for _, positions, _ in rows]),
            "depths": torch.tensor([padded(depths, 0) for _, _, depths in rows]),
        }

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor, depths: torch.Tensor
    ) -> torch.Tensor:
        """One logit per event, shape (batch,)."""
        is_synset = input_ids >= self.synset_offset  # (batch, length)
        words = self.encoder.get_input_embeddings()(input_ids.masked_fill(is_synset, self.tokenizer.pad_token_id))
        if self.synset_embeddings.num_embeddings:
            synsets = self.synset_embeddings((input_ids - self.synset_offset).clamp(min=0))
            words = torch.where(is_synset.unsqueeze(-1), synsets, words)  # (batch, length, hidden)
        embeds = words + self.y_positions(depths)
        hidden = self.encoder(
            inputs_embeds=embeds, attention_mask=attention_mask, position_ids=position_ids
        ).last_hidden_state
        return self.head(self.dropout(hidden[:, 0])).squeeze(-1)  # (batch,)
