"""Ratings API: a club's rating list and a player's history."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import paging
from players.models import Player

from . import selectors
from .serializers import PlayerRatingsSerializer, RatingRowSerializer


class RatingList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("club", int, description="only this club's players"),
            OpenApiParameter("sort", str, enum=list(selectors.SORTS), description="default: rating"),
            *paging.PAGE_PARAMETERS,
        ],
        responses={200: RatingRowSerializer(many=True)},
    )
    def get(self, request):
        club = request.query_params.get("club")
        rows = selectors.rating_list(
            club_id=int(club) if club and club.isascii() and club.isdigit() else None, sort=request.query_params.get("sort", "rating")
        )
        rows, headers = paging.page(request, rows)
        return Response(rows, headers=headers)


class PlayerRatingHistory(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerRatingsSerializer}, parameters=paging.PAGE_PARAMETERS)
    def get(self, request, player_id: int):
        player = get_object_or_404(Player, pk=player_id)
        history, headers = paging.page(request, selectors.rating_history(player.pk, viewer=request.user))
        return Response(
            {"player_id": player.pk, "name": player.display_name, **selectors.player_rating(player.pk),
             "history": history}, headers=headers,
        )
