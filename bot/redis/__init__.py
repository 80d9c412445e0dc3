"""Where a report's shared state lives: Redis key names, the connection, the claims board,
the budget, the snapshot cache, conversation state and the stores that choose Redis or memory,
and the JSON codec for what crosses a process boundary."""
