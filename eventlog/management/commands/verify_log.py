from django.core.management.base import BaseCommand, CommandError

from eventlog import verification


class Command(BaseCommand):
    help = ("Walk the event log's hash chain from its first event, check every stream's versions, and re-judge "
            "every stream whose owner registered a judge (a match's commands decided again by the engine). "
            "Exit status 1 and each problem named by position if anything does not check out.")

    def add_arguments(self, parser):
        parser.add_argument("--chain-only", action="store_true", help="the chain and the versions, no re-judging")

    def handle(self, *args, chain_only: bool, **options):
        report = verification.walk()
        if not chain_only:
            verification.judge_streams(report)
        self.stdout.write(f"{report.events} events, head position {report.head_position}, "
                          f"head hash {report.head_hash}")
        if not chain_only:
            unjudged = ", ".join(f"{n} {kind}" for kind, n in sorted(report.streams_unjudged.items()))
            self.stdout.write(f"{report.streams_judged} streams re-judged"
                              + (f"; no judge for {unjudged}" if unjudged else ""))
        if not report.ok:
            for problem in sorted(report.problems, key=lambda p: p.position):
                self.stderr.write(str(problem))
            raise CommandError(f"the log does not check out: {len(report.problems)} problem(s), the first at "
                               f"position {min(p.position for p in report.problems)}")
        self.stdout.write("the log checks out")
