from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/<int:pk>/", views.event_page, name="event-page"),
    path("events/<int:pk>/follow/", views.event_follow, name="event-follow"),
]
