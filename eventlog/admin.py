from django.contrib import admin

from .models import Event, ProjectionCheckpoint


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log is readable here and never editable: corrections are new events."""

    list_display = ("global_position", "stream_type", "stream_id", "version", "event_type", "recorded_at")
    list_filter = ("stream_type", "event_type")
    search_fields = ("stream_id",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ProjectionCheckpoint)
class CheckpointAdmin(admin.ModelAdmin):
    list_display = ("name", "position", "updated_at")
    readonly_fields = ("name", "position", "updated_at")
