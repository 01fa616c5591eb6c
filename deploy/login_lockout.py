"""django-axes with two limits: one for an (address, user name) pair, a higher one for an address alone.

axes compares every lockout parameter against a single AXES_FAILURE_LIMIT. A club's members often share
one address (the club's wifi), so the address alone gets its own, higher limit: a member who mistypes is
locked out after AXES_FAILURE_LIMIT tries, an address spraying one password over many user names after
AXES_ADDRESS_FAILURE_LIMIT. A successful login clears only its own pair's count: otherwise an attacker could
wipe the address's count by logging in to an account of their own between sprays.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Sum

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt


class PairAndAddressLockout(AxesDatabaseHandler):
    """AXES_LOCKOUT_PARAMETERS stays the pair; the address's count is added here."""

    def get_failures(self, request, credentials=None) -> int:
        recent = AccessAttempt.objects.filter(ip_address=request.axes_ip_address)
        if settings.AXES_COOLOFF_TIME is not None:
            recent = recent.filter(attempt_time__gte=get_cool_off_threshold(request))
        pair = _failures(recent.filter(username=get_client_username(request, credentials)))
        if _failures(recent) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return max(pair, get_failure_limit(request, credentials))  # axes' single limit reached: locked
        return pair

    def reset_user_attempts(self, request, credentials=None) -> int:
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(ip_address=request.axes_ip_address, username=username).delete()
        return count


def _failures(attempts) -> int:
    return attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
