from django.urls import path

from . import views

urlpatterns = [
    path("matches/<str:stream_id>/", views.match_page, name="match-page"),
    path("matches/<str:stream_id>/record/", views.match_record, name="match-record"),
    path("matches/<str:stream_id>/live/", views.match_live, name="match-live"),
    path("matches/<str:stream_id>/follow/", views.match_follow, name="match-follow"),
]
