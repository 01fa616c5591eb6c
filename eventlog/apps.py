from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventLogConfig(AppConfig):
    name = "eventlog"
    verbose_name = _("Event log")
