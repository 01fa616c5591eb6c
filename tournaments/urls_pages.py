from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/<int:pk>/", views.event_page, name="event-page"),
]
urlpatterns += [path("players/<int:pk>/", views.player_page, name="player-page")]
