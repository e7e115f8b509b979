# The technician console (docs/console.md): firmware.console.Console is what firmware.startup builds.
from firmware.console.shell import Console  # noqa: F401
