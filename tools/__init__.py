# Host-side tools: build, deploy, console, report decoder, rules judge, odds.
