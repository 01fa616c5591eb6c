"""Events that clubs run. The formats (brackets, Swiss, round robin) build on this."""

from django.conf import settings
from django.db import models

from players.models import Club


class Tournament(models.Model):
    name = models.CharField(max_length=160)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments")
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="directed_tournaments"
    )
    starts_on = models.DateField(null=True, blank=True)
    published = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name
