from django.contrib import admin

from .models import ClubRatingRule


@admin.register(ClubRatingRule)
class ClubRatingRuleAdmin(admin.ModelAdmin):
    """A club's new-player ramp; each match records the ramp it was created under, so a change rates only later matches."""

    list_display = ("club", "ramp")
    list_select_related = ("club",)
