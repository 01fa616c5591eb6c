import sys

from django.core.management.base import BaseCommand, CommandError

from eventlog import portable


class Command(BaseCommand):
    help = ("Load a file written by manage.py export_log into an empty database, all or nothing: every line's "
            "position, version and chain hash and the manifest are checked, and the first that does not check "
            "out is named by its position. Then run manage.py rebuild_projections.")

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to read ('-': standard input)")

    def handle(self, *args, path: str, **options):
        try:
            if path == "-":
                count = portable.import_(sys.stdin)
            else:
                with open(path, encoding="utf-8") as lines:
                    count = portable.import_(lines)
        except portable.ImportRefused as refused:
            raise CommandError(f"nothing imported: {refused.problem.name} at {refused}") from refused
        self.stdout.write(f"{count} events imported; now: manage.py rebuild_projections")
