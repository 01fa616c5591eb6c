import sys

from django.core.management.base import BaseCommand

from eventlog import portable


class Command(BaseCommand):
    help = ("Write the event log as JSON lines (one event a line: position, stream, version, type, schema "
            "version, payload, metadata, recorded time, chain hash) ending with a manifest (event count, last "
            "position, head hash, digest). manage.py import_log loads it into an empty database.")

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to write ('-': standard output)")

    def handle(self, *args, path: str, **options):
        if path == "-":
            manifest = portable.export(sys.stdout)
        else:
            with open(path, "w", encoding="utf-8") as out:
                manifest = portable.export(out)
        sys.stderr.write(f"{manifest['events']} events to position {manifest['last_position']}, head hash "
                         f"{manifest['head_hash']}, digest {manifest['digest']}\n")
