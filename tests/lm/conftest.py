"""Tiny random causal and masked LMs with small tokenizers trained on a few sentences: offline and fast."""

import pytest
import torch
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from transformers import (
    GPT2Config,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    RobertaConfig,
    RobertaForMaskedLM,
)

from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.masked import MaskedLMScorer

SENTENCES = [
    "John owns a dog but Mark doesn't own a dog. The dog is very cute.",
    "John doesn't own a dog and Mark doesn't own a dog either. The dogs are very cute.",
    "The person breathes the air. The cat catches the mouse. It's not a big deal.",
    "A bird flies over the house and the children watch the bird.",
]
END = "<|endoftext|>"
ROBERTA_SPECIAL = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]


def byte_level_bpe(special: list[str], vocab_size: int) -> Tokenizer:
    """A byte-level BPE like GPT-2's: a word's token carries the space before it (" dog")."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=special, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tokenizer.train_from_iterator(SENTENCES * 5, trainer)
    return tokenizer


@pytest.fixture(scope="session")
def causal_tokenizer() -> PreTrainedTokenizerFast:
    return PreTrainedTokenizerFast(tokenizer_object=byte_level_bpe([END], 320), bos_token=END, eos_token=END)


@pytest.fixture(scope="session")
def masked_tokenizer() -> PreTrainedTokenizerFast:
    tokenizer = byte_level_bpe(ROBERTA_SPECIAL, 320)
    tokenizer.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0), trim_offsets=False)
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
        mask_token="<mask>",
    )


@pytest.fixture(scope="session")
def straddling_tokenizer() -> PreTrainedTokenizerFast:
    """A word-level tokenizer (spaces are tokens) whose token ". The" spans a full stop, a space and a word."""
    vocabulary = [END, "John", "owns", "a", "dog", ". The", ".", "is", "cute", " "]
    tokenizer = Tokenizer(models.WordLevel({word: i for i, word in enumerate(vocabulary)}, unk_token=END))
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex(r"\. \w+|\w+|[^\w\s]"), behavior="isolated")
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token=END, eos_token=END)


def tiny_causal_lm(architecture: str, vocab_size: int) -> torch.nn.Module:
    torch.manual_seed(0)
    if architecture == "gpt2":
        config = GPT2Config(
            vocab_size=vocab_size, n_embd=32, n_layer=2, n_head=4, n_positions=128, bos_token_id=0, eos_token_id=0
        )
        return GPT2LMHeadModel(config).eval()
    config = LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=32,
        intermediate_size=37,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        bos_token_id=0,
        eos_token_id=0,
        pad_token_id=0,
    )
    return LlamaForCausalLM(config).eval()


@pytest.fixture(scope="session", params=["gpt2", "llama"])
def causal_model(request: pytest.FixtureRequest, causal_tokenizer: PreTrainedTokenizerFast) -> torch.nn.Module:
    return tiny_causal_lm(request.param, len(causal_tokenizer))


@pytest.fixture
def causal_scorer(causal_model: torch.nn.Module, causal_tokenizer: PreTrainedTokenizerFast) -> CausalLMScorer:
    return CausalLMScorer.from_model(causal_model, causal_tokenizer, batch_size=4)


@pytest.fixture(scope="session")
def masked_model(masked_tokenizer: PreTrainedTokenizerFast) -> RobertaForMaskedLM:
    torch.manual_seed(0)
    config = RobertaConfig(
        vocab_size=len(masked_tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=37,
        max_position_embeddings=130,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
    )
    return RobertaForMaskedLM(config).eval()


@pytest.fixture
def masked_scorer(masked_model: RobertaForMaskedLM, masked_tokenizer: PreTrainedTokenizerFast) -> MaskedLMScorer:
    return MaskedLMScorer.from_model(masked_model, masked_tokenizer, batch_size=4)


@pytest.fixture
def original_pll_scorer(masked_model: RobertaForMaskedLM, masked_tokenizer: PreTrainedTokenizerFast) -> MaskedLMScorer:
    """Salazar et al.'s PLL: each token masked alone."""
    return MaskedLMScorer.from_model(masked_model, masked_tokenizer, batch_size=4, pll="original")


@pytest.fixture
def straddling_scorer(straddling_tokenizer: PreTrainedTokenizerFast) -> CausalLMScorer:
    return CausalLMScorer.from_model(tiny_causal_lm("gpt2", len(straddling_tokenizer)), straddling_tokenizer)
