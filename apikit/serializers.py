"""The one refusal body every app's API declares (deploy/openapi.py completes it with the codes it knows)."""

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """A refusal: the reason in words, and a stable code a program can act on."""

    detail = serializers.CharField()
    code = serializers.CharField(help_text="stable across wording changes: the ErrorCode enum")
    current_version = serializers.IntegerField(required=False, help_text="the stream's version now (409)")
