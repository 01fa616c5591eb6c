from django.conf import settings
from django.contrib import admin
from django.core.exceptions import RequestDataTooBig
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from django.views.defaults import page_not_found
from django.templatetags.static import static
from django.views.generic import RedirectView
from django.utils.translation import gettext as _
from django.views.i18n import JavaScriptCatalog
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from analysis import pages as analysis_pages
from analysis.api import EventAnalysisView
from players import api as players_api
from players import views as players_views
from deploy.api_root import ApiRoot
from ratings import views as ratings_views
from tournaments.services import visible_or_404

from . import player_page, records_api
from .health import Health

urlpatterns = [
    # browsers ask for /favicon.ico on every page, the admin's too
    path("favicon.ico", RedirectView.as_view(url=static("crawford/favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    # every member logs in here (players at the table, directors who are not staff); the admin's page takes staff only
    path("accounts/login/", players_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", ApiRoot.as_view(), name="api-root"),
    path("api/health/", Health.as_view(), name="health"),
    path("api/", include("games.api.urls")),
    path("api/", include("ratings.urls")),
    path("api/players/me/", players_api.MyPlayer.as_view(), name="my-player"),
    path("api/players/<id:player_id>/records/", records_api.PlayerRecords.as_view(), name="player-records"),
    path("api/players/<id:player_id>/opponents/", records_api.PlayerOpponents.as_view(), name="player-opponents"),
    path("api/players/<id:player_id>/best-results/", records_api.PlayerBestResults.as_view(),
         name="player-best-results"),
    path("api/players/<id:player_id>/head-to-head/<id:opponent_id>/", records_api.HeadToHead.as_view(),
         name="head-to-head"),
    path("api/", include("tournaments.urls")),
    path("api/", include("analysis.urls")),
    path("api/", include("seasons.urls")),
    # analysis knows no events: the composition root hands it the event's visibility rule (a hidden one is 404)
    path("api/tournaments/<id:pk>/analysis/", EventAnalysisView.as_view(event_or_404=visible_or_404),
         name="event-analysis"),
    path("ratings/formula/", ratings_views.formula_page, name="rating-formula"),
    path("ratings/", ratings_views.rating_list_page, name="rating-list-page"),
    path("", include("seasons.urls_pages")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves Swagger UI's set-up script as a file: the page needs no inline script (deploy/csp.py)
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="crawford/swagger_ui.html"),
         name="api-docs"),
    path("api-auth/", include("rest_framework.urls")),
    # the language switch on every page posts here (Django's set_language: a form, no script), which remembers a
    # logged-in player's choice as the language their e-mails are written in
    path("i18n/setlang/", players_views.set_language, name="set_language"),
    # the scripts' strings in the reader's language (the djangojs catalogue), served as a script file
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("tournaments.urls_pages")),
    path("players/<id:pk>/", player_page.player_page, name="player-page"),
    path("players/<id:pk>/fair-play/", analysis_pages.fair_play_page, name="player-fair-play-page"),
    path("players/<id:pk>/vs/<id:other>/", player_page.head_to_head_page, name="head-to-head-page"),
    path("", include("games.urls")),
]


def not_found(request, exception=None):
    """API clients get a JSON reason for an unknown address; people get the site's page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("no such address: %(path)s") % {"path": request.path[:200]},
                             "code": "not_found"}, status=404)
    return page_not_found(request, exception)


def bad_request(request, exception=None):
    """A request Django refuses before any view (a body over DATA_UPLOAD_MAX_MEMORY_SIZE…): JSON for API clients."""
    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            detail = _("the request body is larger than %(n)s MB") % {"n": f"{limit / 1_000_000:g}"}
            return JsonResponse({"detail": detail, "code": "too_large"}, status=413)
        return JsonResponse({"detail": _("the request could not be read"), "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception)


def server_error(request):
    """A failure the API could not turn into a 4xx (say, its database connection killed): still JSON for API clients."""
    if request.path.startswith("/api/"):
        detail = _("the server failed while answering; it is logged. Retry the request with the same "
                   "Idempotency-Key: it is applied at most once.")
        return JsonResponse({"detail": detail, "code": "server_error"}, status=500)
    return defaults.server_error(request)


# with DEBUG on, Django answers an unknown address with its HTML page before handler404: the API stays JSON
# csrf_exempt: a POST to an unknown API address is a 404 in JSON, not the CSRF failure page in HTML
urlpatterns.insert(-2, re_path(r"^api/.+/$", csrf_exempt(not_found)))  # no slash: APPEND_SLASH redirects first

handler400 = bad_request
handler404 = not_found
handler500 = server_error
