"""Readers that turn a suite's data file into items; a suite's YAML names one and gives its options."""

import gzip
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from plausibility.checksums import file_sha256
from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.minimal_pairs.items import Item, Text

LINE_KEY = "@line"  # in `item_key`: the 1-based line number, for files whose rows carry no id


def read_jsonl(path: Path) -> Iterator[tuple[int, dict]]:
    """Rows of a JSON-lines file (gzip-compressed when the name ends in .gz) with their 1-based line numbers."""
    if not path.is_file():
        raise DataFormatError(f"{path}: no such file; give the path of a JSON-lines data file")
    opener = gzip.open if path.suffix == ".gz" else open
    seen = False
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataFormatError(f"{path} line {number}: not valid JSON ({error.msg}); fix that line") from None
            if not isinstance(row, dict):
                raise DataFormatError(f"{path} line {number}: expected a JSON object per line")
            seen = True
            yield number, row
    if not seen:
        raise DataFormatError(f"{path}: the file is empty; give a JSON-lines file with one item per line")


def field(row: Mapping, name: str, path: Path, number: int) -> str:
    """`row[name]` as a string; a missing field fails naming the file, the line and the fields present."""
    if name == LINE_KEY:
        return str(number)
    if name not in row:
        raise DataFormatError(
            f"{path} line {number}: missing field {name!r} (fields present: {', '.join(sorted(row))}); "
            "fix the file or the suite's field names"
        )
    return str(row[name])


def data_files(path: Path) -> list[Path]:
    """The data files of a suite: `path` itself, or every JSON-lines file (`*.jsonl`, `*.jsonl.gz`) of a
    folder in name order (BLiMP ships one file per paradigm)."""
    if not path.is_dir():
        return [path]
    files = sorted(file for file in path.iterdir() if file.name.endswith((".jsonl", ".jsonl.gz")))
    if not files:
        raise DataFormatError(f"{path}: the folder holds no .jsonl or .jsonl.gz file; give JSON-lines data files")
    return files


def data_sha256(path: Path) -> str:
    """sha256 of a data file; of a folder, that of its `sha256sum` listing (`HASH  NAME` lines of
    `data_files`), so it changes when any file the suite reads does."""
    if not path.is_dir():
        return file_sha256(path)
    listing = "".join(f"{file_sha256(file)}  {file.name}\n" for file in data_files(path))
    return hashlib.sha256(listing.encode()).hexdigest()


def check_unique(items: Sequence[Item], path: Path) -> list[Item]:
    """`items` as a list, after checking that no text id occurs twice (ids key the scores files)."""
    ids: set[str] = set()
    for item in items:
        for text in item.roles.values():
            if text.id in ids:
                raise DataFormatError(f"{path}: text id {text.id!r} occurs twice; ids must be unique")
            ids.add(text.id)
    return list(items)


def lieder(
    path: Path,
    *,
    contexts: Mapping[str, str],
    families: Mapping[str, str],
    continuations: Mapping[str, str],
    id_field: str = "id",
    text_field: str = "sent",
) -> list[Item]:
    """LIEDER stimuli: ids `{n}_{noun}_{first}_{second}_{continuation}`, texts `context. continuation`.

    `contexts` maps each conjunct word to its context symbol (`affirmative` -> `pos`, `two` -> `two`),
    `families` maps a conjunct word to its predicate family, `continuations` maps `sref` etc. to `sg`/`pl`.
    Roles are `{continuation}|{first}_{second}`, e.g. `sg|pos_neg`. The context is the first sentence.
    """
    roles: dict[tuple[str, str], dict[str, Text]] = {}
    for number, row in read_jsonl(path):
        text_id, sentence = field(row, id_field, path, number), field(row, text_field, path, number)
        parts = text_id.split("_")
        if len(parts) < 5 or parts[-1] not in continuations or not {parts[-3], parts[-2]} <= contexts.keys():
            raise DataFormatError(
                f"{path} line {number}: id {text_id!r} is not `N_noun_FIRST_SECOND_CONT` with FIRST/SECOND in "
                f"{sorted(contexts)} and CONT in {sorted(continuations)}"
            )
        first, second, continuation = parts[-3], parts[-2], parts[-1]
        family = families.get(first) or families.get(second)
        if family is None:
            raise DataFormatError(f"{path} line {number}: no predicate family for {first!r}/{second!r}")
        context_text, separator, rest = sentence.partition(". ")
        if not separator:
            raise DataFormatError(f"{path} line {number}: expected `context. continuation` in {sentence!r}")
        role = f"{continuations[continuation]}|{contexts[first]}_{contexts[second]}"
        roles.setdefault(("_".join(parts[:-3]), family), {})[role] = Text(text_id, context_text + ".", rest)
    items = [Item(f"{key}/{family}", {"family": family}, texts) for (key, family), texts in roles.items()]
    return check_unique(items, path)


