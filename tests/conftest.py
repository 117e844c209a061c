"""Shared fixtures: everything runs offline on the CPU; tiny random RoBERTa and BERT encoders, a tiny Llama
decoder, and a tiny causal and masked LM, as local folders."""

from pathlib import Path

import pytest
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (
    BertConfig,
    BertForMaskedLM,
    BertModel,
    GPT2Config,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaModel,
    PreTrainedTokenizerFast,
    RobertaConfig,
    RobertaModel,
)

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-examples",
        action="store_true",
        help="write the docs examples' actual outputs into their pages (tests/test_docs_examples.py)",
    )


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


WORDS = (
    "person dog cat chef child bird fish horse man woman student teacher farmer animal organism living thing "
    "food water cookie bone meat seed grass milk bread fruit apple door car house ball stone tree book "
    "eat drink bake chase ride read open throw carry see build hold breathe air gas helium dentist"
).split()

_ROLES = ("pad_token", "unk_token", "cls_token", "sep_token", "mask_token")
SPECIALS = {
    "roberta": dict(zip(_ROLES, ("<pad>", "<unk>", "<s>", "</s>", "<mask>"), strict=True)),
    "bert": dict(zip(_ROLES, ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"), strict=True)),
}


def _tokenizer(family: str) -> PreTrainedTokenizerFast:
    specials = SPECIALS[family]
    # RoBERTa keeps <s> at 0 and <pad> at 1 (its padding index); BERT keeps [PAD] at 0.
    order = ["cls_token", "pad_token", "sep_token", "unk_token", "mask_token"]
    if family == "bert":
        order = ["pad_token", "unk_token", "cls_token", "sep_token", "mask_token"]
    vocab = {specials[key]: index for index, key in enumerate(order)}
    vocab.update({word: len(vocab) + i for i, word in enumerate(WORDS)})
    backend = Tokenizer(models.WordLevel(vocab, unk_token=specials["unk_token"]))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    cls, sep = specials["cls_token"], specials["sep_token"]
    backend.post_processor = processors.TemplateProcessing(
        single=f"{cls} $A {sep}", special_tokens=[(cls, vocab[cls]), (sep, vocab[sep])]
    )
    return PreTrainedTokenizerFast(tokenizer_object=backend, **specials)


def build_backbone(folder: Path, family: str) -> Path:
    """Save a tiny random encoder of `family` (vocab ~70, hidden 32, 2 layers, 4 heads) with its tokenizer."""
    tokenizer = _tokenizer(family)
    torch.manual_seed(0)  # the same weights whichever test builds it first, so no test depends on the order
    size = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 64}
    if family == "roberta":
        config = RobertaConfig(vocab_size=len(tokenizer), max_position_embeddings=66, pad_token_id=1, **size)
        model = RobertaModel(config, add_pooling_layer=False)
    else:
        config = BertConfig(vocab_size=len(tokenizer), max_position_embeddings=64, pad_token_id=0, **size)
        model = BertModel(config, add_pooling_layer=False)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(folder)
    model.save_pretrained(folder)
    return folder


@pytest.fixture(scope="session", params=["roberta", "bert"])
def backbone(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build_backbone(tmp_path_factory.mktemp(request.param), request.param))


@pytest.fixture(scope="session")
def roberta_backbone(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build_backbone(tmp_path_factory.mktemp("roberta"), "roberta"))


@pytest.fixture(scope="session")
def bert_backbone(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build_backbone(tmp_path_factory.mktemp("bert"), "bert"))


def build_decoder(folder: Path) -> Path:
    """Save a tiny random Llama decoder (hidden 32, 3 blocks) with a word-level tokenizer that has no pad token."""
    end = "<|endoftext|>"
    vocab = {end: 0, **{word: i + 1 for i, word in enumerate(WORDS)}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token=end))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, eos_token=end, unk_token=end)
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(vocab), hidden_size=32, intermediate_size=37, num_hidden_layers=3, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=64, bos_token_id=0, eos_token_id=0,
    )  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(folder)
    LlamaModel(config).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def decoder_backbone(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build_decoder(tmp_path_factory.mktemp("llama")))


LM_WORDS = "the The a dog cat person bone air helium dentist eat breathe chase .".split()


def _word_tokenizer(specials: list[str], template: str | None) -> Tokenizer:
    vocab = {word: index for index, word in enumerate([*specials, *LM_WORDS])}
    backend = Tokenizer(models.WordLevel(vocab, unk_token=specials[0]))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    if template:
        backend.post_processor = processors.TemplateProcessing(
            single=template, special_tokens=[(name, vocab[name]) for name in ("[CLS]", "[SEP]")]
        )
    return backend


@pytest.fixture(scope="session")
def lm_folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A tiny random causal LM and masked LM, saved as local folders a SPEC can name."""
    root = tmp_path_factory.mktemp("lms")
    torch.manual_seed(0)
    end = "<|endoftext|>"
    causal = PreTrainedTokenizerFast(tokenizer_object=_word_tokenizer([end], None), bos_token=end, eos_token=end)
    GPT2LMHeadModel(GPT2Config(vocab_size=len(causal), n_embd=32, n_layer=2, n_head=4, n_positions=64)).save_pretrained(
        root / "causal"
    )
    causal.save_pretrained(root / "causal")
    specials = ["[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"]
    masked = PreTrainedTokenizerFast(
        tokenizer_object=_word_tokenizer(specials, "[CLS] $A [SEP]"),
        **dict(zip(("unk_token", "pad_token", "cls_token", "sep_token", "mask_token"), specials, strict=True)),
    )
    config = BertConfig(
        vocab_size=len(masked),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=37,
        max_position_embeddings=64,
        pad_token_id=1,
    )
    BertForMaskedLM(config).save_pretrained(root / "masked")
    masked.save_pretrained(root / "masked")
    return {"causal": root / "causal", "masked": root / "masked"}
