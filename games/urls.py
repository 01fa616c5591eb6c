from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/<str:stream_id>/", views.match_page, name="match-page"),
]
