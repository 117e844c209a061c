"""Dependency-parser backends (spaCy, Stanza) that turn paragraphs into one `Clause` per sentence."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Literal, Protocol, get_args

from plausibility.corpus.extraction import (
    AGENT,
    INDIRECT_OBJECT,
    OBJECT,
    OBJECT_CONJUNCT,
    PASSIVE_SUBJECT,
    SUBJECT,
    Argument,
    Clause,
)
from plausibility.errors import ResourceMissingError, UnknownNameError
from plausibility.resources.parser import DEFAULT_SPACY, load_spacy

if TYPE_CHECKING:
    import spacy.tokens
    import stanza

ParserName = Literal["spacy", "stanza"]
PARSERS: tuple[str, ...] = get_args(ParserName)

# Only what the rule reads: tokens, tags mapped to universal POS, lemmas and the parse (which also
# splits sentences). Named-entity recognition is the costly component the rule does not need.
SPACY_EXCLUDE = ("ner",)
STANZA_PROCESSORS = "tokenize,pos,lemma,depparse"

# spaCy's English models use ClearNLP labels; `dative` covers both "gave the student a book" and
# "gave a book to the student" (SPEC: either counts as an indirect object).
_SPACY_RELATIONS = {"nsubj": SUBJECT, "dobj": OBJECT, "dative": INDIRECT_OBJECT, "nsubjpass": PASSIVE_SUBJECT}
_STANZA_RELATIONS = {
    "nsubj": SUBJECT,
    "obj": OBJECT,
    "iobj": INDIRECT_OBJECT,
    "nsubj:pass": PASSIVE_SUBJECT,
    "obl:agent": AGENT,
}


class Parser(Protocol):
    """Parses paragraphs; yields one root `Clause` per sentence, in order."""

    def describe(self) -> dict[str, str]:
        """Name, model and versions, for the manifest."""
        ...

    def clauses(self, paragraphs: Iterable[str]) -> Iterator[Clause]:
        """The root clause of every sentence of every paragraph."""
        ...


@dataclass(frozen=True, slots=True)
class ParserSpec:
    """Which backend and model to load; small and picklable, so worker processes load their own copy."""

    name: str = "spacy"
    model: str = ""
    batch_size: int = 64

    def __post_init__(self) -> None:
        if self.name not in PARSERS:
            raise UnknownNameError("parser", self.name, PARSERS)

    def load(self) -> Parser:
        if self.name == "stanza":
            return StanzaParser(language=self.model or "en", batch_size=self.batch_size)
        return SpacyParser(model=self.model or DEFAULT_SPACY, batch_size=self.batch_size)


def clauses_from_spacy(doc: "spacy.tokens.Doc") -> Iterator[Clause]:
    """One clause per sentence of a parsed spaCy document."""
    for sentence in doc.sents:
        root = sentence.root
        if root.pos_ != "VERB":
            yield Clause(root.lemma_, root.pos_, ())
            continue
        arguments = []
        for child in root.children:
            dep = child.dep_
            if dep in _SPACY_RELATIONS:
                arguments.append(Argument(_SPACY_RELATIONS[dep], child.lemma_, child.pos_))
                if dep == "dobj":
                    arguments.extend(
                        Argument(OBJECT_CONJUNCT, conjunct.lemma_, conjunct.pos_) for conjunct in child.conjuncts
                    )
            elif dep == "agent":
                # spaCy attaches the preposition "by" to the verb and the noun to the preposition.
                arguments.extend(
                    Argument(AGENT, noun.lemma_, noun.pos_) for noun in child.children if noun.dep_ == "pobj"
                )
        yield Clause(root.lemma_, root.pos_, tuple(arguments))


def clauses_from_stanza(doc: "stanza.Document") -> Iterator[Clause]:
    """One clause per sentence of a parsed Stanza document (Universal Dependencies relations)."""
    for sentence in doc.sentences:
        words = sentence.words
        root = next((word for word in words if word.head == 0), None)
        if root is None:
            continue
        arguments = []
        for word in words:
            if word.head == root.id and word.deprel in _STANZA_RELATIONS:
                arguments.append(Argument(_STANZA_RELATIONS[word.deprel], word.lemma or word.text, word.upos))
                if word.deprel == "obj":
                    arguments.extend(
                        Argument(OBJECT_CONJUNCT, conjunct.lemma or conjunct.text, conjunct.upos)
                        for conjunct in words
                        if conjunct.head == word.id and conjunct.deprel == "conj"
                    )
        yield Clause(root.lemma or root.text, root.upos, tuple(arguments))


class SpacyParser:
    """spaCy backend (default): batched `nlp.pipe` with only the components the rule needs."""

    def __init__(self, model: str = DEFAULT_SPACY, batch_size: int = 64) -> None:
        self.nlp = load_spacy(model, exclude=SPACY_EXCLUDE)
        self.batch_size = batch_size

    def describe(self) -> dict[str, str]:
        import spacy

        meta = self.nlp.meta
        return {
            "name": "spacy",
            "model": f"{meta['lang']}_{meta['name']}",
            "model_version": meta["version"],
            "library_version": spacy.__version__,
            "components": ",".join(self.nlp.pipe_names),
        }

    def clauses(self, paragraphs: Iterable[str]) -> Iterator[Clause]:
        for doc in self.nlp.pipe(paragraphs, batch_size=self.batch_size):
            yield from clauses_from_spacy(doc)


class StanzaParser:
    """Stanza backend (the paper's parser); its models download from a hub on first use."""

    def __init__(self, language: str = "en", batch_size: int = 64) -> None:
        import stanza

        try:
            self.nlp = stanza.Pipeline(
                language, processors=STANZA_PROCESSORS, download_method=None, logging_level="WARN"
            )
        except FileNotFoundError as error:  # also stanza's ResourcesFileNotFoundError
            raise ResourceMissingError(
                f"Stanza models for {language!r} are not installed; where the model hub is reachable run: "
                f"python -c \"import stanza; stanza.download('{language}')\""
            ) from error
        self.language = language
        self.batch_size = batch_size

    def describe(self) -> dict[str, str]:
        import stanza

        return {
            "name": "stanza",
            "model": self.language,
            "library_version": stanza.__version__,
            "components": STANZA_PROCESSORS,
        }

    def clauses(self, paragraphs: Iterable[str]) -> Iterator[Clause]:
        import stanza

        stream = iter(paragraphs)
        while batch := list(islice(stream, self.batch_size)):
            for doc in self.nlp.bulk_process([stanza.Document([], text=text) for text in batch]):
                yield from clauses_from_stanza(doc)
