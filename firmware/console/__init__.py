# The technician console (docs/console.md): firmware.console.Console is what firmware.main builds.
from firmware.console.shell import Console  # noqa: F401
