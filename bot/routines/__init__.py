"""Routines: a report's brief researched again daily, weekly or monthly in the channel or DM
it was asked in, posting only what changed. `schedule` (when, pure), `store` (routines,
their history and the channel's monthly spend, in Redis or memory), `commands` (Watch,
`/research watch`, `/research routines`, pause, resume, frequency, delete), `run` (the
workers' tick and one period's run) and `notices` (what they say in Slack)."""
