from django.apps import AppConfig
from django.urls import register_converter


class ApikitConfig(AppConfig):
    """The API's shared parts; as an app, so that the ``<id:…>`` path converter is there before any urls module
    is read."""

    name = "apikit"

    def ready(self) -> None:
        from .ids import RowIdConverter

        register_converter(RowIdConverter, "id")
