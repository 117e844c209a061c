"""The FastAPI app: scores, explanations, the loaded models and concept glosses over HTTP, and the page at `/`."""

import asyncio
import math
from collections.abc import AsyncIterator, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from plausibility.lexicon.hierarchy import UnknownSynsetError
from plausibility.query.explain import GridProbabilities
from plausibility.scorers.concept_max import running_maximum
from plausibility.scorers.stack import Reason
from plausibility.serve.batcher import MicroBatcher
from plausibility.serve.body_limit import BodyLimit
from plausibility.serve.concepts import gloss
from plausibility.serve.limits import MAX_QUEUE, TIMEOUT
from plausibility.serve.problems import RequestProblem, add_problem_handlers
from plausibility.serve.schemas import (
    ExplainRequest,
    ExplainResponse,
    Gloss,
    Health,
    ModelsResponse,
    Problem,
    ScoreRequest,
    ScoreResponse,
)
from plausibility.serve.served import ServedModel
from plausibility.version import __version__

STATIC = Path(__file__).parent / "static"
# A body's bytes per triple at most: a triple of three long words in JSON is well under it.
BYTES_PER_TRIPLE = 1024
_ERRORS = {status: {"model": Problem} for status in (400, 404, 413, 422, 429, 503)}


def _explained(explained: tuple[GridProbabilities, list[Reason]], given: Sequence[str], top: int) -> dict[str, object]:
    """One event of `POST /v1/explain`: the words as given, the explanation, why it is judged less plausible (a
    stacked model's restriction and reversals), and the grid to draw."""
    grid, reasons = explained
    explanation = grid.explanation(top)
    axes = {
        name: [{"synset": c.synset, "text": c.text, "depth": c.depth} for c in concepts]
        for name, concepts in (("subjects", grid.grid.subjects), ("objects", grid.grid.objects))
    }
    return {
        **dict(zip(("subject", "verb", "object"), given, strict=True)),
        "event": str(grid.grid.event),
        "probability": explanation.probability,
        "explanation": explanation.record(),
        "reasons": [reason.record() for reason in reasons],
        "grid": {
            **axes,
            "probabilities": grid.probabilities.tolist(),
            "running_maximum": running_maximum(grid.probabilities).tolist(),
            "best": list(grid.best_cell),
        },
    }


def _records(model: ServedModel, as_given: Hashable, triples: list[tuple[str, str, str]]) -> list[dict[str, object]]:
    return model.scorer.records(triples, as_given=bool(as_given))


def _grids(
    model: ServedModel, as_given: Hashable, triples: list[tuple[str, str, str]]
) -> list[tuple[GridProbabilities, list[Reason]]]:
    grids = model.scorer.grids(triples, as_given=bool(as_given))
    return list(zip(grids, model.scorer.reasons(triples, as_given=bool(as_given)), strict=True))


class Server:
    """The loaded models, each with a batcher for scores and one for grids, all run on one worker thread.

    Args:
        models: the loaded models; the first answers requests that name none.
        max_triples: triples one request may hold; more is refused (413).
        wait: seconds a batch keeps gathering requests after its first (`MicroBatcher`).
        max_queue: a request that would wait behind more triples than this, or behind more work than the models
            score in `timeout` seconds (at the rate of their last calls), is refused (429, with Retry-After).
        timeout: seconds a request may take; one not answered by then gets 503, its unstarted triples dropped.
    """

    def __init__(
        self,
        models: Sequence[ServedModel],
        max_triples: int = 10_000,
        wait: float = 0.005,
        max_queue: int = MAX_QUEUE,
        timeout: float = TIMEOUT,
    ) -> None:
        if not models:
            raise ValueError("a server needs at least one model")
        self.models = {model.name: model for model in models}
        self.max_triples = max_triples
        self.max_queue = max_queue
        self.timeout = timeout
        self.closing = False
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="plausibility-serve")
        self.scores = {
            model.name: MicroBatcher(partial(_records, model), self.worker, wait, max_triples) for model in models
        }
        self.grids = {
            model.name: MicroBatcher(partial(_grids, model), self.worker, wait, max_triples) for model in models
        }
        self.hierarchy = models[0].scorer.lexicon.hierarchy

    @property
    def batchers(self) -> list[MicroBatcher]:
        return [*self.scores.values(), *self.grids.values()]

    def model(self, request: ScoreRequest) -> ServedModel:
        """The model a request names (none: the first); an unknown name is a 404 naming the loaded ones."""
        name = request.model or next(iter(self.models))
        if name not in self.models:
            loaded = ", ".join(self.models)
            raise RequestProblem(
                404,
                "model",
                f"{name!r} is not loaded here; loaded: {loaded} (start with plausibility serve --model ...)",
            )
        if len(request.triples) > self.max_triples:
            raise RequestProblem(
                413,
                "triples",
                f"{len(request.triples):,} triples, more than this server takes ({self.max_triples:,}, --max-triples); "
                "split the request",
            )
        return self.models[name]

    async def answer(self, batcher: MicroBatcher, request: ScoreRequest) -> list:
        """`request`'s results from `batcher`, unless the server is stopping (503), its queue is full (429) or the
        answer takes longer than the timeout (503: the triples not yet scored are dropped)."""
        if self.closing:
            raise RequestProblem(503, "server", "shutting down; send the request again once it is back")
        ahead = sum(batcher.backlog for batcher in self.batchers)
        wait = sum(batcher.backlog_seconds() for batcher in self.batchers)
        if ahead > self.max_queue or wait > self.timeout:  # the latter would get a 503 after --timeout anyway
            seconds = math.ceil(wait) or 1
            limit = (
                f"more than --max-queue {self.max_queue:,}"
                if ahead > self.max_queue
                else f"about {wait:.0f} s of work, more than --timeout {self.timeout:g}"
            )
            raise RequestProblem(
                429,
                "server",
                f"busy: {ahead:,} triples are queued ahead, {limit}; retry in {seconds} s",
                {"Retry-After": str(seconds)},
            )
        try:
            async with asyncio.timeout(self.timeout):
                return await batcher.submit(request.triples, key=request.as_given)
        except TimeoutError:
            raise RequestProblem(
                503,
                "server",
                f"not answered within {self.timeout:g} s (--timeout); retry, or send fewer triples at a time",
                {"Retry-After": "1"},
            ) from None

    async def stop(self, grace: float) -> None:
        """Stop taking requests, let those in flight finish for `grace` seconds less one chunk of work, then answer
        the rest 503: the chunk under way is the last the worker runs, so the process ends within `grace`."""
        self.closing = True
        chunk = max(batcher.call_seconds for batcher in self.batchers)  # as long as the next call may take
        deadline = asyncio.get_running_loop().time() + max(0.0, grace - chunk)
        while any(batcher.backlog for batcher in self.batchers) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)
        stopped = RequestProblem(503, "server", f"shutting down, and not answered within --grace {grace:g} s; retry")
        for batcher in self.batchers:
            batcher.fail_pending(stopped)

    async def close(self) -> None:
        for batcher in self.batchers:
            await batcher.close()


