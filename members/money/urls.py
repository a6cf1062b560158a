from django.urls import path

from members.money.views import dues, imports, me, roles, settings, statements, treasurer

app_name = "money"

urlpatterns = [
    path("money/", treasurer.balances, name="balances"),
    path("money/people/<int:pk>/", treasurer.account, name="account"),
    path("money/people/<int:pk>/pay/", treasurer.pay, name="pay"),
    path("money/people/<int:pk>/profile/", treasurer.profile, name="profile"),
    path("money/people/<int:pk>/treasurer/", roles.treasurer_role, name="treasurer_role"),
    path("money/entries/<int:pk>/change/", treasurer.change, name="change"),
    path("money/entries/<int:pk>/take-back/", treasurer.take_back, name="take_back"),
    path("money/import/", imports.upload, name="import"),
    path("money/import/preview/", imports.preview, name="import_preview"),
    path("money/import/confirm/", imports.confirm, name="import_confirm"),
    path("money/settings/", settings.money_settings, name="settings"),
    path("money/days/<int:pk>/", settings.day_rate, name="day_rate"),
    path("money/statements/", statements.statements, name="statements"),
    path("money/statements/<int:pk>/", statements.statement_run, name="statement_run"),
    path("money/statements/<int:pk>/print/", statements.statement_print, name="statement_print"),
    path("money/dues/", dues.dues, name="dues"),
    path("money/dues/<int:pk>/", dues.renewal, name="renewal"),
    path("money/dues/<int:pk>/pay/", dues.renewal_pay, name="renewal_pay"),
    path("money/dues/<int:pk>/remind/", dues.renewal_remind, name="renewal_remind"),
    path("money/dues/<int:pk>/letters/", dues.renewal_letters, name="renewal_letters"),
    path("me/money/", me.my_money, name="me"),
]
