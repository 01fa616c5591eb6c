"""The chouette's API: open one, read it, send its commands (declared once in games/chouettes.py)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.serializers import ErrorSerializer
from games import chouettes
from games.engine.chouette import Phase, Variation

REFUSED = {
    400: OpenApiResponse(ErrorSerializer, description="refused: a body or a command that breaks a rule"),
    403: OpenApiResponse(ErrorSerializer, description="not yours to record"),
    404: OpenApiResponse(ErrorSerializer, description="no such chouette"),
    409: OpenApiResponse(ErrorSerializer, description="sent for a version the chouette has left"),
}


class ChouetteOpenSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField(max_length=chouettes.NAME_MOST),
                                    help_text=chouettes.OPENING_ARGS[0].help)
    box_partner = serializers.BooleanField(required=False, help_text=chouettes.OPENING_ARGS[1].help)
    variation = serializers.ChoiceField([v.value for v in Variation], required=False,
                                        help_text=chouettes.OPENING_ARGS[2].help)
    jacoby = serializers.BooleanField(required=False, help_text=chouettes.OPENING_ARGS[3].help)


def _command_fields() -> dict:
    fields = {"type": serializers.ChoiceField(list(chouettes.COMMANDS)),
              "expected_version": serializers.IntegerField(help_text="the version of the chouette you are looking at")}
    for spec in chouettes.COMMANDS.values():
        for arg in spec.args:
            if arg.name in fields:
                continue
            if arg.kind == "names":
                fields[arg.name] = serializers.ListField(child=serializers.CharField(), required=False,
                                                         help_text=arg.help)
            elif arg.kind == "dice":
                fields[arg.name] = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6),
                                                         min_length=2, max_length=2, required=False, help_text=arg.help)
            else:
                fields[arg.name] = serializers.CharField(required=False, help_text=arg.help)
    return fields


ChouetteCommandSerializer = type("ChouetteCommandSerializer", (serializers.Serializer,), {
    **_command_fields(), "__doc__": "One command of a chouette; ``type`` says which, the other fields are its own.",
})


class CubeSerializer(serializers.Serializer):
    member = serializers.CharField()
    value = serializers.IntegerField()
    owner = serializers.CharField(allow_null=True, help_text="null (centred), 'box', or the member")
    settled = serializers.BooleanField()
    offered = serializers.BooleanField()
    points = serializers.IntegerField(help_text="once settled: what the member won (+) or lost (-) on it")


class TotalSerializer(serializers.Serializer):
    player = serializers.CharField()
    total = serializers.IntegerField()


class ResultSerializer(serializers.Serializer):
    player = serializers.CharField()
    points = serializers.IntegerField()


class GameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    results = ResultSerializer(many=True)
    box_stays = serializers.BooleanField()
    line = serializers.ListField(child=serializers.CharField())


class OptionsSerializer(serializers.Serializer):
    box_partner = serializers.BooleanField()
    variation = serializers.CharField()
    jacoby = serializers.BooleanField()


class ChouetteSerializer(serializers.Serializer):
    id = serializers.CharField()
    version = serializers.IntegerField()
    phase = serializers.ChoiceField([p.value for p in Phase])
    game = serializers.IntegerField()
    box = serializers.CharField()
    partner = serializers.CharField(help_text="empty without a box partner")
    captain = serializers.CharField()
    team = serializers.ListField(child=serializers.CharField())
    turn = serializers.ChoiceField(["box", "team"])
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    cubes = CubeSerializer(many=True)
    pending = serializers.ListField(child=serializers.CharField())
    sheet = TotalSerializer(many=True)
    games = GameSerializer(many=True)
    options = OptionsSerializer()


class ChouetteOpen(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ChouetteOpenSerializer, responses={201: ChouetteSerializer, **REFUSED},
                   description="Open a chouette, recorded by whoever opens it.")
    def post(self, request):
        chouette = chouettes.chouette_open(actor=request.user, start=chouettes.parse_opening(request.data))
        return Response(chouettes.state_data(chouette), status=status.HTTP_201_CREATED)


class ChouetteDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ChouetteSerializer, **REFUSED})
    def get(self, request, stream_id: str):
        return Response(chouettes.state_data(chouettes.chouette_load(stream_id)))


class ChouetteCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ChouetteCommandSerializer, responses={200: ChouetteSerializer, **REFUSED},
                   description="One command of the chouette, judged by the engine at the version sent.")
    def post(self, request, stream_id: str):
        body = request.data if isinstance(request.data, dict) else None
        command = chouettes.parse(body)
        chouette, _ = chouettes.chouette_command(actor=request.user, stream_id=stream_id, command=command,
                                                 expected_version=body.get("expected_version"))
        return Response(chouettes.state_data(chouette))
