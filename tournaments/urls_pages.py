from django.urls import path

from . import console_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/rules/", views.rules_page, name="event-rules"),
    path("events/new/", console_views.event_new, name="event-new"),
    path("events/<id:pk>/", views.event_page, name="event-page"),
    path("events/<id:pk>/settings/", console_views.event_settings, name="event-settings"),
    path("events/<id:pk>/run/", console_views.console_page, name="event-console"),
    path("events/<id:pk>/run/money/", console_views.event_money, name="event-money"),
    path("events/<id:pk>/run/sheets/<str:kind>.pdf", console_views.sheet_pdf, name="event-sheet"),
    path("events/<id:pk>/my-result/", console_views.my_result, name="my-result"),
    path("events/<id:pk>/follow/", views.event_follow, name="event-follow"),
    path("events/<id:pk>/history/", views.event_history, name="event-history"),
]
