"""Models named by a Hugging Face id: found locally, in the Hugging Face cache, or on a reachable hub."""

from functools import cache
from pathlib import Path

from plausibility.errors import ResourceMissingError

# Seconds the hub has to answer before it counts as unreachable.
_PROBE_TIMEOUT = 3


@cache
def hub_reachable() -> bool:
    """Whether the Hugging Face hub answers within 3 s (asked once per process; offline mode: no).

    Asked through `huggingface_hub`'s own session, so its offline mode, endpoint and proxies apply.
    """
    from huggingface_hub import constants
    from huggingface_hub.utils import get_session

    if constants.HF_HUB_OFFLINE:
        return False
    try:
        get_session().head(constants.ENDPOINT, timeout=_PROBE_TIMEOUT)
    except Exception:  # any failure to connect (the session's library names several types) means unreachable
        return False
    return True


def hub_model(name: str) -> str:
    """`name` when it is a local folder, a model in the Hugging Face cache, or the hub is reachable.

    Otherwise a one-line error at once: transformers would spend about a minute retrying before its traceback.
    """
    if Path(name).is_dir():
        return name
    from huggingface_hub import try_to_load_from_cache

    try:
        cached = try_to_load_from_cache(name, "config.json")
    except ValueError:  # not a hub id but a missing path: transformers says so at once, without retrying
        return name
    if isinstance(cached, str) or hub_reachable():
        return name
    raise ResourceMissingError(
        f"model {name!r} is neither a local folder nor in the Hugging Face cache, and the hub is not reachable; "
        f"give a local model folder, or download it once where the hub is reachable (hf download {name})"
    )