def field_pairs(
    path: Path,
    *,
    item_key: Sequence[str],
    text_fields: Mapping[str, str],
    context_field: str | None = None,
    labels: Mapping[str, str] | None = None,
    id_part_labels: Mapping[str, tuple[str, int]] | None = None,
    label_values: Mapping[str, Mapping[str, str]] | None = None,
) -> list[Item]:
    """One item per row, one role per text field (targeted syntax, BLiMP, Schuster & Linzen exp. 2).

    Args:
        item_key: fields joined with `_` into the item key (`@line` is the line number); a text's id is
            `{key}_{role}`.
        text_fields: role -> field holding that role's text (e.g. `good: sentence_good`).
        context_field: field holding a shared context; without it each text is scored whole.
        labels: label -> field copied as a label.
        id_part_labels: label -> (field, index) taking one `_`-separated part of a field (e.g. `ref`).
        label_values: label -> {value in the data: value reported}, for data that spells one value two ways.
    """
    items = []
    for number, row in read_jsonl(path):
        key = "_".join(field(row, name, path, number) for name in item_key)
        context = field(row, context_field, path, number) if context_field else ""
        roles = {
            role: Text(f"{key}_{role}", context, field(row, name, path, number)) for role, name in text_fields.items()
        }
        item_labels = {label: field(row, name, path, number) for label, name in (labels or {}).items()}
        for label, (name, index) in (id_part_labels or {}).items():
            item_labels[label] = field(row, name, path, number).split("_")[index]
        for label, renamed in (label_values or {}).items():
            item_labels[label] = renamed.get(item_labels[label], item_labels[label])
        items.append(Item(key, item_labels, roles))
    return check_unique(items, path)


def row_roles(
    path: Path,
    *,
    item_key: Sequence[str],
    role_fields: Sequence[str],
    text_field: str = "sent",
    labels: Mapping[str, str] | None = None,
    split: Literal["none", "first_sentence"] = "none",
    id_prefix: str = "",
) -> list[Item]:
    """Items gathered from several rows that share `item_key`; each row is one role (anaphora accessibility).

    The role is the `|`-joined values of `role_fields`; the text id is `{id_prefix}{key}_{role fields}`.
    `split: first_sentence` scores the rest of the text given its first sentence (context up to `. `).
    """
    grouped: dict[str, tuple[dict[str, str], dict[str, Text]]] = {}
    for number, row in read_jsonl(path):
        key = "_".join(field(row, name, path, number) for name in item_key)
        role_values = [field(row, name, path, number) for name in role_fields]
        sentence = field(row, text_field, path, number)
        if split == "first_sentence":
            head, separator, rest = sentence.partition(". ")
            if not separator:
                raise DataFormatError(f"{path} line {number}: expected two sentences in {sentence!r}")
            text = Text(f"{id_prefix}{key}_{'_'.join(role_values)}", head + ".", rest)
        else:
            text = Text(f"{id_prefix}{key}_{'_'.join(role_values)}", "", sentence)
        item_labels = {label: field(row, name, path, number) for label, name in (labels or {}).items()}
        group = grouped.setdefault(key, (item_labels, {}))
        role = "|".join(role_values)
        if role in group[1]:
            raise DataFormatError(f"{path} line {number}: role {role!r} occurs twice in item {key!r}")
        group[1][role] = text
    return check_unique([Item(key, labels, roles) for key, (labels, roles) in grouped.items()], path)


