"""The language switch of every page, which also remembers a logged-in player's choice (players/languages.py)."""

from django.views.i18n import set_language as django_set_language

from . import services
from .languages import language_code
from .models import Player


def set_language(request):
    """Django's ``set_language`` (the cookie, the way back to the page), and for a logged-in player the language
    the site writes to them in from now on."""
    response = django_set_language(request)
    code = language_code(request.POST.get("language", "")) if request.method == "POST" else None
    if code and request.user.is_authenticated:
        player = Player.objects.filter(user=request.user).first()
        if player is not None:
            services.player_set_language(actor=request.user, player=player, language=code)
    return response
