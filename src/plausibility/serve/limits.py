"""What a server takes by default: how many triples may queue, how long a request may take, how long a stop waits."""

# Measured on 2 CPU cores (bench/serve_load.py): ngram scores thousands of triples/s, so 1,000 triples queued ahead
# of a request are well under a second; the default some 40, so for it the timeout binds first (a request that
# would wait past it is refused at once, 429, as a full queue is).
MAX_QUEUE = 1000
# Seconds a request may take: p99 latency stays under it however many clients send, since a request not answered
# by then is answered 503 and its triples not yet scored are dropped (the default scores ~200 triples in 5 s).
TIMEOUT = 5.0
# Seconds a stopping server answers the requests in flight before it answers the rest 503.
GRACE = 10.0
