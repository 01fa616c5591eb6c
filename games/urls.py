from django.urls import path

from . import chouette_views, online_views, views

urlpatterns = [
    path("play/", online_views.online_play, name="online-play"),
    path("chouettes/new/", chouette_views.chouette_new, name="chouette-new"),
    path("chouettes/<str:stream_id>/", chouette_views.chouette_page, name="chouette-page"),
    path("matches/<str:stream_id>/", views.match_page, name="match-page"),
    path("matches/<str:stream_id>/record/", views.match_record, name="match-record"),
    path("matches/<str:stream_id>/live/", views.match_live, name="match-live"),
    path("matches/<str:stream_id>/follow/", views.match_follow, name="match-follow"),
]
