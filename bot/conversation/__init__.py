"""The conversation's pieces that `bot.flows` dispatches to: shared helpers, and what
happens after a plan is approved (cancel, deepen, feedback, replies to everything else)."""
