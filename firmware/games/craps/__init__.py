# Craps: pure rules (rules: the engine's CrapsTable; bets, dice, settings) and the table controller.
