"""`plausibility serve`: the scorers over HTTP (a JSON API and a web page), loaded once for every request."""

import argparse
import logging

from plausibility.cli.arguments import BATCH_HELP, add_load_options, load_options, positive_int
from plausibility.errors import CommandLineError, ResourceMissingError
from plausibility.serve.limits import GRACE, MAX_QUEUE, TIMEOUT

# What the `serve` extra installs; any other missing module is a bug, not a missing extra.
_SERVING = ("fastapi", "fastapi_offline", "uvicorn", "starlette", "pydantic")

_EPILOG = """examples:
  plausibility serve
  plausibility serve --model default --model roberta --port 8080
  plausibility serve --model ngram --port 0
  curl -s 127.0.0.1:8000/v1/score -H 'content-type: application/json' -d '{"triples": [["person", "eat", "apple"]]}'

Endpoints: POST /v1/score and /v1/explain, GET /v1/models, /v1/concept/SYNSET and /healthz; the page at /, the
OpenAPI schema at /docs. Once the models are loaded it prints the address on stdout (--port 0: a free port).
A bad request is answered with a 4xx and one line of JSON naming the field (a word over 50 characters: 422). A
request that would wait behind more than --max-queue triples, or past --timeout, is refused with 429 and a
Retry-After; one not answered within --timeout gets 503. SIGINT or SIGTERM stops it: it takes no more requests,
answers those in flight for up to --grace seconds and the rest 503, then exits.
Exit codes: 130 stopped by SIGINT (Ctrl-C), 143 by SIGTERM; 1 a model that does not load or a port in use;
2 a wrong command line.
"""


def port_number(value: str) -> int:
    """An argparse type: a TCP port, 0 (a free one) to 65535."""
    if not value.isdigit() or int(value) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 0 to 65535, got {value!r}")
    return int(value)


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve scores, explanations and a web page over HTTP (this machine only, by default)",
        description="Load each --model once, then answer HTTP requests: scores and probabilities exactly as "
        "`score --json` gives them, explanations with each event's abstraction grid, the loaded models, and a "
        "page at / to type events and see each model's probability, the explanation and the grid as a heatmap. "
        "Concurrent requests are scored together in one forward pass. The server reads no file a request names.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="SPEC",
        help="a scorer SPEC to serve; repeat it for several, side by side (the first answers requests naming "
        "none; default: default)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: %(default)s, this machine only; 0.0.0.0 opens it to the network, "
        "with no authentication)",
    )
    parser.add_argument(
        "--port", type=port_number, default=8000, help="the port (default: %(default)s; 0 picks a free one)"
    )
    parser.add_argument(
        "--max-triples",
        type=positive_int,
        default=10_000,
        metavar="N",
        help="the most triples one request may hold; a larger one is refused with 413 (default: %(default)s)",
    )
    parser.add_argument(
        "--batch-wait",
        type=float,
        default=5.0,
        metavar="MS",
        help="milliseconds a batch keeps gathering concurrent requests after its first arrives (default: "
        "%(default)s; longer gathers more into one forward pass, and adds as much to a lone request's latency)",
    )
    parser.add_argument(
        "--max-queue",
        type=positive_int,
        default=MAX_QUEUE,
        metavar="N",
        help="refuse a request that would wait behind more than N triples, or behind more work than the models do "
        "in --timeout, with 429 and a Retry-After (default: %(default)s: under a second of ngram's work)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        metavar="S",
        help="answer a request not answered within S seconds with 503 and drop its triples not yet scored "
        "(default: %(default)s; a large request to a slow model needs more: the default scores some 40 triples/s "
        "on 2 CPU cores)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=GRACE,
        metavar="S",
        help="on SIGTERM or SIGINT, stop taking requests, answer those in flight for up to S seconds, answer the "
        "rest 503 and exit (default: %(default)s)",
    )
    add_load_options(parser, BATCH_HELP)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from plausibility.serve.app import build_app
        from plausibility.serve.listening import listen, serve, url
        from plausibility.serve.served import load_models
    except ImportError as error:
        if error.name not in _SERVING:
            raise
        raise ResourceMissingError(
            f"plausibility serve needs FastAPI and uvicorn ({error.name} is missing): pip install 'plausibility[serve]'"
        ) from None

    if not 0 <= args.batch_wait <= 10_000:
        raise CommandLineError(f"--batch-wait is milliseconds from 0 to 10000, got {args.batch_wait}")
    for option, seconds in (("--timeout", args.timeout), ("--grace", args.grace)):
        if not 0 < seconds <= 86_400:
            raise CommandLineError(f"{option} is seconds above 0 and at most 86400, got {seconds:g}")
    options = load_options(args)  # a device this machine lacks fails now, before the port is taken
    listener = listen(args.host, args.port)
    log = logging.getLogger(__name__)
    try:
        models = load_models(args.model, **options)
        app = build_app(models, args.max_triples, args.batch_wait / 1000, args.max_queue, args.timeout)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            log.warning("listening on %s: anyone who can reach this machine can use the server", args.host)
        print(f"serving {', '.join(model.name for model in models)} at {url(listener)}", flush=True)
        log.info("the page is at /, the API's schema at /docs; Ctrl-C stops")
        serve(app, listener, args.grace, app.state.server.stop)
    finally:
        listener.close()
    return 0
