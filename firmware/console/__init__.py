# The technician console (docs/console.md): ctx.console is firmware.parts.ConsoleState, which imports
# firmware.console.shell (the Console) when it wakes and releases it when it goes dormant: this package
# imports nothing, so that importing one of its modules does not bring the shell back.
