from django.urls import path

from . import views

urlpatterns = [
    path("matches/<str:stream_id>/", views.match_page, name="match-page"),
    path("matches/<str:stream_id>/record/", views.match_record, name="match-record"),
]
