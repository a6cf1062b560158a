"""Queue again the background work whose task was lost (a worker killed while it held
it): results e-mails still waiting or being sent ``TASKS_STUCK_MINUTES`` after they
were due. Safe to run at any time, from any server; the worker's systemd unit runs it
when the worker starts and every few minutes (docs/deploy.md, "The worker")."""

from django.core.management.base import BaseCommand

from scoring.results.mail_tasks import requeue_stuck


class Command(BaseCommand):
    help = "Queue again background work whose task was lost (e.g. a worker killed mid-task)."

    def handle(self, *args, **options):
        count = requeue_stuck()
        if options["verbosity"]:
            self.stdout.write(f"Queued again: {count} results e-mail message(s).")
