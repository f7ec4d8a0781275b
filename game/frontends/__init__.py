"""Front ends with no window: the command line, the headless runner."""
