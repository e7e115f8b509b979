# Omaha: pure rules (rules: the hand engine OmahaHand; betting, pots, hand_value, poker_eval, settings) and the table controller.
