from django.conf import settings
from django.contrib import admin, messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import projections
from .models import Event, ProjectionCheckpoint, ProjectionFailure


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


@admin.register(ProjectionFailure)
class ProjectionFailureAdmin(admin.ModelAdmin):
    """Streams a projection set aside: what failed, where, and how many later events wait with it."""

    list_display = ("projection", "stream_id", "global_position", "event_type", "error_line", "skipped", "failed_at")
    list_filter = ("projection",)
    search_fields = ("stream_id", "error")
    readonly_fields = [f.name for f in ProjectionFailure._meta.fields]
    actions = ["rebuild_projection"]

    @admin.display(description=gettext_lazy("error"))
    def error_line(self, obj):
        return obj.error[:120]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def _watches(self, request) -> bool:
        # the officials' permission is the project's to name (settings): the log imports no app
        watch = getattr(settings, "PROJECTION_FAILURES_SEEN_BY", None)
        return bool(watch) and request.user.is_active and request.user.has_perm(watch)

    def has_module_permission(self, request):
        return super().has_module_permission(request) or self._watches(request)

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) or self._watches(request)

    def has_delete_permission(self, request, obj=None):
        return False  # a failure goes away by rebuilding, which reads the skipped events again

    def has_rebuild_permission(self, request):
        return request.user.is_superuser or self._watches(request)

    @admin.action(description=gettext_lazy("Rebuild these projections from the log (the cause fixed: tries the "
                                           "streams again)"), permissions=["rebuild"])
    def rebuild_projection(self, request, queryset):
        for name in sorted(set(queryset.values_list("projection", flat=True))):
            if name not in projections.rebuildable():
                self.message_user(request, _("%(name)s is a process, not a projection: it is never rebuilt; it "
                                             "follows on from its checkpoint") % {"name": name}, messages.ERROR)
                continue
            count = projections.rebuild(name)
            left = ProjectionFailure.objects.filter(projection=name).count()
            self.message_user(request, _("%(name)s: rebuilt from %(count)s events; %(left)s stream(s) still set aside")
                              % {"name": name, "count": count, "left": left},
                              messages.WARNING if left else messages.SUCCESS)
