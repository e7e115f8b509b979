# Baccarat: pure rules (rules, settings, shoe procedure, roads), the scoreboard drawing and the table controller.
