"""The table: playing a game, hand by hand (services, views, forms, access, history)."""
