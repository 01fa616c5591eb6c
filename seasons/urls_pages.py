from django.urls import path

from . import views

urlpatterns = [
    path("seasons/", views.season_list_page, name="season-list-page"),
    path("seasons/rules/", views.rules_page, name="season-rules"),
    path("seasons/<int:pk>/", views.season_page, name="season-page"),
    path("seasons/<int:pk>/table.pdf", views.season_table_pdf, name="season-table-pdf"),
]
