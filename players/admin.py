from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apikit.refusals import refusal_text
from eventlog.store import ConcurrencyError

from . import services
from .models import Club, Player

MERGE_REASON = "duplicate entries of one person (merged in the admin)"


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "country")
    search_fields = ("name",)
    filter_horizontal = ("directors",)  # who may hold events under the club's name (players/authority.py)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    # merged_into is a read model of the log (players/projections.py): shown, never edited here
    list_display = ("display_name", "club", "country", "language", "user", "merged_into")
    readonly_fields = ("merged_into",)
    list_filter = ("club", "country")
    search_fields = ("display_name", "user__username")
    actions = ["merge_duplicates"]

    @admin.action(description=gettext_lazy("Merge the selected players into the first one (oldest)"),
                  permissions=["change"])
    def merge_duplicates(self, request, queryset):
        ids = list(queryset.order_by("pk").values_list("pk", flat=True))
        if not ids:
            return
        try:
            player = services.player_merge(actor=request.user, kept_id=ids[0], duplicate_ids=ids[1:],
                                           reason=MERGE_REASON)
        except (services.MergeRefused, PermissionDenied, ConcurrencyError) as refused:
            self.message_user(request, refusal_text(refused), messages.ERROR)
            return
        self.message_user(request, _("Merged into %(name)s; the ratings are recomputed in a moment.")
                          % {"name": player.display_name}, messages.SUCCESS)
