"""The language switch of every page, which also remembers a logged-in player's choice (players/languages.py), and
the site's login, which brings that choice back on whatever device the player logs in from."""

from django.conf import settings
from django.contrib.auth import views as auth_views
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


class LoginView(auth_views.LoginView):
    """Django's login; a player who chose a language gets the site in it from here on (the switch's cookie)."""

    def form_valid(self, form):
        response = super().form_valid(form)
        player = Player.objects.filter(user=form.get_user()).only("language").first()
        code = language_code(player.language) if player is not None else None
        if code:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE)
        return response
