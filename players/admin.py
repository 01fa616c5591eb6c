from django.contrib import admin, messages

from . import services
from .models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "country")
    search_fields = ("name",)
    filter_horizontal = ("directors",)  # who may hold events under the club's name (players/authority.py)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "club", "country", "user", "merged_into")
    list_filter = ("club", "country")
    search_fields = ("display_name", "user__username")
    actions = ["merge_duplicates"]

    @admin.action(description="Merge the selected players into the first one (oldest)", permissions=["change"])
    def merge_duplicates(self, request, queryset):
        try:
            kept = services.player_merge(players=list(queryset.order_by("pk")))
        except ValueError as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return
        self.message_user(request, f"Merged into {kept.display_name}; ratings are recomputed.", messages.SUCCESS)
