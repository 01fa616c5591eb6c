from django.contrib import admin

from .models import Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """The season's name and owner; its events and rules are changed by commands (the API), never here."""

    list_display = ("name", "kind", "club", "director", "created_at")
    readonly_fields = ("name", "kind", "club", "director", "created_at")
