"""Django's 403 as a refusal that is data, for the apps' services and views."""

from django.core.exceptions import PermissionDenied

from games.engine.errors import Refusal


class Forbidden(Refusal, PermissionDenied):
    """``Forbidden(reason, **params)``: the code ``permission_denied``, as for any PermissionDenied, and a reason
    the API and the pages say in the reader's language."""
