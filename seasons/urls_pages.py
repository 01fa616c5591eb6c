from django.urls import path

from . import views

urlpatterns = [
    path("seasons/", views.season_list_page, name="season-list-page"),
    path("seasons/rules/", views.rules_page, name="season-rules"),
    path("seasons/<id:pk>/", views.season_page, name="season-page"),
    path("seasons/<id:pk>/table.pdf", views.season_table_pdf, name="season-table-pdf"),
]
