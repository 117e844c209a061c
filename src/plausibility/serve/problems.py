"""Every failed request answered with one line of JSON naming the field and the fix: a 4xx, never a traceback."""

import logging
from collections.abc import Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from plausibility.errors import PlausibilityError, ResourceChangedError, ResourceMissingError
from plausibility.serve.schemas import EXAMPLE_REQUEST

log = logging.getLogger(__name__)

# The pydantic errors whose own words do not say what to send.
_BODY_NOT_AN_OBJECT = {"model_attributes_type", "model_type", "dict_type"}


class RequestProblem(Exception):
    """A request the server cannot answer as asked: its status, the field at fault, and the fix."""

    def __init__(self, status: int, field: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.status = status
        self.field = field
        self.headers = headers


def problem(status: int, field: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer to a failed request: `{"error": "FIELD: MESSAGE", "field": FIELD}` (and e.g. a Retry-After)."""
    return JSONResponse({"error": f"{field}: {message}", "field": field}, status_code=status, headers=headers)


def field_name(location: Sequence[int | str]) -> str:
    """A pydantic error location as a client writes the field: `("body", "triples", 1)` as `triples[1]`."""
    parts = list(location[1:] if location and location[0] == "body" and len(location) > 1 else location)
    name = ""
    for part in parts:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or "body"


def validation_problem(error: dict, fields: Sequence[str]) -> tuple[int, str, str]:
    """The status, field and one-line message of the first thing wrong in a request's body.

    Args:
        fields: the fields of the request's body, listed when an unknown one is sent.
    """
    kind, location = error["type"], error["loc"]
    if kind == "json_invalid":
        reason = error.get("ctx", {}).get("error", "not JSON")
        return 400, "body", f"malformed JSON ({reason} at character {location[-1]}); send e.g. {EXAMPLE_REQUEST}"
    field = field_name(location)
    if kind == "missing":
        return 422, field, f"missing; send e.g. {EXAMPLE_REQUEST}"
    if kind == "extra_forbidden":
        return 422, field, f"not a field of this request; give {', '.join(fields)}"
    if kind in _BODY_NOT_AN_OBJECT and field == "body":
        return 422, field, f"not a JSON object; send e.g. {EXAMPLE_REQUEST} as Content-Type: application/json"
    message = str(error["msg"])
    return 422, field, message[:1].lower() + message[1:]


def add_problem_handlers(app: FastAPI, fields: dict[str, Sequence[str]]) -> None:
    """Answer every error as `problem` does: bad input, unknown paths, a body too large, a server fault.

    Args:
        fields: each POST path's body fields, listed when an unknown one is sent.
    """

    @app.exception_handler(RequestProblem)
    async def _request(request: Request, error: RequestProblem) -> JSONResponse:
        return problem(error.status, error.field, str(error).removeprefix(f"{error.field}: "), error.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
        return problem(*validation_problem(error.errors()[0], fields.get(request.url.path, ())))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, error: HTTPException) -> JSONResponse:
        where = f"{request.method} {request.url.path}"
        if error.status_code == 404:
            return problem(
                404, "path", f"{where} is no page here; the API is /v1/score, /v1/explain, /v1/models (/docs)"
            )
        if error.status_code == 405:
            allowed = (error.headers or {}).get("Allow", "another method")
            return problem(405, "method", f"{where} is not allowed; use {allowed}")
        return problem(error.status_code, "body" if error.status_code == 413 else "request", str(error.detail))

    @app.exception_handler(PlausibilityError)
    async def _plausibility(request: Request, error: PlausibilityError) -> JSONResponse:
        # The request was checked before scoring: what fails now is the server's (a model's files changed).
        if isinstance(error, ResourceChangedError | ResourceMissingError):
            return problem(503, "model", f"{error}; restart the server")
        return problem(422, "triples", str(error))

    @app.exception_handler(Exception)
    async def _fault(request: Request, error: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return problem(500, "server", f"internal error ({type(error).__name__}); the server's log has the traceback")
