# The firmware's version: the console's `version`, the host's boot report, tools.build's manifest.
FIRMWARE_VERSION = "0.1.0"
