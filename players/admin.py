from django.contrib import admin

from .models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "country")
    search_fields = ("name",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "club", "country", "user")
    list_filter = ("club", "country")
    search_fields = ("display_name", "user__username")
