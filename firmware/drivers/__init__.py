# Peripheral drivers: each receives its bus/pin/pixel object from firmware.hardware.
