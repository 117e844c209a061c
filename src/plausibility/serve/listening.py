"""Listening on an address and port, then serving an app there with uvicorn until stopped."""

import asyncio
import logging
import math
import socket
from collections.abc import Awaitable, Callable

from fastapi import FastAPI

from plausibility.errors import PlausibilityError

log = logging.getLogger(__name__)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port` (port 0: a free one), before any model loads: a port in use fails at once."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise PlausibilityError(f"--host {host}: not an address here ({error.strerror}); give e.g. 127.0.0.1") from None
    listener = socket.socket(family, kind, protocol)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as error:
        listener.close()
        raise PlausibilityError(
            f"{host}:{port}: cannot listen there ({error.strerror}); choose another --port (0 picks a free one)"
        ) from None
    listener.listen(128)
    return listener


def url(listener: socket.socket) -> str:
    """The address a browser opens for a bound socket (an IPv6 host in brackets)."""
    host, port = listener.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(
    app: FastAPI, listener: socket.socket, grace: float = 10.0, stop: Callable[[float], Awaitable[None]] | None = None
) -> None:
    """Serve `app` on `listener` until SIGINT or SIGTERM, which end it gracefully and are then raised again.

    On the signal, the listener closes and `stop(grace)` runs beside uvicorn's own shutdown: it is what answers the
    requests in flight, within `grace` seconds; uvicorn cancels whatever is still open a second after that.
    Uvicorn logs through the root logger (the command's `-q`/`-v`); its access log shows with `-v`.
    """
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            stopping = asyncio.ensure_future(stop(grace)) if stop is not None else None
            await super().shutdown(sockets)
            if stopping is not None:
                await stopping

    config = uvicorn.Config(app, log_config=None, timeout_graceful_shutdown=math.ceil(grace) + 1)
    _Server(config).run(sockets=[listener])
