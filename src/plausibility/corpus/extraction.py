"""The s-v-o extraction rule (SPEC section 4; thesis section 6.5.1) over parser-neutral clauses."""

from dataclasses import dataclass

from plausibility.triple import Triple

# Relation names every parser backend converts to (Universal Dependencies spelling where one exists).
SUBJECT = "nsubj"
OBJECT = "obj"
INDIRECT_OBJECT = "iobj"
PASSIVE_SUBJECT = "nsubj:pass"
AGENT = "agent"  # the noun of a passive's by-phrase, attached directly to the verb
OBJECT_CONJUNCT = "obj:conj"  # a noun coordinated with the direct object ("apples and pears")

_COMMON_NOUN = "NOUN"
_VERB = "VERB"


@dataclass(frozen=True, slots=True)
class Argument:
    """A dependent of a sentence's root: its relation, lemma and universal part of speech."""

    relation: str
    lemma: str
    pos: str


@dataclass(frozen=True, slots=True)
class Clause:
    """The root of one parsed sentence and those of its dependents the rule looks at."""

    lemma: str
    pos: str
    arguments: tuple[Argument, ...]


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Optional extensions of the rule; both are off in the paper's rule.

    Args:
        passives: also read `nsubj:pass` + agent ("the apple was eaten by the child" gives child eat apple).
        coordinated_objects: one triple per common noun coordinated with the direct object.
    """

    passives: bool = False
    coordinated_objects: bool = False


def _is_word(lemma: str) -> bool:
    # The tagger calls some symbols nouns ("%" in "50 % of voters"); keep letters and inner hyphens only.
    return lemma.replace("-", "").isalpha()


def _first(clause: Clause, relation: str) -> Argument | None:
    return next((argument for argument in clause.arguments if argument.relation == relation), None)


def extract_triples(clause: Clause, options: RuleOptions) -> list[Triple]:
    """The triples one sentence yields: none, one, or (with coordinated objects) several.

    The root must be a verb with a nominal subject and a direct object, and no indirect object; both
    arguments must be common nouns (proper nouns and pronouns are skipped). Lemmas are lowercased, and
    all three must be words (letters, inner hyphens), which drops symbols tagged as nouns.
    Known false positive, accepted as in the paper: "eats a hot dog" gives `dog`.
    """
    if clause.pos != _VERB or _first(clause, INDIRECT_OBJECT) is not None:
        return []
    subject, direct_object = _first(clause, SUBJECT), _first(clause, OBJECT)
    if subject is None and direct_object is None and options.passives:
        subject, direct_object = _first(clause, AGENT), _first(clause, PASSIVE_SUBJECT)
    if subject is None or direct_object is None or subject.pos != _COMMON_NOUN:
        return []
    if not (_is_word(clause.lemma) and _is_word(subject.lemma)):
        return []
    objects = [direct_object]
    if options.coordinated_objects:
        objects += [argument for argument in clause.arguments if argument.relation == OBJECT_CONJUNCT]
    verb = clause.lemma.lower()
    return [
        Triple(subject.lemma.lower(), verb, argument.lemma.lower())
        for argument in objects
        if argument.pos == _COMMON_NOUN and _is_word(argument.lemma)
    ]
