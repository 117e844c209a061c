"""The HTTP API answers as `plausibility score --json` does, refuses bad requests in one line, and batches."""

import asyncio
import functools
import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
from fastapi.testclient import TestClient

from plausibility.cli import main
from plausibility.scorers.concept_max import running_maximum
from plausibility.serve.app import STATIC, build_app
from plausibility.serve.served import ServedModel, load_models

FIXTURES = Path(__file__).parents[1] / "fixtures"
NGRAM = f"ngram:{FIXTURES / 'ngram_triples.tsv'}"
CONCEPT_MAX = f"conceptmax:{NGRAM}"
EVENTS = [("person", "eats", "apples"), ("dentist", "breathe", "helium"), ("stone", "drink", "milk")]
MAX_TRIPLES = 50


@pytest.fixture(scope="module")
def models() -> list[ServedModel]:
    return load_models([NGRAM, CONCEPT_MAX])


@pytest.fixture(scope="module")
def client(models: list[ServedModel]) -> Iterator[TestClient]:
    with TestClient(build_app(models, max_triples=MAX_TRIPLES)) as client:
        yield client


def _printed(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("spec", [NGRAM, CONCEPT_MAX])
def test_score_gives_what_score_json_prints(client: TestClient, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    as_lists = client.post("/v1/score", json={"triples": EVENTS, "model": spec})
    as_objects = client.post(
        "/v1/score",
        json={"triples": [dict(zip(("subject", "verb", "object"), e, strict=True)) for e in EVENTS], "model": spec},
    )
    assert as_lists.status_code == as_objects.status_code == 200
    results = as_lists.json()["results"]
    assert results == as_objects.json()["results"]
    assert results == [_printed(capsys, "score", *event, "--model", spec, "--json") for event in EVENTS]
    assert ("explanation" in results[0]) == (spec == CONCEPT_MAX)  # a ConceptMax's score is its explanation
    given = client.post("/v1/score", json={"triples": EVENTS[:1], "model": spec, "as_given": True}).json()
    assert given["results"] == [_printed(capsys, "score", *EVENTS[0], "--model", spec, "--json", "--as-given")]


def test_a_request_naming_no_model_is_scored_by_the_first(client: TestClient) -> None:
    first = client.post("/v1/score", json={"triples": EVENTS}).json()
    assert first == client.post("/v1/score", json={"triples": EVENTS, "model": NGRAM}).json()


@pytest.mark.parametrize("spec", [NGRAM, CONCEPT_MAX])
def test_explain_gives_score_explain_json_and_the_grid_it_ranks(
    client: TestClient, spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = client.post("/v1/explain", json={"triples": EVENTS, "model": spec}).json()
    assert answer["model"] == spec
    for event, result in zip(EVENTS, answer["results"], strict=True):
        printed = _printed(capsys, "score", *event, "--model", spec, "--explain", "--json")
        assert result["explanation"] == printed["explanation"]
        assert result["reasons"] == printed.get("reasons", [])  # only a stack gives reasons
        assert (result["subject"], result["verb"], result["object"]) == event
        assert result["event"] == " ".join((printed["subject_lemma"], printed["verb_lemma"], printed["object_lemma"]))
        grid = result["grid"]
        probabilities = np.array(grid["probabilities"])
        assert probabilities.shape == (len(grid["subjects"]), len(grid["objects"]))
        assert grid["running_maximum"] == running_maximum(probabilities).tolist()
        row, column = grid["best"]
        best = f"{grid['subjects'][row]['text']} {result['event'].split()[1]} {grid['objects'][column]['text']}"
        assert best == result["explanation"]["best"]
        assert probabilities[row, column] == result["explanation"]["best_probability"] == probabilities.max()
        assert result["probability"] == probabilities[-1, -1]  # the event is its grid's last cell
        if spec == CONCEPT_MAX:  # its score is the maximum of the whole grid
            assert grid["running_maximum"][-1][-1] == printed["probability"]


def _too_many() -> dict:
    return {"triples": [["person", "eat", "apple"]] * (MAX_TRIPLES + 1)}


EXAMPLE = '{"triples": [["person", "eat", "apple"]]}'
# Each bad request, its status and its one-line error (the field at fault comes first).
BAD_REQUESTS = {
    "malformed JSON": (
        "POST",
        "/v1/score",
        b'{"triples": [["person", "eat", "apple"]',
        400,
        f"body: malformed JSON (Expecting ',' delimiter at character 39); send e.g. {EXAMPLE}",
    ),
    "a two-word triple": (
        "POST",
        "/v1/score",
        {"triples": [["person", "eat", "apple"], ["person", "eat"]]},
        422,
        'triples[1]: ["person", "eat"] has 2 words; a triple is three: [subject, verb, object]',
    ),
    "an empty list": (
        "POST",
        "/v1/score",
        {"triples": []},
        422,
        f"triples: the list is empty; give at least one triple, e.g. {EXAMPLE}",
    ),
    "too many triples": (
        "POST",
        "/v1/score",
        _too_many(),
        413,
        "triples: 51 triples, more than this server takes (50, --max-triples); split the request",
    ),
    "a body too large": (
        "POST",
        "/v1/score",
        b" " * (64 * 1024 + 1024 * MAX_TRIPLES + 1),
        413,
        "body: more than 116,736 bytes; split the request (--max-triples 50)",
    ),
    "an unknown model": (
        "POST",
        "/v1/score",
        {"triples": [["person", "eat", "apple"]], "model": "roberta"},
        404,
        f"model: 'roberta' is not loaded here; loaded: {NGRAM}, {CONCEPT_MAX} "
        "(start with plausibility serve --model ...)",
    ),
    "a multiword noun": (
        "POST",
        "/v1/explain",
        {"triples": [{"subject": "ice cream", "verb": "melt", "object": "sun"}]},
        422,
        "triples[0]: subject 'ice cream' is not a single word; "
        "give one word (a lemma) for each of subject, verb, object",
    ),
    "a control character in a word": (
        "POST",
        "/v1/score",
        {"triples": [["per\u0007son", "breathe", "air"]]},
        422,
        "triples[0]: subject 'per\\x07son' holds the character U+0007 (a control character), which no word holds; "
        "give one word (a lemma) for each of subject, verb, object",
    ),
    "an object missing a key": (
        "POST",
        "/v1/score",
        {"triples": [{"subject": "dog", "verb": "chase"}]},
        422,
        "triples[0]: missing object: an event object has the keys subject, verb and object",
    ),
    "a number for a word": (
        "POST",
        "/v1/score",
        {"triples": [["dog", "chase", 3]]},
        422,
        'triples[0]: ["dog", "chase", 3]: each word is a JSON string',
    ),
    "a sentence for a triple": (
        "POST",
        "/v1/score",
        {"triples": ["dog chase cat"]},
        422,
        'triples[0]: "dog chase cat" is not a triple; give [subject, verb, object] or {"subject", "verb", "object"}',
    ),
    "no triples": ("POST", "/v1/score", {"model": NGRAM}, 422, f"triples: missing; send e.g. {EXAMPLE}"),
    "a misspelt field": (
        "POST",
        "/v1/explain",
        {"triples": [["dog", "chase", "cat"]], "tpo": 2},
        422,
        "tpo: not a field of this request; give triples, model, as_given, top",
    ),
    "a list for a body": (
        "POST",
        "/v1/score",
        [["dog", "chase", "cat"]],
        422,
        f"body: not a JSON object; send e.g. {EXAMPLE} as Content-Type: application/json",
    ),
    "top 0": (
        "POST",
        "/v1/explain",
        {"triples": [["dog", "chase", "cat"]], "top": 0},
        422,
        "top: input should be greater than or equal to 1",
    ),
    "an unknown synset": (
        "GET",
        "/v1/concept/person.n.99",
        None,
        404,
        "synset: unknown noun synset 'person.n.99'; give a WordNet 3.0 noun synset name such as 'person.n.01'",
    ),
    "a file path": (
        "GET",
        "/v1/concept/..%2F..%2Fetc%2Fpasswd",
        None,
        404,
        "path: GET /v1/concept/../../etc/passwd is no page here; the API is /v1/score, /v1/explain, /v1/models (/docs)",
    ),
    "GET for POST": ("GET", "/v1/score", None, 405, "method: GET /v1/score is not allowed; use POST"),
}


@pytest.mark.parametrize("case", sorted(BAD_REQUESTS))
def test_each_bad_request_gets_its_status_and_one_line_naming_the_field(client: TestClient, case: str) -> None:
    method, path, body, status, error = BAD_REQUESTS[case]
    sent = {"content": body, "headers": {"content-type": "application/json"}} if isinstance(body, bytes) else {}
    response = client.request(method, path, json=body if body is not None and not sent else None, **sent)
    assert (response.status_code, response.json()) == (status, {"error": error, "field": error.split(":")[0]})
    assert "\n" not in response.text and "Traceback" not in response.text


def test_models_health_and_glosses(client: TestClient) -> None:
    models = client.get("/v1/models").json()["models"]
    assert [(model["name"], model["default"], model["card"]) for model in models] == [
        (NGRAM, True, None),
        (CONCEPT_MAX, False, None),
    ]
    assert (
        models[0]["probability_mapping"]
        == client.post("/v1/score", json={"triples": EVENTS}).json()["results"][0]["probability_mapping"]
    )
    assert client.get("/healthz").json() == {"status": "ok", "models": [NGRAM, CONCEPT_MAX], "max_triples": MAX_TRIPLES}
    assert client.get("/v1/concept/person.n.01").json() == {
        "synset": "person.n.01",
        "words": ["person", "individual", "someone", "somebody", "mortal", "soul"],
        "definition": "a human being",
        "examples": ["there was too much for one person to do"],
        "depth": 4,
    }


def test_the_page_and_the_api_docs_need_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script src="/static/page.js"></script>' in page.text
    for name in ("index.html", "page.js", "page.css"):
        assert client.get(f"/static/{name}").status_code == 200
        assert set(re.findall(r"[a-z]+://[^\s\"'`)]+", (STATIC / name).read_text())) <= {"http://www.w3.org/2000/svg"}
    docs = client.get("/docs").text
    assert "/static-offline-docs/swagger-ui-bundle.js" in docs and "https://" not in docs
    assert client.get("/static-offline-docs/swagger-ui-bundle.js").status_code == 200
    schema = client.get("/openapi.json").json()
    assert {"/v1/score", "/v1/explain", "/v1/models", "/v1/concept/{synset}", "/healthz"} <= set(schema["paths"])


def test_twenty_concurrent_requests_are_answered_right_in_fewer_forward_passes(models: list[ServedModel]) -> None:
    model = models[0]
    scorer = model.scorer.scorer  # the real scorer; its calls are counted, then passed on
    calls = []

    @functools.wraps(scorer.score)
    def counted(triples: object) -> np.ndarray:
        calls.append(len(triples))
        return type(scorer).score(scorer, triples)

    requests = [[EVENTS[index % 3], ("dog", "chase", f"cat{index}" if index % 2 else "cat")] for index in range(20)]

    async def send() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=build_app(models))
        async with httpx.AsyncClient(transport=transport, base_url="http://serve") as client:
            return await asyncio.gather(*(client.post("/v1/score", json={"triples": r}) for r in requests))

    scorer.score = counted
    try:
        responses = asyncio.run(send())
    finally:
        del scorer.score
    assert 1 <= len(calls) < 20 and sum(calls) == 40
    for triples, response in zip(requests, responses, strict=True):
        assert response.json()["results"] == model.scorer.records(triples)


def test_serve_refuses_a_port_in_use_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--model", NGRAM, "--port", str(port)]) == 1
    assert capsys.readouterr().err == (
        f"plausibility serve: error: 127.0.0.1:{port}: cannot listen there (Address already in use); "
        "choose another --port (0 picks a free one)\n"
    )


@pytest.mark.numeric
@pytest.mark.slow
@pytest.mark.integration
def test_the_default_model_answers_as_score_json_and_shows_its_card(capsys: pytest.CaptureFixture[str]) -> None:
    with TestClient(build_app(load_models([]))) as client:
        (default,) = client.get("/v1/models").json()["models"]
        alone = [client.post("/v1/score", json={"triples": [event]}).json()["results"][0] for event in EVENTS[:2]]
        together = client.post("/v1/score", json={"triples": EVENTS[:2]}).json()["results"]
    assert default["name"] == "default" and default["card"]["version"] == "2.0"
    assert set(default["card"]["test_auc"]) == {"pep3k", "20q"}
    assert alone == [_printed(capsys, "score", *event, "--json") for event in EVENTS[:2]]
    # Scored beside another event, the LM's batch is padded and multiplied by other kernels: float32 rounding moves
    # a probability by up to ~1e-5 (at most 4.5e-6 beside one other over 200 Pep-3k events, on one thread and on two,
    # bench/batch_noise.py), so allow ten times the most measured, as docs/serve.md says.
    assert [r["probability"] for r in together] == pytest.approx([r["probability"] for r in alone], abs=5e-5)


def test_explain_gives_a_stacks_reasons_in_words(tmp_path: Path) -> None:
    import yaml

    from plausibility.scorers.calibration import Calibration
    from plausibility.scorers.shipped import STACK_FORMAT

    folder = tmp_path / "stacked"
    folder.mkdir()
    features = [{"feature": NGRAM, "coefficient": 1.0}, {"feature": f"reversal:{NGRAM}", "coefficient": 2.0}]
    config = {"format": STACK_FORMAT, "name": "stacked", "version": "1.0", "summary": "a test stack"}
    config |= {"members": [NGRAM], "features": features, "intercept": 0.0, "precisions": ["float32"]}
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    Calibration(1.0, 0.0, 10, "test", "judgements").save(folder / "calibration.json")
    with TestClient(build_app(load_models([str(folder)]))) as client:
        (reversed_, attested) = client.post(
            "/v1/explain", json={"triples": [["cat", "chase", "dog"], ["dog", "chase", "cat"]]}
        ).json()["results"]
        (scored,) = client.post("/v1/score", json={"triples": [["cat", "chase", "dog"]]}).json()["results"]
    (reason,) = reversed_["reasons"]
    assert reason["feature"] == "reversal" and reason["log_odds"] < -0.4
    assert reason["reason"] == "its members find the reversed event 'dog chase cat' more plausible"
    assert attested["reasons"] == []
    assert scored["precision"] == "float32"  # no language model: nothing to run in bfloat16
