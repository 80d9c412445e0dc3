"""Everything that speaks Slack: the Bolt app and its listeners, the Web API boundary, Block
Kit builders, what the bot says in both languages, report delivery and live progress."""
