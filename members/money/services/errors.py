"""The money refusals: one message in plain words, shown as it is."""


class MoneyRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
