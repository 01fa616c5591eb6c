from django.core.management.base import BaseCommand, CommandError

from eventlog import projections


class Command(BaseCommand):
    help = "Empty every projection and rebuild it from position 0 of the event log."

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="projections to rebuild (default: all)")
        parser.add_argument("--only", action="append", default=[], metavar="NAME",
                            help="rebuild this projection only (repeatable; same as naming it)")

    def handle(self, *args, names, only, **options):
        unknown = set(names + only) - set(projections.registered())
        if unknown:
            raise CommandError(f"no projection {', '.join(sorted(unknown))}; there are {', '.join(sorted(projections.registered()))}")
        for name in names + only or sorted(projections.registered()):
            count = projections.rebuild(name)
            self.stdout.write(f"{name}: {count} events applied")
