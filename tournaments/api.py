"""Thin API views for events."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from players.models import Club

from . import selectors, services
from .models import Tournament


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    format = serializers.ChoiceField(choices=["single_elimination", "double_elimination", "swiss", "round_robin"])
    club = serializers.IntegerField(required=False, allow_null=True)
    settings = serializers.DictField(required=False, help_text="lengths per bracket/round, rounds, tiebreaks…")


class TournamentListCreate(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournaments_list", responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        rows = Tournament.objects.filter(published=True).values("id", "name", "club_id", "starts_on")
        return Response(list(rows))

    @extend_schema(request=TournamentCreateSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        form = TournamentCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = get_object_or_404(Club, pk=data["club"]) if data.get("club") else None
        tournament = services.tournament_create(
            actor=request.user, name=data["name"], format=data["format"], club=club, settings=data.get("settings")
        )
        return Response(selectors.tournament_data(tournament), status=status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        return Response(selectors.tournament_data(services.visible_or_404(request.user, pk)))


class TournamentCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        command = request.data if isinstance(request.data, dict) else {}
        new = services.tournament_command(actor=request.user, tournament=tournament, command=command)
        return Response({"appended": [{"type": e.event_type, "payload": e.payload} for e in new]})
