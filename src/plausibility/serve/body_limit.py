"""A cap on a request's body, so a request too large for `--max-triples` is refused before it is read whole."""

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from plausibility.serve.problems import problem


class BodyLimit:
    """ASGI middleware answering 413 to a body over `max_bytes`: by its Content-Length, or once that many arrive.

    Args:
        advice: what the refusal tells the client to do, after the limit.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, advice: str) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.message = f"more than {max_bytes:,} bytes; {advice}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await problem(413, "body", self.message)(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:  # a body with no Content-Length, streamed in chunks
                raise HTTPException(413, self.message)
            return message

        await self.app(scope, counted, send)
