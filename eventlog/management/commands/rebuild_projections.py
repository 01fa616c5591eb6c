from django.core.management.base import BaseCommand

from eventlog import projections


class Command(BaseCommand):
    help = "Empty every projection and rebuild it from position 0 of the event log."

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="projections to rebuild (default: all)")

    def handle(self, *args, names, **options):
        for name in names or sorted(projections.registered()):
            count = projections.rebuild(name)
            self.stdout.write(f"{name}: {count} events applied")
