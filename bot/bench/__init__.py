"""Benchmarks of the bot on real `fonte worker` processes, against a Slack stand-in on
loopback: `concurrency` (how many reports two workers sustain) and `soak` (20 reports with a
worker SIGKILLed mid-way). Figures, not assertions."""
