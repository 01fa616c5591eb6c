"""API token authentication that answers, in its one query, what every command then asks of the user.

DRF's ``TokenAuthentication`` reads the token and its user (one query); every match command then asked, each in
a query of its own, which player the user is (``authority.seat_in_match``) and, for anyone not acting in their
own seat, whether they hold the officials' permission (``authority.officiates_everything``: two more, the
user's and their groups' permissions). Here the same query brings both, and :func:`players.authority.remember`
keeps them on the request's user object, which lives as long as the request.
"""

from __future__ import annotations

from django.contrib.auth.models import Permission
from django.db.models import Exists, OuterRef, Subquery
from rest_framework import authentication, exceptions

from . import authority
from .models import Player

_APP, _CODENAME = authority.OFFICIATE.split(".")


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        officiate = Permission.objects.filter(content_type__app_label=_APP, codename=_CODENAME)
        try:
            token = (
                self.get_model().objects.select_related("user")
                .annotate(
                    player_id=Subquery(Player.objects.filter(user_id=OuterRef("user_id")).values("pk")[:1]),
                    # ModelBackend's rule: a permission of the user's own or of one of their groups
                    officiate_direct=Exists(officiate.filter(user=OuterRef("user_id"))),
                    officiate_group=Exists(officiate.filter(group__user=OuterRef("user_id"))),
                )
                .get(key=key)
            )
        except self.get_model().DoesNotExist:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        user = token.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        authority.remember(user, player_id=token.player_id,
                           officiates=user.is_superuser or token.officiate_direct or token.officiate_group)
        return user, token
