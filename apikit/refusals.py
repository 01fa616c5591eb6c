"""A refusal in the reader's language, for the pages of every app: the refusals' catalogue lives above the apps
(``settings.REFUSAL_TEXT`` names it), so an app's view says a refusal without importing the composition root."""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string


def refusal_text(refused: Exception) -> str:
    """``refused`` said in the active language: by its reason and parameters, else by its stable code."""
    return _said(settings.REFUSAL_TEXT)(refused) if settings.REFUSAL_TEXT else str(refused)


@lru_cache(maxsize=4)
def _said(path: str):
    return import_string(path)


def stored(refused: Exception) -> dict | None:
    """``refused``'s reason and parameters as JSON, to be said later in the language of whoever reads it (a job's
    refusal, judged by a worker that has no reader); None for a refusal that is a text alone, or holds one."""
    reason = getattr(refused, "reason", None)
    if not isinstance(reason, Enum):
        return None
    params = {}
    for name, value in refused.params.items():
        if isinstance(value, Exception):
            inner = stored(value)
            if inner is None:
                return None
            params[name] = {"refusal": inner}
        else:
            params[name] = value if isinstance(value, (str, int, float, bool)) or value is None else str(value)
    return {"reason": f"{type(reason).__module__}.{type(reason).__qualname__}", "name": reason.name,
            "params": params}


class StoredRefusal(Exception):
    """A refusal read back from :func:`stored`: the same reason (the layer's enum member) and parameters."""

    def __init__(self, data: dict):
        enum = import_string(data["reason"])
        if not (isinstance(enum, type) and issubclass(enum, Enum)):
            raise ValueError(f"{data['reason']} is not a reason enum")
        self.reason = enum[data["name"]]
        self.params = {name: StoredRefusal(value["refusal"]) if isinstance(value, dict) and "refusal" in value
                       else value for name, value in data["params"].items()}
        super().__init__(self.reason.value % self.params)


def said_later(refusal: dict | None) -> dict | None:
    """A stored refusal body (``code``, ``detail``, …) with its ``detail`` in the active language when its reason was
    kept (``said``); the body as it was otherwise."""
    if not refusal or not refusal.get("said"):
        return refusal
    body = {key: value for key, value in refusal.items() if key != "said"}
    body["detail"] = refusal_text(StoredRefusal(refusal["said"]))
    return body