def _common_word_prefix(first: str, second: str) -> int:
    """Number of leading space-separated words the two texts share."""
    count = 0
    for a, b in zip(first.split(" "), second.split(" "), strict=False):
        if a != b:
            break
        count += 1
    return count


def contrast_rows(
    path: Path, *, text_fields: Mapping[str, str], type_field: str = "type", id_field: str = "id"
) -> list[Item]:
    """Schuster & Linzen (2022) exp. 1: rows `{item}_{type}` each holding full texts that differ in their
    continuation; the context is the words the texts share.

    Roles are `{role}|{type}` (e.g. `ref|affirmative`, `nonref|negated`), gathered per item across rows.
    """
    grouped: dict[str, dict[str, Text]] = {}
    for number, row in read_jsonl(path):
        row_id, kind = field(row, id_field, path, number), field(row, type_field, path, number)
        if not row_id.endswith(f"_{kind}"):
            raise DataFormatError(f"{path} line {number}: id {row_id!r} does not end with its type {kind!r}")
        texts = {role: field(row, name, path, number) for role, name in text_fields.items()}
        shared = min(_common_word_prefix(*pair) for pair in zip(texts.values(), list(texts.values())[1:], strict=False))
        if shared == 0:
            raise DataFormatError(f"{path} line {number}: the texts share no leading words (no common context)")
        roles = grouped.setdefault(row_id.removesuffix(f"_{kind}"), {})
        for role, text in texts.items():
            words = text.split(" ")
            roles[f"{role}|{kind}"] = Text(f"{row_id}_{role}", " ".join(words[:shared]), " ".join(words[shared:]))
    return check_unique([Item(key, {}, roles) for key, roles in grouped.items()], path)


def _span(target: str, path: Path, number: int) -> str:
    """The text between `<extra_id_0>` and `<extra_id_1>` of a T5-style target."""
    if "<extra_id_0>" not in target:
        raise DataFormatError(f"{path} line {number}: target {target!r} has no <extra_id_0> span")
    return target.split("<extra_id_0>", 1)[1].split("<extra_id_1>", 1)[0].strip()


def ecbd(path: Path) -> list[Item]:
    """Entity Cloze By Date: per probe sentence, the masked span given its left context, without (`plain`)
    and with (`definition`) the entity's definition (its own span filled in) before that context.

    A left context that ends inside a word is joined to the span with one space, as the protocol joins.
    """
    items = []
    for number, row in read_jsonl(path):
        example, entity = field(row, "ex_id", path, number), field(row, "ent_str", path, number)
        definition = field(row, "definition", path, number).replace(
            "<extra_id_0>", _span(field(row, "def_target", path, number), path, number)
        )
        probes = row.get("probe_sentences")
        if not isinstance(probes, dict) or not probes:
            raise DataFormatError(f"{path} line {number}: missing field 'probe_sentences' (a non-empty object)")
        for template, probe in sorted(probes.items()):
            sentence, label = field(probe, "probe_sentence", path, number), field(probe, "label", path, number)
            left = sentence.split("<extra_id_0>", 1)[0].strip()
            span = _span(label, path, number)
            key = f"{example}|{template}"
            roles = {
                "plain": Text(f"{key}|plain", left, span),
                "definition": Text(f"{key}|definition", f"{definition} {left}".strip(), span),
            }
            items.append(Item(key, {"entity": entity}, roles))
    return check_unique(items, path)


READERS: dict[str, Callable[..., list[Item]]] = {
    "lieder": lieder,
    "field_pairs": field_pairs,
    "row_roles": row_roles,
    "contrast_rows": contrast_rows,
    "ecbd": ecbd,
}


def get_reader(name: str) -> Callable[..., list[Item]]:
    """The reader called `name`; an unknown name fails with the list of known ones."""
    if name not in READERS:
        raise UnknownNameError("suite reader", name, tuple(READERS))
    return READERS[name]
