"""The game's rules with no window: the Session and everything one tick runs."""
