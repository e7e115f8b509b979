# The host link: frames, sender, power-safe journal.