def build_app(
    models: Sequence[ServedModel],
    max_triples: int = 10_000,
    wait: float = 0.005,
    max_queue: int = MAX_QUEUE,
    timeout: float = TIMEOUT,
) -> FastAPI:
    """The app serving `models`: `POST /v1/score`, `POST /v1/explain`, `GET /v1/models`, `GET /v1/concept/{synset}`,
    `GET /healthz`, the page at `/` and its OpenAPI schema at `/docs`. `app.state.server` is its `Server`."""
    server = Server(models, max_triples, wait, max_queue, timeout)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await server.close()

    # /docs from the files fastapi-offline ships, not from a CDN: the machines this serves on are often offline.
    app = FastAPIOffline(
        title="plausibility",
        version=__version__,
        summary="Plausibility of subject-verb-object events: scores, calibrated probabilities and explanations.",
        lifespan=lifespan,
        redoc_url=None,
    )
    app.state.server = server
    max_bytes = 64 * 1024 + BYTES_PER_TRIPLE * max_triples
    app.add_middleware(BodyLimit, max_bytes=max_bytes, advice=f"split the request (--max-triples {max_triples:,})")
    fields = {"/v1/score": list(ScoreRequest.model_fields), "/v1/explain": list(ExplainRequest.model_fields)}
    add_problem_handlers(app, fields)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/healthz", response_model=Health, tags=["server"])
    async def healthz() -> JSONResponse:
        """Whether the server is up, the models it serves and the most triples a request may hold."""
        return JSONResponse({"status": "ok", "models": list(server.models), "max_triples": server.max_triples})

    @app.get("/v1/models", response_model=ModelsResponse, tags=["models"])
    async def models_() -> JSONResponse:
        """The loaded models (the first is the default), what their probabilities mean, and shipped models' cards."""
        first = next(iter(server.models))
        return JSONResponse(
            {
                "models": [
                    {
                        "name": model.name,
                        "description": model.description,
                        "default": model.name == first,
                        "probability_mapping": model.scorer.probability_mapping,
                        "shipped_models": model.shipped_models,
                        "card": model.card,
                    }
                    for model in server.models.values()
                ]
            }
        )

    @app.post("/v1/score", response_model=ScoreResponse, responses=_ERRORS, tags=["scoring"])
    async def score(request: ScoreRequest) -> JSONResponse:
        """Each event as `plausibility score S V O --json` gives it: score, probability, lemmas and flags.

        Concurrent requests to one model are scored together, in one forward pass.
        """
        model = server.model(request)
        records = await server.answer(server.scores[model.name], request)
        return JSONResponse({"results": records})

    @app.post("/v1/explain", response_model=ExplainResponse, responses=_ERRORS, tags=["scoring"])
    async def explain(request: ExplainRequest) -> JSONResponse:
        """Each event's abstraction grid: every cell's probability, ConceptMax's running maximum of them, and the
        best abstractions (as `plausibility score --explain --json` lists them)."""
        model = server.model(request)
        grids = await server.answer(server.grids[model.name], request)
        return JSONResponse(
            {
                "model": model.name,
                "probability_mapping": model.scorer.probability_mapping,
                "results": [
                    _explained(grid, given, request.top) for grid, given in zip(grids, request.triples, strict=True)
                ],
            }
        )

    @app.get("/v1/concept/{synset}", response_model=Gloss, responses={404: {"model": Problem}}, tags=["models"])
    async def concept(synset: str) -> JSONResponse:
        """A WordNet noun synset's words, definition, examples and depth (the page links each grid concept here)."""
        try:
            found = await asyncio.get_running_loop().run_in_executor(server.worker, gloss, server.hierarchy, synset)
        except UnknownSynsetError as error:
            raise RequestProblem(404, "synset", str(error)) from None
        return JSONResponse(found)

    return app
