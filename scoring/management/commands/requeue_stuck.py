"""Queue again the background work whose task was lost (a worker killed while it held
it): results e-mails, league workbooks, club jobs (roster imports, rebuilds, backups),
the bookings' e-mails and the money e-mails (statements, dues notices) still waiting,
being sent, made or run ``TASKS_STUCK_MINUTES`` after they were due; and delete the
workbooks and backups older than ``EXPORTS_KEEP_HOURS``. Safe to run at any time, from
any server; the worker's systemd unit runs it when the worker starts and every few
minutes (docs/deploy.md, "The worker")."""

from django.core.management.base import BaseCommand
from django_scopes import scopes_disabled

from members.bookings import tasks as booking_tasks
from members.jobs import runner
from members.money import tasks as money_tasks
from scoring.results import mail_tasks, workbook_tasks


class Command(BaseCommand):
    help = "Queue again background work whose task was lost (e.g. a worker killed mid-task)."

    def handle(self, *args, **options):
        messages = mail_tasks.requeue_stuck()
        workbooks = workbook_tasks.requeue_stuck()
        jobs = runner.requeue_stuck()
        notices = booking_tasks.requeue_stuck()
        money = money_tasks.requeue_stuck()  # statements and dues notices
        with scopes_disabled():
            pruned = workbook_tasks.prune_workbooks()
            backups = runner.prune()
        if options["verbosity"]:
            self.stdout.write(
                f"Queued again: {messages} results e-mail message(s), {workbooks} workbook(s), "
                f"{jobs} club job(s), {notices} bookings e-mail(s), {money} money e-mail(s); "
                f"deleted {pruned} old workbook(s), {backups} old backup(s)."
            )
