"""The player's own files: the worlds folder, settings, where they live."""
