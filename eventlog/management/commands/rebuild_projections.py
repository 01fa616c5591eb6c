import os

from django.core.management.base import BaseCommand, CommandError

from eventlog import projections


class Command(BaseCommand):
    help = ("Empty every projection (a read model) and rebuild it from position 0 of the event log; processes "
            "(followers with effects) are never rebuilt.")

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="projections to rebuild (default: all)")
        parser.add_argument("--only", action="append", default=[], metavar="NAME",
                            help="rebuild this projection only (repeatable; same as naming it)")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                            help="processes for a projection whose streams are independent (default: one a core)")

    def handle(self, *args, names, only, workers, **options):
        unknown = set(names + only) - set(projections.registered())
        if unknown:
            raise CommandError(f"no projection {', '.join(sorted(unknown))}; there are {', '.join(sorted(projections.registered()))}")
        processes = [name for name in names + only if name not in projections.rebuildable()]
        if processes:  # refused before anything is emptied
            raise CommandError("; ".join(str(projections.NotRebuildable(name)) for name in sorted(set(processes))))
        named = names + only
        counts = {name: projections.rebuild(name, workers=max(1, workers)) for name in named} if named \
            else projections.rebuild_every(workers=max(1, workers))
        for name, count in counts.items():
            self.stdout.write(f"{name}: {count} events applied")
        if not names + only:
            for name in sorted(set(projections.registered()) - set(projections.rebuildable())):
                self.stdout.write(f"{name}: a process, not rebuilt (it follows on from its checkpoint)")
