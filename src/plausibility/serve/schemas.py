"""The HTTP API's requests and answers as pydantic models: what `/docs` shows and what a request is checked against."""

import json
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from plausibility.query.triple_files import triple_problem
from plausibility.triple import TRIPLE_COLUMNS

EXAMPLE_REQUEST = '{"triples": [["person", "eat", "apple"]]}'


class EventWords(BaseModel):
    """An event as an object: one word (a lemma) for each of subject, verb and object."""

    model_config = ConfigDict(extra="forbid")

    subject: str
    verb: str
    object: str


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _event(value: object) -> tuple[str, str, str]:
    """A triple from `[subject, verb, object]` or `{"subject", "verb", "object"}`, checked as files' rows are."""
    if isinstance(value, dict):
        missing = [slot for slot in TRIPLE_COLUMNS if slot not in value]
        extra = sorted(set(value) - set(TRIPLE_COLUMNS))
        if missing or extra:
            wrong = f"missing {', '.join(missing)}" if missing else f"unknown key {', '.join(extra)}"
            raise PydanticCustomError(
                "triple", "{wrong}: an event object has the keys subject, verb and object", {"wrong": wrong}
            )
        words = [value[slot] for slot in TRIPLE_COLUMNS]
    elif isinstance(value, list):
        if len(value) != 3:
            raise PydanticCustomError(
                "triple",
                "{shown} has {n} words; a triple is three: [subject, verb, object]",
                {"shown": _shown(value), "n": len(value)},
            )
        words = value
    else:
        raise PydanticCustomError(
            "triple",
            '{shown} is not a triple; give [subject, verb, object] or {"subject", "verb", "object"}',
            {"shown": _shown(value)},
        )
    if not all(isinstance(word, str) for word in words):
        raise PydanticCustomError("triple", "{shown}: each word is a JSON string", {"shown": _shown(value)})
    if problem := triple_problem(dict(zip(TRIPLE_COLUMNS, words, strict=True))):
        raise PydanticCustomError(
            "triple", "{problem}; give one word (a lemma) for each of subject, verb, object", {"problem": problem}
        )
    return words[0], words[1], words[2]


# The checked triple; the schema shows the two forms a client may send.
Event = Annotated[tuple[str, str, str], BeforeValidator(_event, json_schema_input_type=list[str] | EventWords)]


class ScoreRequest(BaseModel):
    """Events to score, and which loaded model scores them."""

    model_config = ConfigDict(extra="forbid")

    triples: list[Event] = Field(
        description="the events: [subject, verb, object] lists or {subject, verb, object} objects, one word each",
        examples=[[["person", "eat", "apples"], {"subject": "dentist", "verb": "breathe", "object": "helium"}]],
    )
    model: str | None = Field(None, description="a loaded model's name (`GET /v1/models`); default: the first")
    as_given: bool = Field(False, description="score the words as they are, not as their lemmas")

    @field_validator("triples")
    @classmethod
    def _some(cls, triples: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        if not triples:
            raise PydanticCustomError("empty", "the list is empty; give at least one triple, e.g. " + EXAMPLE_REQUEST)
        return triples


class ExplainRequest(ScoreRequest):
    """Events to explain: each one's abstraction grid and its best abstractions."""

    top: int = Field(3, ge=1, le=1000, description="best abstractions listed per event")


class Explanation(BaseModel):
    """As `plausibility score --explain --json` gives it."""

    best: str = Field(description="the abstraction of the grid that scores highest")
    best_probability: float
    top: list[dict[str, str | float]] = Field(description="the best abstractions, highest first")


class Reason(BaseModel):
    """A stacked model's feature that pulls an event's probability down, in words."""

    feature: str = Field(description="`restriction`, or `reversal` (the role-reversal features together)")
    log_odds: float = Field(description="what it takes off the event's log-odds")
    reason: str = Field(description="in a person's words, from the bundled triples' counts or the reversed event")


class ScoredEvent(BaseModel):
    """One event exactly as `plausibility score S V O --json` prints it (lemma fields absent with `as_given`)."""

    subject: str
    verb: str
    object: str
    score: float | None = Field(description="the model's own score (its scale: a logit, a log-probability)")
    probability: float | None = Field(description="the score mapped into [0, 1], as probability_mapping says")
    subject_lemma: str | None = None
    verb_lemma: str | None = None
    object_lemma: str | None = None
    lemmatised: bool | None = Field(None, description="whether any word was scored as another form (its lemma)")
    flags: str = Field(description="comma-separated: subject-not-in-wordnet, object-unseen-in-training, ...")
    model: str
    shipped_models: dict[str, str] = Field(description="the version of every shipped model the model reads")
    probability_mapping: str
    precision: str = Field(description="what its language model ran in: float32, or bfloat16 on a CPU with its units")
    explanation: Explanation | None = Field(None, description="for a ConceptMax, whose score is its best abstraction")


class ScoreResponse(BaseModel):
    results: list[ScoredEvent] = Field(description="one per triple, in request order")


class Concept(BaseModel):
    """A concept of a grid's axis: a WordNet noun synset (None: a word WordNet lacks), its word and depth."""

    synset: str | None
    text: str
    depth: int


class Grid(BaseModel):
    """An event's abstraction grid: a row per subject concept, a column per object concept, most general first."""

    subjects: list[Concept]
    objects: list[Concept]
    probabilities: list[list[float]] = Field(description="the model's probability of each cell, row by row")
    running_maximum: list[list[float]] = Field(
        description="ConceptMax of each cell: the maximum over the cells at least as general in both slots"
    )
    best: tuple[int, int] = Field(description="row and column of the chosen abstraction (the explanation's best)")


class ExplainedEvent(BaseModel):
    subject: str
    verb: str
    object: str
    event: str = Field(description="the event as scored (its lemmas, unless as_given)")
    probability: float = Field(description="the event's own cell: the grid's last")
    explanation: Explanation
    reasons: list[Reason] = Field(
        description="why it is judged less plausible, most first: a stacked model's subject restriction and its "
        "role-reversal features (together) where they pull its log-odds down by more than 0.4; empty for other models"
    )
    grid: Grid


class ExplainResponse(BaseModel):
    model: str
    probability_mapping: str
    results: list[ExplainedEvent] = Field(description="one per triple, in request order")


class Card(BaseModel):
    """A shipped model's headline figures, from its card."""

    version: str
    summary: str
    test_auc: dict[str, float] = Field(description="ROC-AUC on the test halves of Pep-3k and 20Q")


class ModelInfo(BaseModel):
    name: str = Field(description="the SPEC it was loaded from; requests name it as `model`")
    description: str = Field(description="the SPEC with the versions of the shipped models it reads")
    default: bool = Field(description="whether it answers requests that name no model")
    probability_mapping: str
    shipped_models: dict[str, str]
    card: Card | None = Field(description="for a shipped model: its version, summary and test AUC")


class ModelsResponse(BaseModel):
    models: list[ModelInfo]


class Health(BaseModel):
    status: str
    models: list[str]
    max_triples: int


class Gloss(BaseModel):
    """A WordNet noun synset as the page's concept links show it."""

    synset: str
    words: list[str]
    definition: str
    examples: list[str]
    depth: int = Field(description="levels below WordNet's root (entity.n.01 is 1)")


class Problem(BaseModel):
    """Every 4xx and 5xx answer: one line naming the field and the fix."""

    error: str = Field(examples=["triples[1]: object 'ice cream' is not a single word; give one word (a lemma) ..."])
    field: str = Field(examples=["triples[1]"])
