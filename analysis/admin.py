from django.contrib import admin

from .models import MatchAnalysis


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(admin.ModelAdmin):
    list_display = ("stream_id", "plies", "status", "attempts", "seconds", "finished_at")
    list_filter = ("status", "plies")
    search_fields = ("stream_id",)
    readonly_fields = [f.name for f in MatchAnalysis._meta.fields]
