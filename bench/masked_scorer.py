"""Benchmark: masked-LM scoring (pseudo-log-likelihood), ours against minicons' MaskedLMScorer, and word-l2r
against the original PLL, on BLiMP sentences.

No masked LM with a trained head ships offline, so the model is the offline MiniLM encoder (BERT, 22M) under
a masked-LM head initialised at random: its scores mean nothing, but it runs exactly as a trained one of its
size would, and both tools score the same model object (give `--lm` to use a real one where a hub is
reachable). The sentences are the good and bad sentence of the first `--pairs` pairs of every BLiMP
paradigm. Prints the largest difference of the sentence scores between the tools for each metric (ours
`word-l2r` against minicons' `within_word_l2r`, ours `original` against theirs), each run's throughput
from interleaved runs, and the ratios: ours/minicons per metric, and word-l2r/original for ours.

    .venv/bin/python bench/masked_scorer.py [--lm NAME_OR_PATH] [--batch-size 64] [--texts-per-call 4]
        [--repeats 3] [--pairs 4]
"""

import argparse
import copy
import gzip
import json
import sys
from itertools import islice

import numpy as np
import torch
from compare import Timings
from minicons.scorer import MaskedLMScorer as MiniconsMaskedLMScorer
from transformers import AutoTokenizer, BertForMaskedLM
from transformers.utils import logging as transformers_logging

from plausibility.lm.masked import MaskedLMScorer
from plausibility.resources.encoder import encoder_path
from plausibility.resources.paths import data_dir


def blimp_sentences(pairs: int) -> list[str]:
    """The good then the bad sentence of the first `pairs` pairs of every paradigm."""
    sentences = []
    for path in sorted((data_dir() / "minimal_pairs" / "blimp").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for row in map(json.loads, islice(lines, pairs)):
                sentences += [row["sentence_good"], row["sentence_bad"]]
    return sentences


def models(args: argparse.Namespace) -> tuple[torch.nn.Module, object]:
    """The masked LM and its tokenizer: `--lm`, or the offline MiniLM under a random masked-LM head."""
    if args.lm:
        from plausibility.lm.loading import load_lm

        tokenizer, model = load_lm(args.lm, "masked")
        return model, tokenizer
    transformers_logging.set_verbosity_error()  # the head's weights are missing on purpose
    path = encoder_path()
    torch.manual_seed(0)
    return BertForMaskedLM.from_pretrained(path).eval(), AutoTokenizer.from_pretrained(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lm", help="a masked LM id or folder (default: offline MiniLM, random head)")
    parser.add_argument("--batch-size", type=int, default=64, help="our sequences per forward pass")
    parser.add_argument("--texts-per-call", type=int, default=4, help="sentences per minicons call (one pass)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timed runs of each")
    parser.add_argument("--pairs", type=int, default=4, help="the first N pairs of each of the 67 paradigms")
    args = parser.parse_args()

    torch.set_num_threads(torch.get_num_threads())
    model, tokenizer = models(args)
    sentences = blimp_sentences(args.pairs)
    ours = {
        pll: MaskedLMScorer.from_model(model, tokenizer, args.batch_size, pll=pll) for pll in ("word-l2r", "original")
    }
    theirs_tokenizer = copy.deepcopy(tokenizer)
    # minicons' masked scorer still calls `batch_encode_plus`, which transformers 5 folded into calling the tokenizer.
    theirs_tokenizer.batch_encode_plus = theirs_tokenizer.__call__
    theirs = MiniconsMaskedLMScorer(model, device="cpu", tokenizer=theirs_tokenizer)
    names = {"word-l2r": "within_word_l2r", "original": "original"}

    def run_ours(pll: str) -> np.ndarray:
        return ours[pll].text_logprob(sentences)

    def run_theirs(pll: str) -> np.ndarray:
        scores: list[float] = []
        for begin in range(0, len(sentences), args.texts_per_call):
            chunk = sentences[begin : begin + args.texts_per_call]
            scores += theirs.sequence_score(chunk, reduction=lambda x: x.sum(0).item(), PLL_metric=names[pll])
        return np.array(scores)

    timings = {(tool, pll): Timings() for tool in ("ours", "minicons") for pll in names}
    for repeat in range(args.repeats):
        for pll in names:
            timings["ours", pll].run(lambda pll=pll: run_ours(pll))
            timings["minicons", pll].run(lambda pll=pll: run_theirs(pll))
        line = ", ".join(f"{tool} {pll} {t.wall[-1]:.2f} s" for (tool, pll), t in timings.items())
        print(f"run {repeat + 1}: {line}", file=sys.stderr, flush=True)

    n = len(sentences)
    print(f"model: {args.lm or 'offline MiniLM (BERT, 22M) with a random masked-LM head'}, CPU, "
          f"{torch.get_num_threads()} threads")  # fmt: skip
    print(f"sentences: {n} (good and bad of the first {args.pairs} pairs of each BLiMP paradigm); ours "
          f"{args.batch_size} sequences per pass, minicons {args.texts_per_call} sentences per call")  # fmt: skip
    for pll in names:
        gap = np.abs(timings["ours", pll].scores - timings["minicons", pll].scores).max()
        print(f"max |ours {pll} - minicons {names[pll]}| sentence PLL: {gap:.2e}")
    for (tool, pll), t in timings.items():
        print(f"{tool + ' ' + pll + ':':22}{min(t.wall):8.2f} s wall ({n / min(t.wall):7.1f} sentences/s)")
    for pll in names:
        ratio = min(timings["minicons", pll].wall) / min(timings["ours", pll].wall)
        print(f"throughput ratio ours/minicons, {pll}: {ratio:.2f}x")
    ratio = min(timings["ours", "original"].wall) / min(timings["ours", "word-l2r"].wall)
    print(f"throughput ratio word-l2r/original, ours: {ratio:.2f}x")


if __name__ == "__main__":
    main()
