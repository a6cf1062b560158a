from django.apps import AppConfig


class MoneyConfig(AppConfig):
    """Table money, payments, balances, statements and dues (issue 34): its own app
    label ``money``, inside ``members`` (it knows nothing of scoring)."""

    name = "members.money"
    label = "money"
    verbose_name = "Money"
    default_auto_field = "django.db.models.BigAutoField"
